// Policy of the hosted PBX: (external trunks) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const trunkPolicy: Record<string, PolicyEntry> = {};
