// Policy of the hosted PBX: (groups, group forwards) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const groupPolicy: Record<string, PolicyEntry> = {};
