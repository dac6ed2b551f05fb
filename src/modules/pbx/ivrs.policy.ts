// Policy of the hosted PBX: (welcome services, office hours) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const ivrPolicy: Record<string, PolicyEntry> = {};
