// Schemas of quotations (document 1, create a quotation; Quotation result), with the explanations
// of docs/billing.md, Explanations (`calculation` on every item, `taxRate` at format=full).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';

const date = (description: string) => Type.String({ format: 'date', description });
const money = (description: string) => Type.Number({ description });

export const CreateQuotationBody = Obj({
  maxNumberUsers: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      description: 'the quantity quoted (nb_users, nb_services); with subscriptionId, can only be raised',
    }),
  ),
  offerId: Type.Optional(Id('the offer of a new subscription (the company has not subscribed to it yet)')),
  prepaidDuration: Type.Optional(
    Type.Integer({
      minimum: 12,
      maximum: 60,
      description: 'months; with subscriptionId, on a prepaid subscription: can only be increased',
    }),
  ),
  subscriptionId: Type.Optional(Id('the subscription to change (the company already subscribed)')),
});

export const QuotationQuery = Type.Object({ format: formatQuery('small') });

export const QuotationItem = Obj({
  serviceStartDate: date('first day served'),
  serviceEndDate: date('last day served, included'),
  chargeAmount: money("quantity x unit price x span, rounded half-up to the currency's minor units"),
  taxAmount: money('chargeAmount x taxRate, rounded half-up'),
  chargeDescription: Type.String(),
  chargeName: Type.String(),
  productName: Type.String(),
  productRatePlanChargeId: Nullable(Type.String()),
  unitOfMeasure: Type.String(),
  quantity: Type.Integer(),
  calculation: Type.String({ description: 'how chargeAmount was computed, e.g. "10 users x 5.00 EUR x 16/30 days"' }),
  taxRate: Type.Optional(Type.Number({ description: 'format=full: the tax rate applied (0.2 = 20 %)' })),
});

export const ChargeMetric = Obj({
  productRatePlanId: Nullable(Type.String()),
  productRatePlanChargeId: Nullable(Type.String()),
  originRatePlanId: Nullable(Type.String({ description: 'updates: the rate plan of the subscription changed' })),
  originalId: Nullable(Type.String({ description: "updates: the subscription's id in the billing system" })),
  number: Nullable(Type.String({ description: 'updates: the subscription changed' })),
  mrr: Type.Number(),
  dmrr: Type.Number(),
  tcv: Nullable(Type.Number()),
  dtcv: Nullable(Type.Number()),
});

export const Quotation = Obj(
  {
    currency: Type.String({ description: "ISO 4217: the invoiced BP's currency" }),
    contractedMrr: money('monthly recurring revenue after the change'),
    totalContractedValue: Nullable(money("prepaid: the contract's value after the change; monthly (open-ended): null")),
    totalDeltaMrr: money('change of the MRR (negative for a decrease)'),
    totalDeltaTcv: Nullable(money('prepaid: what the change adds to the TCV; monthly: null')),
    amount: money('amountWithoutTax + taxAmount'),
    amountWithoutTax: money("sum of the items' chargeAmount"),
    taxAmount: money("sum of the items' taxAmount"),
    invoiceTargetDate: date('the billing run that invoices these items: the 1st of the month after the change'),
    expirationDate: Nullable(DateTime()),
    invoiceItems: Type.Array(QuotationItem),
    chargeMetrics: Type.Array(ChargeMetric),
  },
  { description: 'a subscription change in preview: what the invoiced BP will be invoiced (docs/billing.md)' },
);
