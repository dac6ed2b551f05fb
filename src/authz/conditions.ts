// Named conditions that a grant can carry beyond its relation ("demo offers only", "self-service
// fields only"). They run in process on the loaded target and the validated input.
import type { Caller } from './roles.ts';
import type { ErrorKey } from '../errors/catalogue.ts';
import { texts } from '../shared/json-values.ts';

export interface ConditionInput {
  caller: Caller;
  target: Record<string, unknown> | undefined;
  body: unknown;
}

const SELF_SERVICE_USER_FIELDS = new Set(['firstName', 'lastName', 'password', 'language', 'timezone']);

/** The company flags by which a BP rules its End Customers' subscription updates (doc 1, update subscription, rule 5). */
export const SUBSCRIPTION_FLAGS = ['adminHasRightToUpdateSubscriptions', 'adminAllowedUpdateSubscriptionsOps'] as const;
const SUBSCRIPTION_FLAG_SET = new Set<string>(SUBSCRIPTION_FLAGS);

export const CONDITIONS = {
  /** A user editing his own account may change only his names, password, language and time zone. */
  selfServiceFieldsOnly: ({ body }: ConditionInput) =>
    typeof body !== 'object' || body === null || Object.keys(body).every((k) => SELF_SERVICE_USER_FIELDS.has(k)),
  /**
   * Document 3, update site: "only a bp admin or an admin of the site's organisation may move a
   * site (change companyId)": others may rename it or change its status, in its company.
   */
  siteStaysInItsCompany: ({ target, body }: ConditionInput) =>
    typeof body !== 'object' || body === null || !('companyId' in body) || body.companyId === target?.companyId,
  /**
   * Doc 1, update subscription, rule 5: the BP's grant on its End Customers' companies covers the
   * two subscription flags and nothing else of the company.
   */
  subscriptionFlagsOnly: ({ body }: ConditionInput) =>
    typeof body !== 'object' || body === null || Object.keys(body).every((k) => SUBSCRIPTION_FLAG_SET.has(k)),
  /**
   * Doc 1, create subscription, rule 7: "bp_finance of a BP IR company: only EC companies or its
   * own BP IR company". Carried by a grant on `ownCompany`, whose target is the caller's company:
   * it reads the caller's company facts, which are the target company's (or, for a subscription
   * target, its company's), so it serves company and subscription targets alike.
   */
  callerCompanyIsBpIr: ({ caller }: ConditionInput) => caller.companyIsBP && caller.companyBpType === 'IR',
  /** An administrator cannot act on an account holding a role above his own (a superadmin, say). */
  targetHasNoHigherRole: ({ caller, target }: ConditionInput) => {
    const roles = texts(target?.roles);
    if (caller.roles.includes('superadmin')) return true;
    return !roles.some((r) => r === 'superadmin' || r === 'support' || r === 'business_admin');
  },
} satisfies Record<string, (i: ConditionInput) => boolean>;

export type ConditionName = keyof typeof CONDITIONS;

/** The refusal of a condition that has its own error in the catalogue (others give FORBIDDEN). */
export const CONDITION_ERRORS: Partial<Record<ConditionName, ErrorKey>> = {
  siteStaysInItsCompany: 'SITE_MOVE_NOT_ALLOWED',
};
