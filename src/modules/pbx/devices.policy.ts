// Policy of the hosted PBX: (SIP devices, programmable keys) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const devicePolicy: Record<string, PolicyEntry> = {};
