// Quotations (document 1, create a quotation; docs/billing.md, Quotations).
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { CompanyIdParams } from '../commerce/commerce.api.ts';
import { CreateQuotationBody, Quotation, QuotationQuery } from './quotations.schemas.ts';
import { QUOTATION_EXTRAS, QUOTATION_INPUTS, quotationReads } from './quotations.repo.ts';
import * as service from './quotations.service.ts';
import { taxTable } from './tax.ts';

const S = '/subscription/v1.0';

export const createQuotation = defineOperation({
  operationId: 'createQuotation',
  errors: [
    'APPLICANT_UNKNOWN',
    'ORDER_SYSTEM_UNAVAILABLE',
    'OFFER_NOT_IN_CATALOG',
    'OFFER_NO_PRICE_IN_CURRENCY',
    'QUOTATION_MODEL_NOT_QUOTABLE',
    'QUOTATION_NO_BP',
    'QUOTATION_OFFER_OR_SUBSCRIPTION',
    'QUOTATION_INCREASE_ONLY',
    'QUOTATION_SUBSCRIPTION_TERMINATED',
    'QUOTATION_QUANTITY_REQUIRED',
    'QUOTATION_PREPAID_DURATION_OF_SUBSCRIPTION',
  ],
  method: 'POST',
  path: `${S}/companies/:companyId/quotations`,
  tag: 'Quotations',
  summary:
    'Quote a new subscription (offerId) or a change to one (subscriptionId): what the invoiced BP will be invoiced, item by item',
  description:
    'A subscription in preview (document 1, create a quotation): every item carries `calculation`, the computation in words; `format=full` adds the tax rate of each item. Pure: nothing is stored or sent. Pricing rules: docs/billing.md.',
  params: CompanyIdParams,
  query: QuotationQuery,
  body: CreateQuotationBody,
  response: Quotation,
  envelope: 'data',
  successStatus: 200,
  // Pure: an Idempotency-Key would store the answer; a quotation stores nothing.
  idempotent: false,
  // docs/decisions.md, Quotations: round trips and the organisation's BPs: the offer or subscription of the
  // body, the catalog and the company's BPs are read by the authorising statement (quotations.repo.ts); the
  // service runs no statement.
  target: { kind: 'company', from: 'params', field: 'companyId', inputs: QUOTATION_INPUTS, extras: QUOTATION_EXTRAS },
  // Rule 4, asked of the partner order system before the quotation's other rules.
  prepare: async (ctx) => {
    const reads = quotationReads(ctx.extras);
    await service.checkApplicant(ctx.target, reads, ctx.deps.ports.orders);
    return reads;
  },
  command: async (ctx, { body, query, prepared }) =>
    service.createQuotation(
      ctx.caller,
      ctx.target,
      prepared,
      body,
      ctx.now,
      taxTable(ctx.deps.config),
      query.format === 'full',
    ),
});

export const quotationsOperations: AnyOperation[] = [createQuotation];
