// Errors of the commerce module (document 1, Commerce): n = 600..699 (catalogs and offers from 600,
// licences from 650, subscriptions from 670).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const commerceErrors = {
  OFFER_PRICE_CURRENCY_UNKNOWN: {
    status: 400,
    code: 400600,
    message: 'Bad Request: a price currency is not an ISO 4217 currency code',
  },
  OFFER_PRICE_CURRENCY_TWICE: {
    status: 400,
    code: 400601,
    message: 'Bad Request: an offer has at most one price per currency',
  },
  OFFER_PROVISIONING_INVALID: {
    status: 400,
    code: 400602,
    message:
      'Bad Request: a media provisioning entry needs mediaType (and no bridgeEnterpriseId), a conference one bridgeEnterpriseId (and no mediaType)',
  },
  OFFER_FEATURE_INVALID: {
    status: 400,
    code: 400603,
    message:
      'Bad Request: a number feature needs limitMax (and no isEnabled), a boolean feature isEnabled (and no limitMax); featureUniqueRef appears once per offer',
  },
  OFFER_PREPAID_DURATION: {
    status: 400,
    code: 400604,
    message: 'Bad Request: prepaidDuration (12 to 60 months) is for prepaid offers, and a prepaid offer needs one',
  },
  CATALOG_UNKNOWN: { status: 400, code: 400605, message: 'Bad Request: catalogId names no catalog' },
  OFFER_NOT_IN_CATALOG: {
    status: 403,
    code: 403600,
    message: 'Forbidden: the offer is not in the catalog assigned to the company',
  },
  OFFER_NOT_DEMO: { status: 403, code: 403601, message: 'Forbidden: a business_admin acts on demo offers only' },
  OFFER_DEFAULT_PROTECTED: {
    status: 409,
    code: 409600,
    message: 'Conflict: the default offer cannot be deleted, nor removed from a catalog',
  },
  OFFER_HAS_SUBSCRIPTIONS: {
    status: 409,
    code: 409601,
    message:
      'Conflict: subscriptions to this offer exist; it can no longer be deleted (set canBeSold to false to stop selling it)',
  },
  CATALOG_DEFAULT_PROTECTED: {
    status: 409,
    code: 409602,
    message:
      'Conflict: the default catalog cannot be deleted; another catalog becomes the default by setting its isDefault to true',
  },
  LICENCE_NOT_FOR_USER: {
    status: 400,
    code: 400650,
    message:
      "Bad Request: the subscription's licences are not for this user (a subscription of his company, or of the BP IR company his company is an End Customer of)",
  },
  OFFER_COUNTERS_BP_ONLY: {
    status: 400,
    code: 400651,
    message: 'Bad Request: offer counters are kept for BP companies only',
  },
  SUBSCRIPTION_NOT_ACTIVE: {
    status: 409,
    code: 409650,
    message: 'Conflict: licences are assigned from active subscriptions only',
  },
  LICENCE_LIMIT_REACHED: {
    status: 409,
    code: 409651,
    message:
      'Conflict: every licence of the subscription is assigned (maxNumberUsers); raise it or unassign a user first',
  },
  CATALOG_IN_USE: {
    status: 409,
    code: 409603,
    message: 'Conflict: companies are assigned to this catalog; assign them another one first',
  },
  // Subscriptions (document 1, create, update and delete a subscription), from 670 (650 to 669: licences).
  SUBSCRIPTION_REFERRAL_MODEL: {
    status: 400,
    code: 400670,
    message:
      'Bad Request: only the resell model is managed; a BP with the referral model does not buy subscriptions for its customers',
  },
  APPLICANT_UNKNOWN: {
    status: 400,
    code: 400671,
    message: "Bad Request: the BP's bpApplicantNumber is unknown to the partner order system",
  },
  SUBSCRIPTION_NOT_DEMO: {
    status: 400,
    code: 400672,
    message: 'Bad Request: a business_admin acts on demo offers and demo subscriptions only',
  },
  OFFER_NOT_SOLD: {
    status: 400,
    code: 400673,
    message: 'Bad Request: the offer cannot be sold (canBeSold false): only a superadmin subscribes a company to it',
  },
  MAX_NUMBER_USERS_REQUIRED: {
    status: 400,
    code: 400674,
    message: 'Bad Request: maxNumberUsers is required and must be above 0 for nb_users and nb_services offers',
  },
  IR_FINANCE_PREPAID_ONLY: {
    status: 400,
    code: 400675,
    message:
      "Bad Request: a BP IR's bp_finance takes prepaid offers only, and only when its VAD set adminHasRightToUpdateSubscriptions on the IR company",
  },
  SUBSCRIPTION_DEFAULT_PROTECTED: {
    status: 400,
    code: 400676,
    message: 'Bad Request: the default subscription cannot be deleted',
  },
  PREPAID_TERMINATION_MONTH: {
    status: 400,
    code: 400677,
    message: 'Bad Request: a prepaid subscription can be terminated only during its month of creation',
  },
  SUBSCRIPTION_TERMINATED: { status: 400, code: 400678, message: 'Bad Request: the subscription is terminated' },
  SUBSCRIPTION_FIELD_NOT_UPDATABLE: {
    status: 400,
    code: 400680,
    message:
      'Bad Request: maxNumberUsers is updatable on nb_users and nb_services offers, autoRenew, prepaidDuration and the renewal fields on prepaid offers',
  },
  MAX_NUMBER_USERS_BELOW_ASSIGNED: {
    status: 400,
    code: 400681,
    message: 'Bad Request: maxNumberUsers cannot go below numberAssignedUsers; unassign users first',
  },
  PREPAID_LOWERING_REFUSED: {
    status: 400,
    code: 400682,
    message:
      'Bad Request: a prepaid subscription is lowered only by the licences added to it this month (its add-on), until the 1st of next month',
  },
  PREPAID_DURATION_INCREASE_ONLY: {
    status: 400,
    code: 400683,
    message: 'Bad Request: prepaidDuration can only be increased',
  },
  SUBSCRIPTION_UPDATE_FORBIDDEN: {
    status: 403,
    code: 403670,
    message: "Forbidden: the company's BP does not let its administrators make this change to subscriptions",
  },
  SUBSCRIPTION_SYNC_ONGOING: {
    status: 409,
    code: 409670,
    message:
      'Conflict: the subscription is being synchronised with the order and billing systems; try again when syncOngoing is false',
  },
  SUBSCRIPTION_SYNC_NOT_FAILED: {
    status: 409,
    code: 409671,
    message: 'Conflict: the synchronisation of this subscription has not failed: nothing to retry',
  },
  SUBSCRIPTION_CHANGED: {
    status: 409,
    code: 409672,
    message: 'Conflict: the subscription changed meanwhile (another update won); read it again',
  },
  ORDER_SYSTEM_UNAVAILABLE: {
    status: 503,
    code: 503670,
    message: 'Service Unavailable: the partner order system did not answer; try again',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof commerceErrors, true> {}
}
