// Offers: managed by superadmin (route table, Commerce, +), and a company's offers (document 1).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { parsePaging } from '../../http/paging.ts';
import {
  CompanyIdParams,
  CompanyOfferParams,
  CreateOfferBody,
  FormatQuery,
  ListAllOffersQuery,
  ListCompanyOffersQuery,
  Offer,
  OFFER_FORMATS,
  OFFER_SORT_FIELDS,
  OfferIdParams,
  UpdateOfferBody,
} from './offers.schemas.ts';
import * as service from './offers.service.ts';
import { COMPANY_CATALOG_EXTRA } from './catalogs.repo.ts';
import { companyOffersGrants } from './commerce.policy.ts';
import { textOrNull } from '../../shared/json-values.ts';

const tag = 'Offers';
const S = '/subscription/v1.0';
const offerTarget = { kind: 'offer', from: 'params', field: 'offerId' } as const;
/** The company of the path, with the catalog it sees, read in the authorising statement. */
const companyTarget = {
  kind: 'company',
  from: 'params',
  field: 'companyId',
  extras: { catalogId: COMPANY_CATALOG_EXTRA },
} as const;
const full = { ...OFFER_FORMATS, default: 'full' } as const;

export const createOffer = defineOperation({
  operationId: 'createOffer',
  errors: [
    'OFFER_FEATURE_INVALID',
    'OFFER_PREPAID_DURATION',
    'OFFER_PRICE_CURRENCY_TWICE',
    'OFFER_PRICE_CURRENCY_UNKNOWN',
    'OFFER_PROVISIONING_INVALID',
  ],
  method: 'POST',
  path: `${S}/offers`,
  tag,
  summary: 'Create an offer, with its prices, provisioning entries and features',
  description: 'It is sold once a catalog holds it (addOfferToCatalog).',
  body: CreateOfferBody,
  response: Offer,
  envelope: 'data',
  formats: full,
  scope: 'caller',
  command: (ctx, { body }) => service.createOffer(ctx.db, body, ctx.now),
});

export const listAllOffers = defineOperation({
  operationId: 'listAllOffers',
  method: 'GET',
  path: `${S}/offers`,
  tag,
  summary: 'List every offer of the platform, with the filters of document 1 and a catalog filter',
  query: ListAllOffersQuery,
  response: Offer,
  envelope: 'list',
  formats: OFFER_FORMATS,
  scope: 'offer',
  listVersion: 'offers',
  command: (ctx, { query }) =>
    service.listAllOffers(
      ctx.deps.database,
      query.catalogId,
      query,
      parsePaging(query, OFFER_SORT_FIELDS, 'name'),
      ctx.listVersion,
    ),
});

export const updateOffer = defineOperation({
  operationId: 'updateOffer',
  errors: ['OFFER_PREPAID_DURATION'],
  method: 'PUT',
  path: `${S}/offers/:offerId`,
  tag,
  summary: 'Update an offer: absent fields are unchanged, null clears, an array replaces the list',
  params: OfferIdParams,
  body: UpdateOfferBody,
  response: Offer,
  envelope: 'data',
  formats: full,
  target: offerTarget,
  command: (ctx, { body }) => service.updateOffer(ctx.db, ctx.target, body, ctx.now),
});

export const deleteOffer = defineOperation({
  operationId: 'deleteOffer',
  errors: ['OFFER_DEFAULT_PROTECTED', 'OFFER_HAS_SUBSCRIPTIONS'],
  method: 'DELETE',
  path: `${S}/offers/:offerId`,
  tag,
  summary: 'Delete an offer nobody subscribed to (it leaves its catalogs); never the default offer',
  params: OfferIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: offerTarget,
  command: async (ctx) => {
    await service.deleteOffer(ctx.db, ctx.target);
    return { status: `Offer ${ctx.target.id} deleted`, data: [] };
  },
});

export const listCompanyOffers = defineOperation({
  operationId: 'listCompanyOffers',
  method: 'GET',
  path: `${S}/companies/:companyId/offers`,
  tag,
  summary: 'List the offers of the catalog assigned to the company',
  description:
    "The company's catalog, else its BP's (or its BP's BP's), else the default catalog. A business_admin sees the demo offers.",
  params: CompanyIdParams,
  query: ListCompanyOffersQuery,
  response: Offer,
  envelope: 'list',
  formats: OFFER_FORMATS,
  target: companyTarget,
  listVersion: 'offers',
  command: (ctx, { query }) =>
    service.listCompanyOffers(
      ctx.deps.database,
      ctx.caller,
      companyOffersGrants,
      ctx.target,
      textOrNull(ctx.extras.catalogId),
      query,
      parsePaging(query, OFFER_SORT_FIELDS, 'name'),
      ctx.listVersion,
    ),
});

export const getCompanyOffer = defineOperation({
  operationId: 'getCompanyOffer',
  errors: ['OFFER_NOT_DEMO', 'OFFER_NOT_IN_CATALOG'],
  method: 'GET',
  path: `${S}/companies/:companyId/offers/:offerId`,
  tag,
  summary: "Get an offer of the company's catalog (403 for an offer outside it)",
  params: CompanyOfferParams,
  query: FormatQuery,
  response: Offer,
  envelope: 'data',
  formats: full,
  target: companyTarget,
  command: (ctx, { params }) =>
    service.getCompanyOffer(
      ctx.db,
      ctx.caller,
      companyOffersGrants,
      ctx.target,
      textOrNull(ctx.extras.catalogId),
      params.offerId,
    ),
});

export const offersOperations: AnyOperation[] = [
  createOffer,
  listAllOffers,
  updateOffer,
  deleteOffer,
  listCompanyOffers,
  getCompanyOffer,
];
