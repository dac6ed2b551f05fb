// Money of offers (document 1, Offer; docs/decisions.md, Commerce: catalogs and offers): ISO 4217 currency
// codes and decimal amounts as text. The codes come from `currency-codes`, which follows the list ISO
// publishes; amounts never go through a float: the schema takes decimal text, and the billing system sums
// scaled integers.
import { codes } from 'currency-codes';

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
