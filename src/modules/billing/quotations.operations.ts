// Quotations (document 1, create a quotation; issue 11, point 1).
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { portsOf } from '../../ports/ports.ts';
import { checkApplicantOf, COMPANY_CATALOG_EXTRA } from '../commerce/commerce.service.ts';
import { CompanyIdParams } from '../commerce/offers.schemas.ts';
import { CreateQuotationBody, Quotation, QuotationQuery } from './quotations.schemas.ts';
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
  summary: 'Quote a new subscription (offerId) or a change to one (subscriptionId): what the invoiced BP will be invoiced, item by item',
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
  target: { kind: 'company', from: 'params', field: 'companyId', extras: { catalogId: COMPANY_CATALOG_EXTRA } },
  // Rule 4, asked of the partner order system before the quotation reads anything else.
  prepare: (ctx) => checkApplicantOf(ctx.db, service.applicantHolder(ctx.target), portsOf(ctx.deps).orders),
  handler: (ctx, { body, query }) =>
    service.createQuotation(ctx.db, ctx.caller, ctx.target, ctx.extras.catalogId as string | null, body, ctx.now, taxTable(ctx.deps.config), query.format === 'full'),
});

export const quotationsOperations: AnyOperation[] = [createQuotation];
