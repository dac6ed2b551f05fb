// Errors of the commerce module (document 1, Commerce): n = 600..699 (catalogs and offers from 600,
// subscriptions and licences from 650).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const commerceErrors = {
  OFFER_PRICE_CURRENCY_UNKNOWN: { status: 400, code: 400600, message: 'Bad Request: a price currency is not an ISO 4217 currency code' },
  OFFER_PRICE_CURRENCY_TWICE: { status: 400, code: 400601, message: 'Bad Request: an offer has at most one price per currency' },
  OFFER_PROVISIONING_INVALID: { status: 400, code: 400602, message: 'Bad Request: a media provisioning entry needs mediaType (and no bridgeEnterpriseId), a conference one bridgeEnterpriseId (and no mediaType)' },
  OFFER_FEATURE_INVALID: { status: 400, code: 400603, message: 'Bad Request: a number feature needs limitMax (and no isEnabled), a boolean feature isEnabled (and no limitMax); featureUniqueRef appears once per offer' },
  OFFER_PREPAID_DURATION: { status: 400, code: 400604, message: 'Bad Request: prepaidDuration (12 to 60 months) is for prepaid offers, and a prepaid offer needs one' },
  CATALOG_UNKNOWN: { status: 400, code: 400605, message: 'Bad Request: catalogId names no catalog' },
  OFFER_NOT_IN_CATALOG: { status: 403, code: 403600, message: 'Forbidden: the offer is not in the catalog assigned to the company' },
  OFFER_NOT_DEMO: { status: 403, code: 403601, message: 'Forbidden: a business_admin acts on demo offers only' },
  OFFER_DEFAULT_PROTECTED: { status: 409, code: 409600, message: 'Conflict: the default offer cannot be deleted, nor removed from a catalog' },
  OFFER_HAS_SUBSCRIPTIONS: { status: 409, code: 409601, message: 'Conflict: subscriptions to this offer exist; it can no longer be deleted (set canBeSold to false to stop selling it)' },
  CATALOG_DEFAULT_PROTECTED: { status: 409, code: 409602, message: 'Conflict: the default catalog cannot be deleted; another catalog becomes the default by setting its isDefault to true' },
  LICENCE_NOT_FOR_USER: { status: 400, code: 400650, message: "Bad Request: the subscription's licences are not for this user (a subscription of his company, or of the BP IR company his company is an End Customer of)" },
  OFFER_COUNTERS_BP_ONLY: { status: 400, code: 400651, message: 'Bad Request: offer counters are kept for BP companies only' },
  SUBSCRIPTION_NOT_ACTIVE: { status: 409, code: 409650, message: 'Conflict: licences are assigned from active subscriptions only' },
  LICENCE_LIMIT_REACHED: { status: 409, code: 409651, message: 'Conflict: every licence of the subscription is assigned (maxNumberUsers); raise it or unassign a user first' },
  CATALOG_IN_USE: { status: 409, code: 409603, message: 'Conflict: companies are assigned to this catalog; assign them another one first' },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof commerceErrors, true> {}
}
