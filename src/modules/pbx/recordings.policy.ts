// Policy of the hosted PBX: (recordings, retention) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const recordingPolicy: Record<string, PolicyEntry> = {};
