// Quotations (document 1, create a quotation, rules 1 to 6; docs/billing.md, Quotations): a subscription
// creation or change in preview, priced by the one pricing function with the same helpers the
// charges ledger uses, so the quotation is what the change then records. Pure: it writes nothing
// and emits nothing; what it reads comes with the authorising statement (quotations.repo.ts), so
// the service itself runs no statement (docs/decisions.md, Quotations: round trips and the organisation's BPs).
import type { Static } from 'typebox';
import type { Caller } from '../../authz/roles.ts';
import { fail } from '../../errors/catalogue.ts';
import type { OrdersPort } from '../../ports/orders/orders.port.ts';
import * as commerce from '../commerce/commerce.api.ts';
import { changeOf, chargeContextOf, invoicedOf, PRICED_MODELS, type ChargeableOffer } from './charges.service.ts';
import type { BpFacts } from '../admin/companies/companies.api.ts';
import { priceChange, yearMonth, type PricedChange } from './pricing.ts';
import type { QuotationReads } from './quotations.repo.ts';
import type { CreateQuotationBody, Quotation } from './quotations.schemas.ts';

type Body = Static<typeof CreateQuotationBody>;
type Api = Static<typeof Quotation>;

/** The company of the path, as the quotation reads it (the target row). */
export type QuotedCompany = BpFacts;

/**
 * Document 1, rule 4: the BP whose applicant number the order system must know: the company itself
 * when it is a BP, else its BP; the VAD above when that BP is an IR ("BP IR companies should have
 * no bpApplicantNumber"), as create subscription rule 2.
 */
export function applicantHolder(
  company: QuotedCompany,
  reads: Pick<QuotationReads, 'parent' | 'grandParent'>,
): BpFacts | undefined {
  const [bp, above] = company.isBP ? [company, reads.parent] : [reads.parent, reads.grandParent];
  if (bp?.bpType === 'IR') return above ?? bp;
  return bp ?? undefined;
}

/** Rule 4, asked of the partner order system before anything else of the quotation (the operation's prepare step). */
export const checkApplicant = (
  company: QuotedCompany,
  reads: QuotationReads,
  orders: OrdersPort | undefined,
): Promise<void> => commerce.checkApplicant(applicantHolder(company, reads), orders);

/** Rule 3: a BP company, or one linked to a BP. */
function checkBpLink(company: QuotedCompany): void {
  if (!company.isBP && !company.bpId) fail('QUOTATION_NO_BP', { companyId: company.id });
}

/** Rule 2: nb_users, flat_fee and nb_services offers, with prices (usage offers and free offers are not quoted). */
function checkQuotable(offer: ChargeableOffer): void {
  if (
    offer.isDefault ||
    !offer.businessModel ||
    !PRICED_MODELS.includes(offer.businessModel) ||
    offer.prices.length === 0
  )
    fail('QUOTATION_MODEL_NOT_QUOTABLE', {
      offerId: offer.id,
      businessModel: offer.businessModel,
      prices: offer.prices.length,
    });
}

const num = (text: string): number => Number(text);
const numOrNull = (text: string | null): number | null => (text === null ? null : Number(text));

/** The 1st of the month after a day: the billing run that invoices what the change charges. */
function nextFirst(day: string): string {
  const [y, m] = yearMonth(day);
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

function toApi(
  priced: PricedChange,
  currency: string,
  day: string,
  ids: {
    ratePlanId: string | null;
    chargeId: string | null;
    origin: { ratePlanId: string | null; billingSubscriptionId: string | null; subscriptionId: string } | null;
  },
  full: boolean,
): Api {
  return {
    currency,
    contractedMrr: num(priced.mrr),
    totalContractedValue: numOrNull(priced.tcv),
    totalDeltaMrr: num(priced.dmrr),
    totalDeltaTcv: numOrNull(priced.dtcv),
    amount: num(priced.amount),
    amountWithoutTax: num(priced.amountWithoutTax),
    taxAmount: num(priced.taxAmount),
    invoiceTargetDate: nextFirst(day),
    expirationDate: priced.expirationDate === null ? null : `${priced.expirationDate}T00:00:00.000Z`,
    invoiceItems: priced.items.map((i) => ({
      serviceStartDate: i.serviceStartDate,
      serviceEndDate: i.serviceEndDate,
      chargeAmount: num(i.chargeAmount),
      taxAmount: num(i.taxAmount),
      chargeDescription: i.chargeDescription,
      chargeName: i.chargeName,
      productName: i.productName,
      productRatePlanChargeId: i.productRatePlanChargeId,
      unitOfMeasure: i.unitOfMeasure,
      quantity: i.quantity,
      calculation: i.calculation,
      ...(full ? { taxRate: num(i.taxRate) } : {}),
    })),
    chargeMetrics: [
      {
        productRatePlanId: ids.ratePlanId,
        productRatePlanChargeId: ids.chargeId,
        originRatePlanId: ids.origin?.ratePlanId ?? null,
        originalId: ids.origin?.billingSubscriptionId ?? null,
        number: ids.origin?.subscriptionId ?? null,
        mrr: num(priced.mrr),
        dmrr: num(priced.dmrr),
        tcv: numOrNull(priced.tcv),
        dtcv: numOrNull(priced.dtcv),
      },
    ],
  };
}

/**
 * Document 1, create a quotation. Rule 1 (who) is the policy's; rule 4 (the applicant number) is
 * asked of the order system before (the operation's prepare step); rules 2, 3, 5 and 6 here.
 */
export function createQuotation(
  caller: Caller,
  company: QuotedCompany,
  reads: QuotationReads,
  body: Body,
  now: Date,
  taxRates: Readonly<Record<string, string>>,
  full: boolean,
): Api {
  // Rule 6: offerId before creating, subscriptionId before updating; one of them.
  if ((body.offerId === undefined) === (body.subscriptionId === undefined))
    fail('QUOTATION_OFFER_OR_SUBSCRIPTION', {
      offerId: body.offerId ?? null,
      subscriptionId: body.subscriptionId ?? null,
    });
  checkBpLink(company);
  const invoiced = invoicedOf({ company, parent: reads.parent, grandParent: reads.grandParent });

  if (body.offerId !== undefined) {
    const offer = reads.offer;
    if (!offer) fail('NOT_FOUND', { target: 'offer', id: body.offerId });
    // Rule 5: the offer of the catalog assigned to the company's BP, else 403 (superadmin excepted, as for create subscription).
    if (!caller.roles.includes('superadmin') && !reads.inCatalog)
      fail('OFFER_NOT_IN_CATALOG', { offerId: offer.id, companyId: company.id, catalogId: reads.catalogId });
    checkQuotable(offer);
    if (body.prepaidDuration !== undefined) fail('QUOTATION_PREPAID_DURATION_OF_SUBSCRIPTION', { offerId: offer.id });
    const counted = offer.businessModel !== 'flat_fee';
    if (counted && body.maxNumberUsers === undefined)
      fail('QUOTATION_QUANTITY_REQUIRED', { businessModel: offer.businessModel });
    const ctx = chargeContextOf(invoiced, offer, taxRates);
    if (!ctx) fail('QUOTATION_NO_BP', { companyId: company.id });
    const change = changeOf(offer, null, now, null, { quantity: body.maxNumberUsers ?? 1 });
    const priced = priceChange(ctx.offer, change, ctx.taxRate);
    return toApi(
      priced,
      ctx.offer.currency,
      change.date,
      { ratePlanId: offer.billingProductRatePlanId, chargeId: offer.billingProductRatePlanChargeId, origin: null },
      full,
    );
  }

  const row = reads.subscription;
  // Another company's subscription is not found (nothing about it leaks).
  if (!row || row.sub.companyId !== company.id) fail('NOT_FOUND', { target: 'subscription', id: body.subscriptionId });
  const { sub, offer } = row;
  if (sub.status === 'terminated') fail('QUOTATION_SUBSCRIPTION_TERMINATED', { subscriptionId: sub.id });
  checkQuotable(offer);
  const current = sub.maxNumberUsers ?? 1;
  const quantity = offer.businessModel === 'flat_fee' ? current : (body.maxNumberUsers ?? current);
  if (body.maxNumberUsers !== undefined && offer.businessModel === 'flat_fee')
    fail('QUOTATION_INCREASE_ONLY', { field: 'maxNumberUsers', businessModel: offer.businessModel });
  if (quantity < current) fail('QUOTATION_INCREASE_ONLY', { field: 'maxNumberUsers', current });
  const months = offer.isPrepaid ? (sub.prepaidDuration ?? offer.prepaidDuration ?? 12) : null;
  if (body.prepaidDuration !== undefined && (months === null || body.prepaidDuration < months))
    fail('QUOTATION_INCREASE_ONLY', { field: 'prepaidDuration', current: months });
  const ctx = chargeContextOf(invoiced, offer, taxRates);
  if (!ctx) fail('QUOTATION_NO_BP', { companyId: company.id });
  const change = changeOf(
    offer,
    sub,
    now,
    { quantity: current, ...(months !== null ? { prepaidMonths: months } : {}) },
    { quantity, ...(months !== null ? { prepaidMonths: body.prepaidDuration ?? months } : {}) },
  );
  const priced = priceChange(ctx.offer, change, ctx.taxRate);
  return toApi(
    priced,
    ctx.offer.currency,
    change.date,
    {
      ratePlanId: offer.billingProductRatePlanId,
      chargeId: offer.billingProductRatePlanChargeId,
      origin: {
        ratePlanId: offer.billingProductRatePlanId,
        billingSubscriptionId: sub.billingSubscriptionId,
        subscriptionId: sub.id,
      },
    },
    full,
  );
}
