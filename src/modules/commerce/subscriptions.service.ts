// Rules of subscriptions (document 1: create, update, delete, list and get a subscription, the
// default subscription; States and transitions). The synchronisation with the order and billing
// systems runs after the answer, in a job (subscriptions.sync.ts).
import type { Static } from 'typebox';
import type { Executor } from '../../db/client.ts';
import type { Page } from '../../http/paging.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import type { Caller } from '../../authz/roles.ts';
import type { Grant } from '../../authz/grant.ts';
import { grantsReach } from '../../authz/reach.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { OrdersPort } from '../../ports/orders/orders.port.ts';
import { PortFailure } from '../../ports/control.ts';
import { emit } from '../../events/outbox.ts';
import { subscriptionChange } from '../../events/stanzas.ts';
import * as repo from './subscriptions.repo.ts';
import { demoOnly } from './offers.service.ts';
import { isFreeOffer } from './money.ts';
import { countersOf, licenceCounters, type LicenceCounters } from './licence-counters.ts';
import type { CreateSubscriptionBody, Subscription, UpdateSubscriptionBody } from './subscriptions.schemas.ts';
import type { SubscriptionProvisioning } from './commerce.tables.ts';
import type { Config } from '../../config.ts';
import {
  companyFacts,
  type BillingCompany,
  type BpFacts,
  type CompanyFacts,
} from '../admin/companies/companies.api.ts';
import { subscriptionChanged } from './commerce.hooks.ts';

type Api = Static<typeof Subscription>;
export const SYNC_JOB = 'commerce.subscription-sync';

/** What the service needs of the instance's background: the queue for the synchronisation, the order system for rule 2. */
export interface SyncDeps {
  queue?: JobQueue;
  orders?: OrdersPort;
  /** The instance's configuration, for the charges a change records (BILLING_TAX_RATES: billing's hook). */
  config?: Pick<Config, 'billingTaxRates'>;
}

/**
 * A transaction that may enqueue a synchronisation: once it has committed (a job sent in a
 * transaction is not visible before), this instance's workers take the job at once instead of at
 * their next poll, half a second later.
 */
async function withSync<T>(db: Executor, deps: SyncDeps, work: (tx: Executor) => Promise<T>): Promise<T> {
  const result = await db.transaction(work);
  deps.queue?.wake(SYNC_JOB);
  return result;
}

export function toApiSubscription(
  s: repo.SubscriptionRow,
  o: repo.SubscriptionWithOffer['offer'],
  counters?: LicenceCounters,
): Api {
  return {
    id: s.id,
    companyId: s.companyId,
    offerId: o.id,
    offerName: o.name,
    offerDescription: o.description,
    offerTechnicalDescription: o.technicalDescription,
    offerReference: o.offerReference,
    erpReference: o.erpReference,
    profileId: o.profileId,
    profileName: o.profileName,
    isDefault: s.isDefault,
    isExclusive: o.isExclusive,
    isDemo: o.isDemo,
    isPrepaid: o.isPrepaid,
    businessModel: o.businessModel,
    billingOfferId: o.billingOfferId,
    billingProductRatePlanId: o.billingProductRatePlanId,
    billingProductRatePlanChargeId: o.billingProductRatePlanChargeId,
    billingSubscriptionId: s.billingSubscriptionId,
    bsSubscriptionId: s.bsSubscriptionId,
    creationDate: s.creationDate,
    createdBy: s.createdBy ?? null,
    status: s.status,
    syncOngoing: s.syncOngoing,
    syncError: s.syncError,
    syncFailedAt: s.syncFailedAt,
    maxNumberUsers: s.maxNumberUsers,
    updatingMaxNumberUsers: s.updatingMaxNumberUsers,
    numberAssignedUsers: s.numberAssignedUsers,
    purchaseOrderNumber: s.purchaseOrderNumber,
    bpBusinessType: null,
    groupName: o.groupName,
    // The offer's entries, with the subscription's progress on the providers once it has some.
    provisioningNeeded: (s.provisioning.length
      ? s.provisioning
      : o.provisioningNeeded.map((p): SubscriptionProvisioning => ({
          ...p,
          provisioningOngoing: false,
          provisioningStartDate: null,
        }))
    ).map(({ providerId: _id, ...p }) => p),
    autoRenew: s.autoRenew,
    renewalTerm: s.renewalTerm,
    renewalTermOption: s.renewalTermOption,
    prepaidDuration: s.prepaidDuration,
    prepaidRenewalOption: s.prepaidRenewalOption,
    expirationDate: s.expirationDate,
    terminationDate: s.terminationDate,
    lastUpdateDate: s.lastUpdateDate,
    ...(counters ?? {}),
  };
}

/** The BP that buys for a company: its BP, or the VAD above when that BP is an IR (document 1, rule 2: "BP IR companies should have no bpApplicantNumber"). */
async function orderingBp(exec: Executor, company: { bpId: string | null }): Promise<CompanyFacts | undefined> {
  const parent = (await companyFacts(exec, company.bpId)) ?? null;
  const grandParent = parent?.bpType === 'IR' ? ((await companyFacts(exec, parent.bpId)) ?? null) : null;
  return orderingBpOf({ parent, grandParent });
}

/** The same, from the company's BP and the BP above it already read (BPS_EXTRA). */
export function orderingBpOf<B extends { bpType: string | null }>(bps: {
  parent: B | null;
  grandParent: B | null;
}): B | undefined {
  if (bps.parent?.bpType === 'IR') return bps.grandParent ?? bps.parent;
  return bps.parent ?? undefined;
}

/** What the authorising statement of a creation reads beside the company (createSubscription's extras). */
export interface CreationReads {
  catalogId: string | null;
  offer: repo.SubscriptionWithOffer['offer'] | undefined;
  inCatalog: boolean;
  parent: BpFacts | null;
  grandParent: BpFacts | null;
  recipients: string[];
}

/** Document 1, create rule 2 and update rule 3: a resell BP's applicant number must exist in the partner order system. */
export async function checkApplicant(
  bp: Pick<CompanyFacts, 'id' | 'bpBusinessModel' | 'bpApplicantNumber'> | undefined,
  orders: OrdersPort | undefined,
): Promise<void> {
  if (bp?.bpBusinessModel !== 'resell') return;
  if (!bp.bpApplicantNumber) fail('APPLICANT_UNKNOWN', { bpId: bp.id, bpApplicantNumber: null });
  if (!orders) fail('ORDER_SYSTEM_UNAVAILABLE', { bpId: bp.id });
  let known: boolean;
  try {
    known = await orders.applicantExists(bp.bpApplicantNumber);
  } catch (err) {
    if (err instanceof PortFailure) fail('ORDER_SYSTEM_UNAVAILABLE', { bpId: bp.id });
    throw err;
  }
  if (!known) fail('APPLICANT_UNKNOWN', { bpId: bp.id, bpApplicantNumber: bp.bpApplicantNumber });
}

/**
 * Document 1, Events: the message of a subscription change to its recipients (create and update:
 * the same as delete; docs/decisions.md), read here unless the caller read them already (the
 * authorising statement of a creation, the synchronisation's read).
 */
async function announce(
  tx: Executor,
  action: 'create' | 'update' | 'delete',
  s: repo.SubscriptionRow,
  o: repo.SubscriptionWithOffer['offer'],
  recipients?: readonly string[],
): Promise<void> {
  const to = recipients ?? (await repo.changeRecipients(tx, s.companyId));
  if (to.length === 0) return;
  await emit(tx, to, changeMessage(action, s, o));
}

/** Document 1, Events, subscription change: the `companysubscription` message of a change. */
export function changeMessage(
  action: 'create' | 'update' | 'delete',
  s: repo.SubscriptionRow,
  o: repo.SubscriptionWithOffer['offer'],
) {
  const details =
    action === 'delete'
      ? undefined
      : {
          offerId: o.id,
          offerName: o.name,
          profileId: o.profileId ?? '',
          profileName: o.profileName ?? '',
          status: s.status,
          syncOngoing: s.syncOngoing,
          maxNumberUsers: s.updatingMaxNumberUsers ?? s.maxNumberUsers,
        };
  return subscriptionChange({ action, subscriptionId: s.id, companyId: s.companyId, details });
}

/** A BP IR's bp_finance (document 1, create subscription rule 7). */
const irFinance = (caller: Caller) =>
  caller.roles.includes('bp_finance') && caller.companyIsBP && caller.companyBpType === 'IR';

/** Document 1, create rule 7: a BP IR's bp_finance takes prepaid offers only, and only when its VAD set `adminHasRightToUpdateSubscriptions` on the IR company. */
async function irFinanceRule(db: Executor, caller: Caller, offer: { id: string; isPrepaid: boolean }): Promise<void> {
  const ir = await companyFacts(db, caller.companyId);
  if (!offer.isPrepaid || ir?.adminHasRightToUpdateSubscriptions !== true)
    fail('IR_FINANCE_PREPAID_ONLY', { offerId: offer.id, isPrepaid: offer.isPrepaid });
}

/**
 * Update and delete: a BP IR's bp_finance acts on its own company's subscriptions as create rule 7
 * lets him buy them (prepaid ones, the VAD's flag set); on its End Customers' as document 1 says
 * (docs/decisions.md, Subscriptions: a BP IR's bp_finance and its own company).
 */
async function irOwnCompanyRule(
  db: Executor,
  caller: Caller,
  companyId: string,
  offer: { id: string; isPrepaid: boolean },
): Promise<void> {
  if (caller.roles.includes('superadmin') || !irFinance(caller) || companyId !== caller.companyId) return;
  await irFinanceRule(db, caller, offer);
}

const addMonths = (d: Date, months: number) => {
  const x = new Date(d);
  x.setUTCMonth(x.getUTCMonth() + months);
  return x;
};

type CreateBody = Static<typeof CreateSubscriptionBody>;

/** Document 1, create rule 2, asked of the order system before the creation's transaction (the operation's prepare step). */
export const checkApplicantOf = (reads: CreationReads, orders: OrdersPort | undefined): Promise<void> =>
  checkApplicant(orderingBpOf(reads), orders);

export async function createSubscription(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  company: BillingCompany,
  reads: CreationReads,
  body: CreateBody,
  now: Date,
  deps: SyncDeps,
): Promise<Api> {
  const superadmin = caller.roles.includes('superadmin');
  const { offer, catalogId } = reads;
  if (!offer) fail('NOT_FOUND', { target: 'offer', id: body.offerId });
  // Rule 8: the offer of the catalog assigned to the company (its BP's...), superadmin excepted.
  if (!superadmin && !(catalogId && reads.inCatalog))
    fail('OFFER_NOT_IN_CATALOG', { offerId: offer.id, companyId: company.id, catalogId });
  // Rule 4: business_admin, demo offers only (400).
  if (!offer.isDemo && (await demoOnly(db, caller, grants, company.id)))
    fail('SUBSCRIPTION_NOT_DEMO', { offerId: offer.id });
  // Rule 3 and "Offers with canBeSold false cannot be subscribed through the create-subscription operation".
  if (!offer.canBeSold && !superadmin) fail('OFFER_NOT_SOLD', { offerId: offer.id });
  // Rule 9: nb_users and nb_services need maxNumberUsers > 0.
  if (
    (offer.businessModel === 'nb_users' || offer.businessModel === 'nb_services') &&
    !(body.maxNumberUsers && body.maxNumberUsers > 0)
  )
    fail('MAX_NUMBER_USERS_REQUIRED', { businessModel: offer.businessModel });
  // Rule 7: the bp_finance of a BP IR: prepaid offers only, and only when its VAD allowed it on the IR company.
  if (!superadmin && irFinance(caller)) await irFinanceRule(db, caller, offer);
  // Rules 1 and 2: the resell model only; its applicant number known to the partner order system.
  const bp = orderingBpOf(reads);
  if (bp?.bpBusinessModel === 'referral' && !superadmin) fail('SUBSCRIPTION_REFERRAL_MODEL', { bpId: bp.id });

  return withSync(db, deps, async (tx) => {
    // Usage and flat_fee offers carry no licence count (rule 11: usage is billed on consumption).
    const counted = offer.businessModel === 'nb_users' || offer.businessModel === 'nb_services';
    const provisioning: SubscriptionProvisioning[] = offer.provisioningNeeded.map((p) => ({
      ...p,
      provisioningOngoing: true,
      provisioningStartDate: now.toISOString(),
    }));
    const sub = await repo.insertSubscription(tx, {
      id: newId(),
      companyId: company.id,
      offerId: offer.id,
      status: 'creating',
      syncOngoing: true,
      maxNumberUsers: counted ? body.maxNumberUsers! : (body.maxNumberUsers ?? null),
      purchaseOrderNumber: body.purchaseOrderNumber ?? null,
      createdBy: {
        bpApplicantNumber: bp?.bpApplicantNumber ?? null,
        loginEmail: caller.loginEmail,
        userId: caller.userId,
      },
      creationDate: now,
      lastUpdateDate: now,
      autoRenew: offer.isPrepaid ? (body.autoRenew ?? true) : null,
      // The renewal fields mean something for prepaid offers only; the original client sends autoRenew for any offer (ignored there).
      renewalTerm: offer.isPrepaid ? (body.renewalTerm ?? null) : null,
      renewalTermOption: offer.isPrepaid ? (body.renewalTermOption ?? null) : null,
      prepaidDuration: offer.prepaidDuration,
      expirationDate: offer.isPrepaid && offer.prepaidDuration ? addMonths(now, offer.prepaidDuration) : null,
      provisioning,
    });
    // What the creation charges, recorded with it (docs/billing.md, Charges: billing's hook).
    await subscriptionChanged.run(tx, {
      subscription: sub,
      offer,
      before: null,
      after: { quantity: sub.maxNumberUsers ?? 1 },
      now,
      bps: { company, parent: reads.parent, grandParent: reads.grandParent },
      config: deps.config,
    });
    // The synchronisation exists exactly when the subscription does (same transaction).
    await deps.queue?.enqueue(SYNC_JOB, { subscriptionId: sub.id }, { tx });
    await announce(tx, 'create', sub, offer, reads.recipients);
    return toApiSubscription(sub, offer);
  });
}

export async function listSubscriptions(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  company: { id: string },
  o: { showTerminated: boolean; full: boolean },
  page?: Page,
) {
  const filters = { showTerminated: o.showTerminated, demoOnly: await demoOnly(db, caller, grants, company.id) };
  const rows = await repo.listWithOffer(db, company.id, filters, page);
  const counters = o.full
    ? await licenceCounters(
        db,
        rows.map((r) => ({ id: r.sub.id })),
      )
    : new Map<string, LicenceCounters>();
  const items = rows.map((r) => toApiSubscription(r.sub, r.offer, counters.get(r.sub.id)));
  // Without a page: the whole list, as document 1 answers it (total = limit = its length).
  if (!page) return { items, total: items.length, limit: items.length, offset: 0 };
  return { items, total: await repo.countListed(db, company.id, filters), ...page };
}

/**
 * The subscription of the path, with its offer and counters (document 1, get: "with licence
 * counters"), all read by the authorising statement (the operation's extras).
 */
export async function getSubscription(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  company: { id: string },
  sub: repo.SubscriptionRow,
  offer: repo.SubscriptionWithOffer['offer'],
  counts: { irNbUsers: boolean; own: number; ecs: number },
) {
  if (!offer.isDemo && (await demoOnly(db, caller, grants, company.id)))
    fail('SUBSCRIPTION_NOT_DEMO', { subscriptionId: sub.id });
  return toApiSubscription(sub, offer, countersOf({ ...counts, maxNumberUsers: sub.maxNumberUsers }));
}

export async function getDefaultSubscription(db: Executor, company: { id: string }) {
  const row = await repo.findDefault(db, company.id);
  if (!row) fail('NOT_FOUND', { target: 'subscription', companyId: company.id, isDefault: true });
  const counters = await licenceCounters(db, [{ id: row.sub.id }]);
  return toApiSubscription(row.sub, row.offer, counters.get(row.sub.id));
}

const sameMonth = (a: Date, b: Date) =>
  a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth();

/** What the synchronisation made of a subscription elsewhere: its order, its billing subscription, its provisionings. */
export type Made = Pick<repo.SubscriptionRow, 'bsSubscriptionId' | 'billingSubscriptionId' | 'provisioning'>;

/** The synchronisation job's data: the subscription, and what it had made when it was removed (delete). */
export interface SyncJobData {
  subscriptionId: string;
  removed?: Made;
}

/**
 * Document 1, delete subscription: "Free-offer subscriptions are removed; others get status
 * terminated". Removed: a subscription to a free offer (isFreeOffer) that the billing system does
 * not know (no billing subscription: States and transitions, "not known to the billing system").
 */
export const removedOnDelete = (sub: repo.SubscriptionRow, offer: repo.SubscriptionWithOffer['offer']): boolean =>
  isFreeOffer(offer) && sub.billingSubscriptionId === null;

/**
 * A subscription ends as `terminated` (delete; update rule 8's expiry): the row stays, readable with
 * its terminationDate, its charges and invoices untouched; the job cancels its order and billing
 * subscription and removes its provisionings. Its licences are removed by the caller.
 */
async function terminate(tx: Executor, id: string, now: Date, deps: SyncDeps): Promise<repo.SubscriptionRow> {
  const ended = await repo.updateSubscriptionRow(tx, id, {
    status: 'terminated',
    syncOngoing: false,
    numberAssignedUsers: 0,
    terminationDate: now,
    lastUpdateDate: now,
  });
  await deps.queue?.enqueue(SYNC_JOB, { subscriptionId: id } satisfies SyncJobData, { tx });
  return ended!;
}

/**
 * Document 1, delete or terminate a subscription: never the default one; a prepaid one only in
 * its month of creation; removed or terminated as removedOnDelete says; its licences are
 * unassigned from every user; the `delete` message.
 */
export async function deleteSubscription(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  company: { id: string; bpId: string | null },
  subscriptionId: string,
  now: Date,
  deps: SyncDeps,
): Promise<string> {
  return withSync(db, deps, async (tx) => {
    const row = await repo.findWithOffer(tx, subscriptionId, true);
    if (!row) fail('NOT_FOUND', { target: 'subscription', id: subscriptionId });
    const { sub, offer } = row;
    if (!offer.isDemo && (await demoOnly(tx, caller, grants, company.id)))
      fail('SUBSCRIPTION_NOT_DEMO', { subscriptionId });
    await irOwnCompanyRule(tx, caller, company.id, offer);
    if (sub.isDefault) fail('SUBSCRIPTION_DEFAULT_PROTECTED', { subscriptionId });
    if (sub.status === 'terminated') fail('SUBSCRIPTION_TERMINATED', { subscriptionId });
    if (sub.syncOngoing && !sub.syncError) fail('SUBSCRIPTION_SYNC_ONGOING', { subscriptionId });
    if (offer.isPrepaid && !sameMonth(sub.creationDate, now))
      fail('PREPAID_TERMINATION_MONTH', { subscriptionId, creationDate: sub.creationDate.toISOString() });
    await repo.removeLicences(tx, sub.id);
    const removed = removedOnDelete(sub, offer);
    if (removed) {
      await repo.deleteSubscriptionRow(tx, sub.id);
      // Its order and provisionings, if the synchronisation made any, are undone after the answer.
      const made: Made = {
        bsSubscriptionId: sub.bsSubscriptionId,
        billingSubscriptionId: sub.billingSubscriptionId,
        provisioning: sub.provisioning,
      };
      await deps.queue?.enqueue(SYNC_JOB, { subscriptionId: sub.id, removed: made } satisfies SyncJobData, { tx });
    } else {
      await terminate(tx, sub.id, now, deps);
    }
    await announce(tx, 'delete', sub, offer);
    return removed ? `Subscription ${sub.id} deleted` : `Subscription ${sub.id} terminated`;
  });
}

/** Superadmin: a synchronisation that gave up is tried again from where it stopped. */
export async function retrySync(db: Executor, subscriptionId: string, now: Date, deps: SyncDeps) {
  return withSync(db, deps, async (tx) => {
    const row = await repo.findWithOffer(tx, subscriptionId, true);
    if (!row) fail('NOT_FOUND', { target: 'subscription', id: subscriptionId });
    if (!row.sub.syncError) fail('SUBSCRIPTION_SYNC_NOT_FAILED', { subscriptionId, syncOngoing: row.sub.syncOngoing });
    const sub = await repo.updateSubscriptionRow(tx, subscriptionId, {
      syncError: null,
      syncFailedAt: null,
      syncOngoing: true,
      lastUpdateDate: now,
    });
    await deps.queue?.enqueue(SYNC_JOB, { subscriptionId }, { tx });
    return toApiSubscription(sub!, row.offer);
  });
}

type UpdateBody = Static<typeof UpdateSubscriptionBody>;

/**
 * Document 1, update a subscription, rules 1 to 8. The change is written only if nobody changed
 * the subscription since it was read and no synchronisation runs (one conditional UPDATE): of two
 * concurrent updates one wins, the other gets 409.
 */
export async function updateSubscription(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  company: {
    id: string;
    bpId: string | null;
    adminHasRightToUpdateSubscriptions: boolean | null;
    adminAllowedUpdateSubscriptionsOps: string | null;
  },
  subscriptionId: string,
  body: UpdateBody,
  now: Date,
  deps: SyncDeps,
): Promise<Api> {
  const row = await repo.findWithOffer(db, subscriptionId);
  if (!row) fail('NOT_FOUND', { target: 'subscription', id: subscriptionId });
  const { sub, offer } = row;
  if (sub.status === 'terminated') fail('SUBSCRIPTION_TERMINATED', { subscriptionId });
  // Rule 2: refused while syncOngoing.
  if (sub.syncOngoing) fail('SUBSCRIPTION_SYNC_ONGOING', { subscriptionId });
  // Rule 4: business_admin, demo subscriptions only.
  if (!offer.isDemo && (await demoOnly(db, caller, grants, company.id)))
    fail('SUBSCRIPTION_NOT_DEMO', { subscriptionId });
  await irOwnCompanyRule(db, caller, company.id, offer);
  // Rule 1: maxNumberUsers on licence offers, the renewal fields on prepaid offers.
  const counted = offer.businessModel === 'nb_users' || offer.businessModel === 'nb_services';
  if (body.maxNumberUsers !== undefined && !counted)
    fail('SUBSCRIPTION_FIELD_NOT_UPDATABLE', { field: 'maxNumberUsers', businessModel: offer.businessModel });
  for (const f of ['autoRenew', 'prepaidDuration', 'prepaidRenewalOption', 'renewalTerm', 'renewalTermOption'] as const)
    if (body[f] !== undefined && !offer.isPrepaid)
      fail('SUBSCRIPTION_FIELD_NOT_UPDATABLE', { field: f, isPrepaid: false });
  const current = sub.maxNumberUsers ?? 0;
  const lowered = body.maxNumberUsers !== undefined && body.maxNumberUsers < current;
  // Rules 4 and 5: a company_admin (without a BP's or the operators' grants) acts as his BP allows.
  const asCompanyAdmin = !(await grantsReach(
    db,
    caller,
    grants.filter((g) => !g.roles.includes('company_admin')),
    'company',
    company.id,
  ));
  if (asCompanyAdmin) {
    const bp = await companyFacts(db, company.bpId);
    if (bp?.bpType === 'IR') fail('SUBSCRIPTION_UPDATE_FORBIDDEN', { reason: 'company of a BP IR' });
    if (company.adminHasRightToUpdateSubscriptions === false)
      fail('SUBSCRIPTION_UPDATE_FORBIDDEN', { flag: 'adminHasRightToUpdateSubscriptions' });
    const onlyIncrease = Object.entries(body).every(([k, v]) => v === undefined || k === 'maxNumberUsers') && !lowered;
    if (company.adminAllowedUpdateSubscriptionsOps === 'increase_only' && !onlyIncrease)
      fail('SUBSCRIPTION_UPDATE_FORBIDDEN', { flag: 'adminAllowedUpdateSubscriptionsOps', value: 'increase_only' });
  }
  // Rule 6: a prepaid subscription's raise this month is an add-on; it can be taken back (lowered by at most its size) until the 1st of next month.
  const addOnNow = sub.prepaidAddOnDate && sameMonth(sub.prepaidAddOnDate, now) ? sub.prepaidAddOnSize : 0;
  let addOn: { prepaidAddOnSize: number; prepaidAddOnDate: Date } | undefined;
  if (offer.isPrepaid && body.maxNumberUsers !== undefined && body.maxNumberUsers !== current) {
    const size = addOnNow + (body.maxNumberUsers - current);
    if (size < 0) fail('PREPAID_LOWERING_REFUSED', { subscriptionId, addOnThisMonth: addOnNow });
    addOn = { prepaidAddOnSize: size, prepaidAddOnDate: now };
  }
  // Rule 7: a monthly subscription, not below the licences assigned (the same floor for a prepaid one).
  if (lowered && body.maxNumberUsers! < sub.numberAssignedUsers)
    fail('MAX_NUMBER_USERS_BELOW_ASSIGNED', { numberAssignedUsers: sub.numberAssignedUsers });
  if (counted && body.maxNumberUsers !== undefined && body.maxNumberUsers <= 0)
    fail('MAX_NUMBER_USERS_REQUIRED', { businessModel: offer.businessModel });
  if (body.prepaidDuration !== undefined && sub.prepaidDuration !== null && body.prepaidDuration < sub.prepaidDuration)
    fail('PREPAID_DURATION_INCREASE_ONLY', { prepaidDuration: sub.prepaidDuration });
  // Rule 3: the resell BP's applicant number.
  await checkApplicant(await orderingBp(db, company), deps.orders);

  return withSync(db, deps, async (tx) => {
    const changed = await repo.updateIfVersion(tx, sub.id, sub.version, {
      syncOngoing: true,
      updatingMaxNumberUsers: body.maxNumberUsers ?? sub.maxNumberUsers,
      ...(addOn ?? {}),
      ...(body.autoRenew !== undefined ? { autoRenew: body.autoRenew } : {}),
      ...(body.prepaidDuration !== undefined
        ? { prepaidDuration: body.prepaidDuration, expirationDate: addMonths(sub.creationDate, body.prepaidDuration) }
        : {}),
      ...(body.prepaidRenewalOption !== undefined ? { prepaidRenewalOption: body.prepaidRenewalOption } : {}),
      ...(body.purchaseOrderNumber !== undefined ? { purchaseOrderNumber: body.purchaseOrderNumber } : {}),
      ...(body.renewalTerm !== undefined ? { renewalTerm: body.renewalTerm } : {}),
      ...(body.renewalTermOption !== undefined ? { renewalTermOption: body.renewalTermOption } : {}),
      lastUpdateDate: now,
    });
    if (!changed) fail('SUBSCRIPTION_CHANGED', { subscriptionId });
    // What the change charges (an increase, a longer prepaid term), recorded with it (docs/billing.md, Charges).
    const months = offer.isPrepaid
      ? { before: sub.prepaidDuration ?? undefined, after: changed.prepaidDuration ?? undefined }
      : undefined;
    await subscriptionChanged.run(tx, {
      subscription: sub,
      offer,
      before: { quantity: sub.maxNumberUsers ?? 1, prepaidMonths: months?.before },
      after: { quantity: changed.updatingMaxNumberUsers ?? 1, prepaidMonths: months?.after },
      now,
      config: deps.config,
    });
    await deps.queue?.enqueue(SYNC_JOB, { subscriptionId }, { tx });
    await announce(tx, 'update', changed, offer);
    return toApiSubscription(changed, offer);
  });
}

/**
 * Document 1, update rule 8: "cancelling auto-renewal of a prepaid subscription makes it end at
 * its expirationDate". Run hourly (subscriptions.sync.ts): each such subscription is terminated as
 * a deletion terminates it (licences unassigned, order and billing cancelled by the job, the
 * `delete` message), free or not: it ends, nobody asked to remove it (docs/decisions.md,
 * Subscriptions). Returns how many ended.
 */
export async function endExpiredSubscriptions(db: Executor, now: Date, deps: SyncDeps): Promise<number> {
  let ended = 0;
  for (;;) {
    const ids = await repo.expiredWithoutRenewal(db, now, 100);
    if (ids.length === 0) return ended;
    for (const id of ids) {
      await withSync(db, deps, async (tx) => {
        const row = await repo.findWithOffer(tx, id, true);
        if (!row || row.sub.status === 'terminated') return;
        await repo.removeLicences(tx, id);
        await announce(tx, 'delete', await terminate(tx, id, now, deps), row.offer);
      });
      ended++;
    }
  }
}
