// Named conditions that a grant can carry beyond its relation ("demo offers only", "self-service
// fields only"). They run in process on the loaded target and the validated input.
import type { Caller } from './roles.ts';

export interface ConditionInput {
  caller: Caller;
  target: Record<string, unknown> | undefined;
  body: unknown;
}

const SELF_SERVICE_USER_FIELDS = new Set(['firstName', 'lastName', 'password', 'language', 'timezone']);

export const CONDITIONS = {
  /** A user editing his own account may change only his names, password, language and time zone. */
  selfServiceFieldsOnly: ({ body }: ConditionInput) =>
    typeof body !== 'object' || body === null || Object.keys(body).every((k) => SELF_SERVICE_USER_FIELDS.has(k)),
  /** An administrator cannot act on an account holding a role above his own (a superadmin, say). */
  targetHasNoHigherRole: ({ caller, target }: ConditionInput) => {
    const roles = (target?.roles as string[] | undefined) ?? [];
    if (caller.roles.includes('superadmin')) return true;
    return !roles.some((r) => r === 'superadmin' || r === 'support' || r === 'business_admin');
  },
} satisfies Record<string, (i: ConditionInput) => boolean>;

export type ConditionName = keyof typeof CONDITIONS;
