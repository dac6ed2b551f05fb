// Policy of the hosted PBX: (subscribers, numbering plan) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const subscriberPolicy: Record<string, PolicyEntry> = {};
