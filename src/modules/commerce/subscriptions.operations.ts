// Subscriptions (document 1): bought by a BP's bp_finance for its customers (or by the
// operators), synchronised with the order and billing systems by a job, read by the company's
// overseers; plus the applicant-number check and the superadmin's retry of a failed synchronisation.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { parseOptionalPage } from '../../http/paging.ts';
import type { CommandDeps } from '../../http/context.ts';
import { fail } from '../../errors/catalogue.ts';
import { PortFailure } from '../../ports/control.ts';
import { COMPANY_CATALOG_EXTRA } from './catalogs.repo.ts';
import { LICENCE_COUNTS_EXTRA } from './licence-counters.ts';
import { CHANGE_RECIPIENTS_EXTRA, SUBSCRIPTION_OFFER_EXTRA } from './subscriptions.repo.ts';
import { offerExtra, offerFromExtra, offerInCatalogExtra } from './extras.ts';
import { BPS_EXTRA, bpsFromExtra } from '../admin/companies/companies.api.ts';
import { CompanyIdParams } from './offers.schemas.ts';
import {
  ApplicantCheck,
  ApplicantParams,
  CreateSubscriptionBody,
  GetSubscriptionQuery,
  ListSubscriptionsQuery,
  Subscription,
  SUBSCRIPTION_FORMATS,
  SubscriptionParams,
  UpdateSubscriptionBody,
} from './subscriptions.schemas.ts';
import * as service from './subscriptions.service.ts';
import { commercePolicy } from './commerce.policy.ts';
import { textOrNull, texts } from '../../shared/json-values.ts';

const tag = 'Subscriptions';
const S = '/subscription/v1.0';
const companyTarget = { kind: 'company', from: 'params', field: 'companyId' } as const;
const subscriptionTarget = {
  kind: 'subscription',
  from: 'params',
  field: 'subscriptionId',
  parents: { company: 'companyId' },
} as const;
const full = { ...SUBSCRIPTION_FORMATS, default: 'full' } as const;
const grantsOf = (id: string) => {
  const e = commercePolicy[id];
  return e?.kind === 'grants' ? e.grants : [];
};
const syncDeps = (ctx: { deps: CommandDeps }): service.SyncDeps => ({
  queue: ctx.deps.queue,
  orders: ctx.deps.ports.orders,
  config: ctx.deps.config,
});

const CREATION_EXTRAS = {
  catalogId: COMPANY_CATALOG_EXTRA,
  offer: offerExtra('offerId'),
  inCatalog: offerInCatalogExtra('offerId'),
  bps: BPS_EXTRA,
  recipients: CHANGE_RECIPIENTS_EXTRA,
};

function creationReads(extras: Record<string, unknown>): service.CreationReads {
  return {
    catalogId: textOrNull(extras.catalogId),
    offer: offerFromExtra(extras.offer),
    inCatalog: extras.inCatalog === true,
    ...bpsFromExtra(extras.bps),
    recipients: texts(extras.recipients),
  };
}

export const checkApplicantNumber = defineOperation({
  operationId: 'checkApplicantNumber',
  errors: ['ORDER_SYSTEM_UNAVAILABLE'],
  method: 'GET',
  path: `${S}/companies/check-applicant-number/:bpApplicantNumber`,
  tag,
  summary: 'Whether the partner order system knows a BP applicant number',
  description:
    'Answers `{data: {bpApplicantNumber, exists}}`; exists is true when the partner order system knows the number (docs/decisions.md, Subscriptions).',
  params: ApplicantParams,
  response: ApplicantCheck,
  envelope: 'data',
  scope: 'caller',
  command: async (ctx, { params }) => {
    const { orders } = ctx.deps.ports;
    try {
      return {
        bpApplicantNumber: params.bpApplicantNumber,
        exists: await orders.applicantExists(params.bpApplicantNumber),
      };
    } catch (err) {
      if (err instanceof PortFailure) fail('ORDER_SYSTEM_UNAVAILABLE', {});
      throw err;
    }
  },
});

export const listSubscriptions = defineOperation({
  operationId: 'listSubscriptions',
  method: 'GET',
  path: `${S}/companies/:companyId/subscriptions`,
  tag,
  summary: 'List the subscriptions of a company (terminated ones with showTerminated=true)',
  description:
    'At format=full, subscriptions of an IR company to nb_users offers carry the licence counters. A business_admin sees demo subscriptions only.',
  params: CompanyIdParams,
  query: ListSubscriptionsQuery,
  response: Subscription,
  envelope: 'list',
  formats: SUBSCRIPTION_FORMATS,
  target: companyTarget,
  command: (ctx, { query }) =>
    service.listSubscriptions(
      ctx.db,
      ctx.caller,
      grantsOf('listSubscriptions'),
      ctx.target,
      {
        showTerminated: query.showTerminated === true,
        full: query.format === 'full',
      },
      parseOptionalPage(query),
    ),
});

export const createSubscription = defineOperation({
  operationId: 'createSubscription',
  errors: [
    'APPLICANT_UNKNOWN',
    'IR_FINANCE_PREPAID_ONLY',
    'MAX_NUMBER_USERS_REQUIRED',
    'OFFER_NOT_IN_CATALOG',
    'OFFER_NOT_SOLD',
    'ORDER_SYSTEM_UNAVAILABLE',
    'SUBSCRIPTION_NOT_DEMO',
    'SUBSCRIPTION_REFERRAL_MODEL',
    'OFFER_NO_PRICE_IN_CURRENCY',
  ],
  method: 'POST',
  path: `${S}/companies/:companyId/subscriptions`,
  tag,
  summary:
    'Subscribe a company to an offer: status creating and syncOngoing until the order and billing systems confirm',
  params: CompanyIdParams,
  body: CreateSubscriptionBody,
  response: Subscription,
  envelope: 'data',
  formats: full,
  // The offer of the body, its catalog membership, the BPs above the company and the recipients
  // of the message come with the company, in the authorising statement.
  target: { ...companyTarget, inputs: { offerId: { from: 'body', field: 'offerId' } }, extras: CREATION_EXTRAS },
  // Rule 2, asked of the partner order system before the other rules.
  prepare: async (ctx) => {
    const reads = creationReads(ctx.extras);
    await service.checkApplicantOf(reads, ctx.deps.ports.orders);
    return reads;
  },
  command: (ctx, { body, prepared }) =>
    service.createSubscription(
      ctx.db,
      ctx.caller,
      grantsOf('createSubscription'),
      ctx.target,
      prepared,
      body,
      ctx.now,
      syncDeps(ctx),
    ),
});

export const getDefaultSubscription = defineOperation({
  operationId: 'getDefaultSubscription',
  method: 'GET',
  path: `${S}/companies/:companyId/subscriptions/default`,
  tag,
  summary: 'Get the default subscription of a company (its subscription to the default free offer)',
  params: CompanyIdParams,
  query: GetSubscriptionQuery,
  response: Subscription,
  envelope: 'data',
  formats: full,
  target: companyTarget,
  command: (ctx) => service.getDefaultSubscription(ctx.db, ctx.target),
});

export const getSubscription = defineOperation({
  operationId: 'getSubscription',
  errors: ['SUBSCRIPTION_NOT_DEMO'],
  method: 'GET',
  path: `${S}/companies/:companyId/subscriptions/:subscriptionId`,
  tag,
  summary: 'Get a subscription, with its licence counters',
  params: SubscriptionParams,
  query: GetSubscriptionQuery,
  response: Subscription,
  envelope: 'data',
  formats: full,
  // One round trip: the subscription's offer and licence counts are read by the authorising statement.
  target: { ...subscriptionTarget, extras: { offer: SUBSCRIPTION_OFFER_EXTRA, counts: LICENCE_COUNTS_EXTRA } },
  command: (ctx) =>
    service.getSubscription(
      ctx.db,
      ctx.caller,
      grantsOf('getSubscription'),
      ctx.parents.company,
      ctx.target,
      offerFromExtra(ctx.extras.offer)!,
      ctx.extras.counts,
    ),
});

export const updateSubscription = defineOperation({
  operationId: 'updateSubscription',
  errors: [
    'APPLICANT_UNKNOWN',
    'IR_FINANCE_PREPAID_ONLY',
    'MAX_NUMBER_USERS_BELOW_ASSIGNED',
    'OFFER_NO_PRICE_IN_CURRENCY',
    'ORDER_SYSTEM_UNAVAILABLE',
    'PREPAID_DURATION_INCREASE_ONLY',
    'PREPAID_LOWERING_REFUSED',
    'SUBSCRIPTION_CHANGED',
    'SUBSCRIPTION_FIELD_NOT_UPDATABLE',
    'SUBSCRIPTION_NOT_DEMO',
    'SUBSCRIPTION_SYNC_ONGOING',
    'SUBSCRIPTION_UPDATE_FORBIDDEN',
  ],
  method: 'PUT',
  path: `${S}/companies/:companyId/subscriptions/:subscriptionId`,
  tag,
  summary: 'Update a subscription: syncOngoing and updatingMaxNumberUsers until the order and billing systems confirm',
  params: SubscriptionParams,
  body: UpdateSubscriptionBody,
  response: Subscription,
  envelope: 'data',
  formats: full,
  target: subscriptionTarget,
  command: (ctx, { body }) =>
    service.updateSubscription(
      ctx.db,
      ctx.caller,
      grantsOf('updateSubscription'),
      ctx.parents.company,
      ctx.target.id,
      body,
      ctx.now,
      syncDeps(ctx),
    ),
});

export const deleteSubscription = defineOperation({
  operationId: 'deleteSubscription',
  errors: [
    'IR_FINANCE_PREPAID_ONLY',
    'PREPAID_TERMINATION_MONTH',
    'SUBSCRIPTION_DEFAULT_PROTECTED',
    'SUBSCRIPTION_NOT_DEMO',
    'SUBSCRIPTION_SYNC_ONGOING',
    'SUBSCRIPTION_TERMINATED',
  ],
  method: 'DELETE',
  path: `${S}/companies/:companyId/subscriptions/:subscriptionId`,
  tag,
  summary:
    'Delete a subscription (free offers unknown to billing) or terminate it (others); its licences are unassigned',
  params: SubscriptionParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: subscriptionTarget,
  command: async (ctx) => ({
    status: await service.deleteSubscription(
      ctx.db,
      ctx.caller,
      grantsOf('deleteSubscription'),
      ctx.parents.company,
      ctx.target.id,
      ctx.now,
      syncDeps(ctx),
    ),
    data: [],
  }),
});

export const retrySubscriptionSync = defineOperation({
  operationId: 'retrySubscriptionSync',
  errors: ['SUBSCRIPTION_SYNC_NOT_FAILED'],
  method: 'POST',
  path: `${S}/companies/:companyId/subscriptions/:subscriptionId/retry-sync`,
  tag,
  summary: 'Superadmin: run again a synchronisation that gave up (syncError set); it resumes where it stopped',
  params: SubscriptionParams,
  response: Subscription,
  envelope: 'data',
  formats: full,
  successStatus: 200,
  target: subscriptionTarget,
  command: (ctx) => service.retrySync(ctx.db, ctx.target.id, ctx.now, syncDeps(ctx)),
});

// The default subscription's path before the subscription's own, so that "default" is never taken for an id.
export const subscriptionsOperations: AnyOperation[] = [
  checkApplicantNumber,
  listSubscriptions,
  createSubscription,
  getDefaultSubscription,
  getSubscription,
  updateSubscription,
  deleteSubscription,
  retrySubscriptionSync,
];
