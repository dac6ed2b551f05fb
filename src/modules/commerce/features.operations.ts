// A company's features and a BP's offer counters (document 1, list company features; list offer
// counters of a BP company): views of a company computed from its subscriptions.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { CompanyIdParams } from './offers.schemas.ts';
import { CompanyFeature } from './features.schemas.ts';
import { OfferCounter } from './offer-counters.schemas.ts';
import * as features from './features.service.ts';
import * as counters from './offer-counters.service.ts';

const S = '/subscription/v1.0';
const companyTarget = { kind: 'company', from: 'params', field: 'companyId' } as const;

export const listCompanyFeatures = defineOperation({
  operationId: 'listCompanyFeatures',
  method: 'GET',
  path: `${S}/companies/:companyId/subscriptions/features`,
  tag: 'Subscriptions',
  summary: "The company's features, aggregated from the offers of its active subscriptions",
  description: 'A number feature takes the highest limitMax; a boolean feature is enabled when any of them grants it.',
  params: CompanyIdParams,
  response: Type.Array(CompanyFeature),
  envelope: 'data',
  target: companyTarget,
  command: (ctx) => features.listCompanyFeatures(ctx.db, ctx.target.id),
});

// A static segment: the router matches `offers/counters` before `offers/{offerId}` (getCompanyOffer).
export const listOfferCounters = defineOperation({
  operationId: 'listOfferCounters',
  errors: ['OFFER_COUNTERS_BP_ONLY'],
  method: 'GET',
  path: `${S}/companies/:companyId/offers/counters`,
  tag: 'Offers',
  summary:
    'Licences bought and assigned per offer, by the BP company and by the companies under it (BP companies only)',
  params: CompanyIdParams,
  response: Type.Array(OfferCounter),
  envelope: 'data',
  target: companyTarget,
  command: (ctx) => counters.listOfferCounters(ctx.db, ctx.target),
});

export const featuresOperations: AnyOperation[] = [listCompanyFeatures, listOfferCounters];
