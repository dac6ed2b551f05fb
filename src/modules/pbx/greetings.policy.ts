// Policy of the hosted PBX: (greetings, group voicemail greetings) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
import type { PolicyEntry } from '../../authz/grant.ts';

export const greetingPolicy: Record<string, PolicyEntry> = {};
