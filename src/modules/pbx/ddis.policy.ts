// Policy of the hosted PBX: (DDI numbers) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const ddiPolicy: Record<string, PolicyEntry> = {};
