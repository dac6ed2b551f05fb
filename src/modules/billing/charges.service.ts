// The charges ledger (docs/billing.md, "Charges"): every subscription change that costs
// something records, in the change's own transaction, the items of the one pricing function; the
// billing run invoices them. Quotations price with the same helpers, so a quotation and the
// charges of the same change are the same items.
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import type { ChargeableOffer, SubscriptionChange } from '../commerce/commerce.api.ts';
import {
  addMonths,
  priceChange,
  type Change,
  chargeModelOf,
  CHARGE_MODELS,
  type ChargeModel,
  type PricedChange,
  type PricedOffer,
} from './pricing.ts';
import { BUILT_IN_TAX_RATES, taxRateFor, taxTable } from './tax.ts';
import * as repo from './charges.repo.ts';

export type { ChargeRow } from './charges.repo.ts';

/** What pricing reads of an offer: commerce's face says it. */
export type { ChargeableOffer };

/** What pricing reads of a subscription (commerce's subscription row fits). */
export interface ChargedSubscription {
  id: string;
  companyId: string;
  creationDate: Date;
}

export const PRICED_MODELS: readonly string[] = CHARGE_MODELS;
const UNITS: Record<ChargeModel, { unit: string; charge: string }> = {
  nb_users: { unit: 'users', charge: 'per user' },
  nb_services: { unit: 'services', charge: 'per service' },
  flat_fee: { unit: 'fee', charge: 'flat fee' },
};

/** Offers that are charged: a per-unit or flat-fee model, with at least one price, not the default (free) offer. */
export const isCharged = (o: ChargeableOffer): boolean =>
  !o.isDefault && o.businessModel !== null && PRICED_MODELS.includes(o.businessModel) && o.prices.length > 0;

/** The UTC calendar day of an instant. */
export const utcDate = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * Who is invoiced for a company's subscriptions (docs/billing.md, "Who is invoiced"): a BP DR or
 * VAD (or a BP without bpType) for its own; the VAD above a BP IR for the IR's own; an End
 * Customer's BP, or that BP's VAD when the BP is an IR. An IR without a VAD: the IR itself.
 * undefined: the company has no BP (nobody to invoice).
 */
export type { BillingCompany } from './charges.repo.ts';

export async function invoicedCompanyOf(exec: Executor, companyId: string): Promise<repo.BillingCompany | undefined> {
  const found = await repo.companyWithBps(exec, companyId);
  return found && invoicedOf(found);
}

/** The same, for a company with its BP and its BP's BP already read (the quotation's BPS_EXTRA). */
export function invoicedOf<C extends repo.BillingCompany>(found: {
  company: C;
  parent: C | null;
  grandParent: C | null;
}): C | undefined {
  const [bp, above] = found.company.isBP ? [found.company, found.parent] : [found.parent, found.grandParent];
  if (!bp?.isBP) return undefined;
  if (bp.bpType !== 'IR') return bp;
  return above?.isBP ? above : bp;
}

/** The currency charged: the invoiced BP's, else the first of the offer's prices; never converted. */
export const chargeCurrency = (bp: { currency: string | null }, offer: ChargeableOffer): string | undefined =>
  bp.currency ?? offer.prices[0]?.currency;

/** The offer as the pricing function reads it, in a currency; 400 when it has no price in it. */
export function pricedOffer(offer: ChargeableOffer, currency: string): PricedOffer {
  const price = offer.prices.find((p) => p.currency === currency);
  if (!price)
    fail('OFFER_NO_PRICE_IN_CURRENCY', { offerId: offer.id, currency, prices: offer.prices.map((p) => p.currency) });
  const model = chargeModelOf(offer.businessModel);
  return {
    currency,
    unitPrice: price.amount,
    model,
    prepaidMonths: offer.isPrepaid ? (offer.prepaidDuration ?? 12) : null,
    productName: offer.name,
    chargeName: `${offer.name}, ${offer.isPrepaid ? 'prepaid' : 'monthly'}, ${UNITS[model].charge}`,
    productRatePlanId: offer.billingProductRatePlanId,
    productRatePlanChargeId: offer.billingProductRatePlanChargeId,
    unitOfMeasure: UNITS[model].unit,
  };
}

/**
 * The start of the prepaid term that holds a day: the creation day, moved on by whole terms once a
 * renewed subscription is past its first term (docs/decisions.md, Billing).
 */
export function termStartOf(creationDate: Date, months: number, day: string): string {
  const first = utcDate(creationDate);
  let n = 0;
  while (n < 1000 && addMonths(first, months * (n + 1)) <= day) n++;
  return addMonths(first, months * n);
}

/** A change as the pricing function reads it: the day, the term of a prepaid subscription, before and after. */
export function changeOf(
  offer: ChargeableOffer,
  sub: { creationDate: Date; prepaidDuration?: number | null } | null,
  now: Date,
  before: Change['before'],
  after: Change['after'],
): Change {
  const date = utcDate(now);
  if (!offer.isPrepaid) return { date, before, after };
  const months = before?.prepaidMonths ?? sub?.prepaidDuration ?? offer.prepaidDuration ?? 12;
  return { date, termStart: sub ? termStartOf(sub.creationDate, months, date) : date, before, after };
}

export interface ChargeContext {
  invoiced: repo.BillingCompany;
  offer: PricedOffer;
  taxRate: string;
}

/**
 * The invoiced BP, the priced offer in its currency and its tax rate, for a company's change to an
 * offer. undefined when nothing is charged (an offer without prices, usage, the default offer, or a
 * company without a BP); 400 when the offer has no price in the BP's currency.
 */
export async function chargeContext(
  exec: Executor,
  companyId: string,
  offer: ChargeableOffer,
  taxRates: Readonly<Record<string, string>>,
): Promise<ChargeContext | undefined> {
  if (!isCharged(offer)) return undefined;
  return chargeContextOf(await invoicedCompanyOf(exec, companyId), offer, taxRates);
}

/** The same, with the invoiced company already read (invoicedCompanyOf). */
export function chargeContextOf(
  invoiced: repo.BillingCompany | undefined,
  offer: ChargeableOffer,
  taxRates: Readonly<Record<string, string>>,
): ChargeContext | undefined {
  if (!isCharged(offer) || !invoiced) return undefined;
  const currency = chargeCurrency(invoiced, offer)!;
  return { invoiced, offer: pricedOffer(offer, currency), taxRate: taxRateFor(taxRates, invoiced.country) };
}

/**
 * Prices a subscription change and records its items, in the caller's transaction (create and
 * update subscription). Nothing is recorded when the offer is not charged, the company has no BP,
 * or the change charges nothing (a decrease). Returns the priced change and the row, if any.
 */
export async function recordCharges(
  tx: Executor,
  subscription: ChargedSubscription,
  offer: ChargeableOffer,
  change: Change,
  taxRates: Readonly<Record<string, string>>,
  /** The invoiced company when the caller read it already (invoicedOf), so it is not read again. */
  known?: { invoiced: repo.BillingCompany | undefined },
): Promise<{ priced: PricedChange; charge: repo.ChargeRow | undefined } | undefined> {
  const ctx = known
    ? chargeContextOf(known.invoiced, offer, taxRates)
    : await chargeContext(tx, subscription.companyId, offer, taxRates);
  if (!ctx) return undefined;
  const priced = priceChange(ctx.offer, change, ctx.taxRate);
  if (priced.items.length === 0) return { priced, charge: undefined };
  const charge = await repo.insertCharge(tx, {
    id: newId(),
    subscriptionId: subscription.id,
    companyId: subscription.companyId,
    invoicedCompanyId: ctx.invoiced.id,
    currency: ctx.offer.currency,
    changeDate: change.date,
    items: priced.items,
  });
  return { priced, charge };
}

/** For the billing run: a BP's charges not invoiced yet, changed before a day ('YYYY-MM-DD'), oldest first. */
export const uninvoicedCharges = (
  tx: Executor,
  invoicedCompanyId: string,
  beforeDate: string,
): Promise<repo.ChargeRow[]> => repo.uninvoiced(tx, invoicedCompanyId, beforeDate);

/** For the billing run: the charges now belong to an invoice (those already invoiced are left alone); returns the ids set. */
export const markInvoiced = (tx: Executor, chargeIds: readonly string[], invoiceId: string): Promise<string[]> =>
  repo.setInvoice(tx, chargeIds, invoiceId);

/** The charges recorded for a subscription, oldest first. */
export const chargesOfSubscription = (exec: Executor, subscriptionId: string): Promise<repo.ChargeRow[]> =>
  repo.chargesOfSubscription(exec, subscriptionId);

/**
 * What a subscription bought or changed charges, recorded in its transaction (commerce's hook
 * subscriptionChanged, registered at install: billing.module.ts): the tax table of the instance's
 * configuration when the caller has it, else the built-in one.
 */
export async function recordSubscriptionChange(tx: Executor, e: SubscriptionChange): Promise<void> {
  const taxRates = e.config ? taxTable(e.config) : BUILT_IN_TAX_RATES;
  const change = changeOf(e.offer, e.before ? e.subscription : null, e.now, e.before, e.after);
  await recordCharges(tx, e.subscription, e.offer, change, taxRates, e.bps && { invoiced: invoicedOf(e.bps) });
}
