// Money of offers (document 1, Offer; docs/decisions.md, Commerce: catalogs and offers): ISO 4217 currency
// codes and decimal amounts as text. The codes come from `currency-codes`, which follows the list ISO
// publishes; amounts never go through a float: the schema takes decimal text, and the billing system sums
// scaled integers.
import { codes } from 'currency-codes';
import { Decimal } from 'decimal.js';
import type { OfferPrice } from './commerce.tables.ts';

/** ISO 4217 codes that name no currency one can price in: "no currency" and "testing". */
const NOT_PRICES = new Set(['XXX', 'XTS']);

export const CURRENCIES: ReadonlySet<string> = new Set(codes().filter((c) => !NOT_PRICES.has(c)));

/**
 * A non-negative decimal: no sign, no exponent, no leading zeros, at most 12 integer digits and
 * 6 decimals (the precision of the embedded billing system's sums).
 */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,6})?$';
export const CURRENCY_PATTERN = '^[A-Z]{3}$';

export const isCurrency = (code: string): boolean => CURRENCIES.has(code);

/**
 * Document 1, delete or terminate a subscription: "Free-offer subscriptions are removed; others get
 * status terminated" (States and transitions: "subscription to a free offer not known to the billing
 * system: record removed"). The one definition of a free offer: no price above zero in any currency
 * and no rate plan in the billing system. An offer with a price is invoiced by the service's own
 * billing runs even without a rate plan, so it is not free (docs/decisions.md, Subscriptions).
 */
export function isFreeOffer(o: { prices: readonly OfferPrice[]; billingProductRatePlanId: string | null }): boolean {
  return o.billingProductRatePlanId === null && o.prices.every((p) => new Decimal(p.amount).lte(0));
}
