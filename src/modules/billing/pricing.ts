// The one pricing function (docs/billing.md, "Pricing rules"): a quotation and the
// charges a subscription change records both come from priceChange, and the billing run's monthly
// items from priceRecurring, so that what is quoted is exactly what is invoiced.
// Pure: no database, no clock (the caller passes the dates), decimals only (decimal.js), all dates
// UTC calendar dates 'YYYY-MM-DD'.
import { Decimal } from 'decimal.js';
import { code as currencyCode } from 'currency-codes';

/** The year and month of a 'YYYY-MM' or 'YYYY-MM-DD' text. */
export function yearMonth(text: string): [number, number] {
  const [y, m] = text.split('-');
  return [Number(y), Number(m)];
}

export const CHARGE_MODELS = ['nb_users', 'nb_services', 'flat_fee'] as const;
export type ChargeModel = (typeof CHARGE_MODELS)[number];

/**
 * How an offer's business model is charged: per unit, except flat fee. A usage offer's monthly
 * part, and an offer without a model, are per unit (the usage itself is billed from its records).
 */
export const chargeModelOf = (businessModel: string | null): ChargeModel =>
  CHARGE_MODELS.find((m) => m === businessModel) ?? 'nb_users';

export interface PricedOffer {
  currency: string;
  /** Decimal text: per unit per month; flat_fee: per month. */
  unitPrice: string;
  model: ChargeModel;
  /** null = monthly. */
  prepaidMonths: number | null;
  productName: string;
  chargeName: string;
  productRatePlanId: string | null;
  productRatePlanChargeId: string | null;
  /** Plural word of the calculation text: "users", "services", "fee". */
  unitOfMeasure: string;
}

export type PricedItemKind =
  | 'first-period'
  | 'recurring'
  | 'increase'
  | 'prepaid-term'
  | 'prepaid-add-on'
  | 'prepaid-extension'
  | 'prepaid-take-back';

export interface PricedItem {
  serviceStartDate: string;
  serviceEndDate: string;
  quantity: number;
  unitPrice: string;
  chargeAmount: string;
  taxRate: string;
  taxAmount: string;
  chargeName: string;
  chargeDescription: string;
  productName: string;
  productRatePlanChargeId: string | null;
  unitOfMeasure: string;
  /** How chargeAmount was computed, e.g. "10 users x 5.00 EUR x 16/30 days". */
  calculation: string;
  kind: PricedItemKind;
}

export interface Change {
  /** The day of the change (creation or update), UTC. */
  date: string;
  /** Prepaid: the subscription's creation date, where its term starts (default: date). */
  termStart?: string;
  /** null = a new subscription. */
  before: { quantity: number; prepaidMonths?: number } | null;
  after: { quantity: number; prepaidMonths?: number };
}

export interface PricedChange {
  items: PricedItem[];
  mrr: string;
  dmrr: string;
  tcv: string | null;
  dtcv: string | null;
  amountWithoutTax: string;
  taxAmount: string;
  amount: string;
  /** Prepaid: the day after the term's last day (where it ends, as subscriptions.expirationDate); monthly: null. */
  expirationDate: string | null;
}

/** A priced offer, a change or a period the rules refuse (a programming error of the caller: the services check first). */
export class PricingError extends Error {}

// ---------------------------------------------------------------------------------------------
// Money

const minorCache = new Map<string, number>();

/** Decimals of a currency (ISO 4217 minor units, from currency-codes): EUR 2, JPY 0, BHD 3. */
export function minorUnits(currency: string): number {
  let digits = minorCache.get(currency);
  if (digits === undefined) {
    const c = currencyCode(currency);
    if (!c) throw new PricingError(`unknown currency ${currency}`);
    digits = c.digits;
    minorCache.set(currency, digits);
  }
  return digits;
}

/** Rounded half-up (away from zero on .5) to the currency's minor units. */
export function roundMoney(value: Decimal.Value, currency: string): Decimal {
  return new Decimal(value).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP);
}

/** Money as text with exactly the currency's decimals: "26.67", "1000" (JPY), "1.250" (BHD). */
export function moneyText(value: Decimal.Value, currency: string): string {
  return roundMoney(value, currency).toFixed(minorUnits(currency));
}

/** A unit price as written in a calculation: at least the currency's decimals, more if it has more. */
function priceText(unitPrice: Decimal, currency: string): string {
  return unitPrice.toFixed(Math.max(minorUnits(currency), unitPrice.decimalPlaces()));
}

// ---------------------------------------------------------------------------------------------
// Calendar (UTC dates)

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function parts(date: string): [number, number, number] {
  const m = DATE.exec(date);
  if (!m) throw new PricingError(`not a date: ${date}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) throw new PricingError(`not a date: ${date}`);
  return [y, mo, d];
}

const fmt = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const toMs = (date: string): number => {
  const [y, m, d] = parts(date);
  return Date.UTC(y, m - 1, d);
};

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addDays(date: string, days: number): string {
  return fmt(toMs(date) + days * DAY_MS);
}

/** Days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((toMs(b) - toMs(a)) / DAY_MS);
}

/** The same day n months later, clamped to the month's last day (2026-01-31 + 1 = 2026-02-28). */
export function addMonths(date: string, n: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + n;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  return fmt(Date.UTC(ny, nm - 1, Math.min(d, daysInMonth(ny, nm))));
}

export function lastDayOfMonth(date: string): string {
  const [y, m] = parts(date);
  return fmt(Date.UTC(y, m - 1, daysInMonth(y, m)));
}

// ---------------------------------------------------------------------------------------------
// Spans

/** Units billed: the quantity, except a flat fee, which is one fee whatever the number of users. */
const units = (offer: PricedOffer, quantity: number): number => (offer.model === 'flat_fee' ? 1 : quantity);

interface Span {
  /** Whole months (prepaid anniversary months). */
  months: number;
  /** Remaining days and the day count of the month they fall in. */
  days: number;
  monthDays: number;
}

/**
 * A monthly subscription's piece of a calendar month: from..to (end day included) over the days of
 * that month. from and to must lie in the same month.
 */
export function calendarSpan(from: string, to: string): Span {
  const [y, m] = parts(from);
  const [ty, tm] = parts(to);
  if (y !== ty || m !== tm || to < from) throw new PricingError(`${from}..${to} is not a piece of one calendar month`);
  const monthDays = daysInMonth(y, m);
  const days = daysBetween(from, to) + 1;
  return days === monthDays ? { months: 1, days: 0, monthDays } : { months: 0, days, monthDays };
}

/**
 * A prepaid piece from..to (end day included): whole months from `from` first, then the remaining
 * days over the day count of the month-long period they start (from + n months .. from + n+1 months).
 */
export function termSpan(from: string, to: string): Span {
  if (to < from) throw new PricingError(`${from}..${to} is empty`);
  const end = addDays(to, 1);
  let months = 0;
  while (addMonths(from, months + 1) <= end) months++;
  const rest = addMonths(from, months);
  const days = daysBetween(rest, end);
  const monthDays = daysBetween(rest, addMonths(from, months + 1));
  return { months, days, monthDays };
}

const spanFactor = (s: Span): Decimal =>
  new Decimal(s.months).plus(s.days === 0 ? 0 : new Decimal(s.days).div(s.monthDays));

function spanText(s: Span): string {
  const months = s.months === 1 ? '1 month' : `${s.months} months`;
  if (s.days === 0) return months;
  const days = `${s.days}/${s.monthDays} days`;
  return s.months === 0 ? days : `(${months} + ${days})`;
}

const DESCRIPTIONS: Record<PricedItemKind, (q: number, unit: string, months?: number) => string> = {
  'first-period': () => 'First month, prorated',
  recurring: () => 'Monthly charge, billed in advance',
  increase: (q, unit) => `Increase of ${q} ${unit}, prorated to the end of the month`,
  'prepaid-term': (_q, _u, months) => `Prepaid term of ${months} months`,
  'prepaid-add-on': (q, unit) => `Prepaid add-on of ${q} ${unit}, to the end of the term`,
  'prepaid-extension': (_q, _u, months) => `Prepaid term extended by ${months} months`,
  'prepaid-take-back': (q, unit) => `Credit: add-on of ${q} ${unit} taken back, to the end of the term`,
};

/**
 * One item: quantity x unit price x span, rounded half-up; its tax rounded on its own. A credit
 * (`credit` true) is the same item with both amounts negated: rounding half-up (away from zero)
 * is symmetric, so a credit over the span of a charge cancels it to the minor unit.
 */
function item(
  offer: PricedOffer,
  kind: PricedItemKind,
  quantity: number,
  from: string,
  to: string,
  span: Span,
  taxRate: Decimal,
  describedMonths?: number,
  credit = false,
): PricedItem {
  const unitPrice = new Decimal(offer.unitPrice);
  const q = units(offer, quantity);
  // Never "-0.00": a credit of nothing is 0.
  const signed = (d: Decimal) => (credit && !d.isZero() ? d.negated() : d);
  const cost = roundMoney(unitPrice.times(q).times(spanFactor(span)), offer.currency);
  const charge = signed(cost);
  const tax = signed(roundMoney(cost.times(taxRate), offer.currency));
  const what =
    offer.model === 'flat_fee'
      ? `${priceText(unitPrice, offer.currency)} ${offer.currency}`
      : `${q} ${offer.unitOfMeasure} x ${priceText(unitPrice, offer.currency)} ${offer.currency}`;
  return {
    serviceStartDate: from,
    serviceEndDate: to,
    quantity: q,
    unitPrice: offer.unitPrice,
    chargeAmount: charge.toFixed(minorUnits(offer.currency)),
    taxRate: taxRate.toString(),
    taxAmount: tax.toFixed(minorUnits(offer.currency)),
    chargeName: offer.chargeName,
    chargeDescription: DESCRIPTIONS[kind](q, offer.unitOfMeasure, describedMonths),
    productName: offer.productName,
    productRatePlanChargeId: offer.productRatePlanChargeId,
    unitOfMeasure: offer.unitOfMeasure,
    calculation: `${credit ? '- ' : ''}${what} x ${spanText(span)}`,
    kind,
  };
}

function checkOffer(offer: PricedOffer, taxRate: string): Decimal {
  minorUnits(offer.currency);
  const price = new Decimal(offer.unitPrice);
  if (!price.isFinite() || price.isNegative()) throw new PricingError(`unit price ${offer.unitPrice}`);
  if (offer.prepaidMonths !== null && (!Number.isInteger(offer.prepaidMonths) || offer.prepaidMonths < 1))
    throw new PricingError(`prepaid months ${offer.prepaidMonths}`);
  const rate = new Decimal(taxRate);
  if (!rate.isFinite() || rate.isNegative()) throw new PricingError(`tax rate ${taxRate}`);
  return rate;
}

function checkQuantity(q: number): void {
  if (!Number.isInteger(q) || q < 0) throw new PricingError(`quantity ${q}`);
}

// ---------------------------------------------------------------------------------------------
// The pricing function

/** The items, MRR/TCV metrics and totals of one subscription change (a creation when before is null). */
export function priceChange(offer: PricedOffer, change: Change, taxRate: string): PricedChange {
  const rate = checkOffer(offer, taxRate);
  const cur = offer.currency;
  const unitPrice = new Decimal(offer.unitPrice);
  checkQuantity(change.after.quantity);
  if (change.before) checkQuantity(change.before.quantity);
  parts(change.date);
  const beforeUnits = change.before ? units(offer, change.before.quantity) : 0;
  const afterUnits = units(offer, change.after.quantity);
  const mrr = unitPrice.times(afterUnits);
  const dmrr = mrr.minus(unitPrice.times(beforeUnits));
  const items: PricedItem[] = [];
  let tcv: Decimal | null = null;
  let dtcv: Decimal | null = null;
  let expirationDate: string | null = null;

  if (offer.prepaidMonths === null) {
    // Monthly: the rest of the current calendar month now; the billing run bills the next months.
    const end = lastDayOfMonth(change.date);
    if (change.before === null) {
      if (afterUnits > 0)
        items.push(
          item(offer, 'first-period', change.after.quantity, change.date, end, calendarSpan(change.date, end), rate),
        );
    } else if (afterUnits > beforeUnits) {
      items.push(
        item(
          offer,
          'increase',
          change.after.quantity - change.before.quantity,
          change.date,
          end,
          calendarSpan(change.date, end),
          rate,
        ),
      );
    }
    // A decrease (or no change): no item; the lower quantity is billed from the next period.
  } else {
    const termStart = change.termStart ?? change.date;
    parts(termStart);
    const beforeMonths = change.before ? (change.before.prepaidMonths ?? offer.prepaidMonths) : 0;
    const afterMonths = change.after.prepaidMonths ?? (change.before ? beforeMonths : offer.prepaidMonths);
    if (!Number.isInteger(afterMonths) || afterMonths < 1) throw new PricingError(`prepaid months ${afterMonths}`);
    if (afterMonths < beforeMonths) throw new PricingError('a prepaid term can only be extended');
    const termEnd = addMonths(termStart, afterMonths);
    expirationDate = termEnd;
    if (change.date < termStart || change.date >= termEnd)
      throw new PricingError(`${change.date} is outside the term ${termStart}..${termEnd}`);
    if (change.before === null) {
      const last = addDays(termEnd, -1);
      if (afterUnits > 0)
        items.push(
          item(
            offer,
            'prepaid-term',
            change.after.quantity,
            termStart,
            last,
            { months: afterMonths, days: 0, monthDays: 0 },
            rate,
            afterMonths,
          ),
        );
    } else {
      // First the extension of the quantity held before, over the added months (dmrr 0) ...
      if (afterMonths > beforeMonths && beforeUnits > 0) {
        const from = addMonths(termStart, beforeMonths);
        items.push(
          item(
            offer,
            'prepaid-extension',
            change.before.quantity,
            from,
            addDays(termEnd, -1),
            { months: afterMonths - beforeMonths, days: 0, monthDays: 0 },
            rate,
            afterMonths - beforeMonths,
          ),
        );
      }
      // ... then the add-on of the added units, from the change to the end of the (new) term.
      if (afterUnits > beforeUnits) {
        const last = addDays(termEnd, -1);
        items.push(
          item(
            offer,
            'prepaid-add-on',
            change.after.quantity - change.before.quantity,
            change.date,
            last,
            termSpan(change.date, last),
            rate,
          ),
        );
      } else if (afterUnits < beforeUnits) {
        // Update rule 6: this month's add-on taken back (the rule bounds it): a credit of the units
        // taken back from the change's day to the end of the term, as their add-on would cost from that day.
        const last = addDays(termEnd, -1);
        items.push(
          item(
            offer,
            'prepaid-take-back',
            change.before.quantity - change.after.quantity,
            change.date,
            last,
            termSpan(change.date, last),
            rate,
            undefined,
            true,
          ),
        );
      }
    }
    const charged = items.reduce((s, i) => s.plus(i.chargeAmount), new Decimal(0));
    // TCV: the quantity held before over the term it had, plus what this change charges.
    tcv = unitPrice.times(beforeUnits).times(beforeMonths).plus(charged);
    dtcv = charged;
  }

  const amountWithoutTax = items.reduce((s, i) => s.plus(i.chargeAmount), new Decimal(0));
  const taxAmount = items.reduce((s, i) => s.plus(i.taxAmount), new Decimal(0));
  const digits = minorUnits(cur);
  return {
    items,
    mrr: moneyText(mrr, cur),
    dmrr: moneyText(dmrr, cur),
    tcv: tcv === null ? null : moneyText(tcv, cur),
    dtcv: dtcv === null ? null : moneyText(dtcv, cur),
    amountWithoutTax: amountWithoutTax.toFixed(digits),
    taxAmount: taxAmount.toFixed(digits),
    amount: amountWithoutTax.plus(taxAmount).toFixed(digits),
    expirationDate,
  };
}

/** A monthly subscription's whole month (period 'YYYY-MM'), billed in advance on the 1st. */
export function priceRecurring(offer: PricedOffer, quantity: number, period: string, taxRate: string): PricedItem {
  const rate = checkOffer(offer, taxRate);
  if (offer.prepaidMonths !== null) throw new PricingError('a prepaid offer has no monthly charge');
  checkQuantity(quantity);
  if (!/^\d{4}-\d{2}$/.test(period)) throw new PricingError(`not a period: ${period}`);
  const first = `${period}-01`;
  const last = lastDayOfMonth(first);
  return item(offer, 'recurring', quantity, first, last, calendarSpan(first, last), rate);
}

/**
 * A monthly subscription's piece of one calendar month (from..to, end day included), priced as the
 * first-period and increase items are: the building block the property tests split a month into.
 */
export function pricePiece(
  offer: PricedOffer,
  quantity: number,
  from: string,
  to: string,
  taxRate: string,
): PricedItem {
  const rate = checkOffer(offer, taxRate);
  checkQuantity(quantity);
  return item(offer, 'first-period', quantity, from, to, calendarSpan(from, to), rate);
}
