// The synchronisation of a subscription with the partner order system, the billing system and
// the providers (document 1, States and transitions): a job, enqueued in the transaction of the
// change. The order and billing systems take the subscription's id as their request's reference
// and answer a repeated request with what the first one made, and each provisioning is saved as it
// succeeds, so a retried attempt resumes where the failed one stopped and never orders twice.
// When the retries are spent, however the last attempt failed (an error, its time limit, its
// instance gone), the subscription keeps syncOngoing with a visible syncError, written from the
// job's dead-letter queue; a superadmin retries it (retrySubscriptionSync).
import type { JobDeps } from '../module.ts';
import type { JobInfo, JobQueue } from '../../jobs/queue.ts';
import * as repo from './subscriptions.repo.ts';
import {
  changeMessage,
  endExpiredSubscriptions,
  orderingBpOf,
  SYNC_JOB,
  type Made,
  type SyncJobData,
} from './subscriptions.service.ts';
import type { SubscriptionProvisioning } from './commerce.tables.ts';
import { field, textOr } from '../../shared/json-values.ts';

/**
 * A terminated or removed subscription: its order and billing subscription are cancelled, its
 * provisionings removed. Nothing of the service's own is deleted: the charges and invoices of a
 * terminated subscription stay (billing module).
 */
async function wind(deps: JobDeps, sub: Made): Promise<void> {
  const { orders, billing, providers } = deps.ports;
  if (sub.bsSubscriptionId && (await orders.getOrder(sub.bsSubscriptionId))?.status === 'open')
    await orders.cancelOrder(sub.bsSubscriptionId);
  if (sub.billingSubscriptionId && (await billing.getSubscription(sub.billingSubscriptionId))?.status === 'active')
    await billing.cancelSubscription(sub.billingSubscriptionId, deps.now().toISOString().slice(0, 10));
  for (const p of sub.provisioning)
    if (p.providerId && (await providers.get(p.providerId))?.status === 'ready')
      await providers.deprovision(p.providerId);
}

/**
 * The invoiced company's billing account, created by its first synchronisation. Two first
 * synchronisations for one BP at once both find none; the billing system refuses the second
 * account, and that one takes the account the other made (without it, the refused one failed its
 * attempt and waited for its retry).
 */
async function createAccount(deps: JobDeps, a: { companyId: string; name: string; currency: string }) {
  try {
    return await deps.ports.billing.createAccount(a);
  } catch (err) {
    const made = await deps.ports.billing.findAccount(a.companyId);
    if (made) return made;
    throw err;
  }
}

/**
 * Brings the subscription to the state the order and billing systems and the providers confirm.
 * `signal` aborts when the attempt ran past its time limit: an external call that answers after
 * that saves nothing (the next attempt, or the operator's retry, resumes from what was made).
 */
export async function synchronise(
  deps: JobDeps,
  subscriptionId: string,
  signal?: AbortSignal,
  removed?: Made,
): Promise<void> {
  // The subscription, its offer, its company, the BPs above it and the recipients: one statement.
  const row = await repo.syncReads(deps.db, subscriptionId);
  // Removed (a free offer's subscription deleted): what was made of it elsewhere is undone.
  if (!row) return removed ? wind(deps, removed) : undefined;
  if (row.sub.status === 'terminated') return wind(deps, row.sub);
  if (!row.sub.syncOngoing) return;
  let { sub } = row;
  const { offer, company, recipients } = row;
  const { orders, billing, providers } = deps.ports;
  const bp = orderingBpOf(row);
  const quantity = sub.updatingMaxNumberUsers ?? sub.maxNumberUsers ?? 1;
  // The identifiers of the order and the billing subscription are kept here and written with the
  // end of the synchronisation: the ports are idempotent by reference (the subscription's id), so a
  // retried attempt finds what this one made without a save after each step. They are written at
  // once when the attempt fails or is abandoned at its time limit, for the operator to see what
  // was made; an answer that arrives after that limit is not taken.
  const obtained: { bsSubscriptionId?: string; billingSubscriptionId?: string } = {};
  const got = (ids: typeof obtained) => {
    signal?.throwIfAborted();
    Object.assign(obtained, ids);
    sub = { ...sub, ...ids };
  };
  const showObtained = () =>
    Object.keys(obtained).length > 0
      ? repo.saveSyncIds(deps.db, sub.id, obtained, deps.now()).catch(() => undefined)
      : undefined;
  const save = async (patch: Partial<repo.NewSubscription>) => {
    signal?.throwIfAborted();
    sub = (await repo.updateSubscriptionRow(deps.db, sub.id, { ...patch, ...obtained, lastUpdateDate: deps.now() }))!;
  };
  const onAbort = () => void showObtained();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await steps();
  } catch (err) {
    if (!signal?.aborted) await showObtained();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }

  async function steps() {
    // The order in the partner order system (bsSubscriptionId).
    if (!sub.bsSubscriptionId) {
      const order = await orders.createOrder({
        reference: sub.id,
        applicantNumber: bp?.bpBusinessModel === 'resell' ? bp.bpApplicantNumber : null,
        companyId: sub.companyId,
        offerReference: offer.offerReference ?? offer.id,
        quantity,
        ...(sub.purchaseOrderNumber ? { purchaseOrderNumber: sub.purchaseOrderNumber } : {}),
      });
      got({ bsSubscriptionId: order.id });
    } else if (sub.updatingMaxNumberUsers !== null) {
      await orders.updateOrder(sub.bsSubscriptionId, { quantity });
    }

    // The billing system, for offers it knows (a rate plan): the account of the invoiced company (the BP, else the company).
    if (offer.billingProductRatePlanId) {
      if (!sub.billingSubscriptionId) {
        const billed = bp ?? company;
        const account =
          (await billing.findAccount(billed.id)) ??
          (await createAccount(deps, { companyId: billed.id, name: billed.name, currency: billed.currency ?? 'EUR' }));
        const created = await billing.createSubscription({
          reference: sub.id,
          accountId: account.id,
          ratePlanId: offer.billingProductRatePlanId,
          ...(offer.billingProductRatePlanChargeId ? { ratePlanChargeId: offer.billingProductRatePlanChargeId } : {}),
          quantity,
          startDate: sub.creationDate.toISOString().slice(0, 10),
        });
        got({ billingSubscriptionId: created.id });
      } else if (sub.updatingMaxNumberUsers !== null) {
        await billing.updateSubscription(sub.billingSubscriptionId, { quantity });
      }
    }

    // The providers, for offers that need them (provisioningOngoing until each answers).
    for (let i = 0; i < sub.provisioning.length; i++) {
      const p = sub.provisioning[i];
      if (!p.provisioningOngoing) continue;
      const made = await providers.provision({
        providerType: p.providerType,
        companyId: sub.companyId,
        subscriptionId: sub.id,
        ...(p.mediaType ? { mediaType: p.mediaType } : {}),
        ...(p.bridgeEnterpriseId ? { bridgeEnterpriseId: p.bridgeEnterpriseId } : {}),
      });
      const next: SubscriptionProvisioning[] = sub.provisioning.map((q, j) =>
        j === i ? { ...q, provisioningOngoing: false, providerId: made.id } : q,
      );
      await save({ provisioning: next });
    }

    // Synchronised: active, the new maximum in force, and the message (docs/decisions.md, Subscriptions).
    signal?.throwIfAborted();
    // The row and its message in one statement (src/events/outbox.ts, emitAfter).
    const at = deps.now();
    const maxNumberUsers = sub.updatingMaxNumberUsers ?? sub.maxNumberUsers;
    const done = {
      ...sub,
      status: 'active' as const,
      syncOngoing: false,
      maxNumberUsers,
      updatingMaxNumberUsers: null,
      syncError: null,
      syncFailedAt: null,
      version: sub.version + 1,
      lastUpdateDate: at,
    };
    await repo.markSynchronised(
      deps.db,
      {
        id: sub.id,
        max: maxNumberUsers,
        at: at.toISOString(),
        bs: obtained.bsSubscriptionId ?? null,
        billing: obtained.billingSubscriptionId ?? null,
      },
      recipients,
      changeMessage('update', done, offer),
    );
  }
}

/**
 * The last attempt failed, by an error or by its time limit: the subscription shows why, and stays
 * syncOngoing until a superadmin retries. Only while that synchronisation is still under way and
 * shows no reason yet (run at least once: a repeated run changes nothing).
 */
async function giveUp(deps: JobDeps, subscriptionId: string, reason: string): Promise<void> {
  await repo.recordSyncFailure(deps.db, subscriptionId, reason.slice(0, 1000), deps.now());
}

export async function defineSubscriptionJobs(queue: JobQueue, deps: JobDeps): Promise<void> {
  const retryLimit = deps.config.subscriptionSyncRetryLimit;
  await queue.define(
    SYNC_JOB,
    async (data: SyncJobData, job: JobInfo) => synchronise(deps, data.subscriptionId, job.signal, data.removed),
    {
      retryLimit,
      retryDelaySeconds: deps.config.subscriptionSyncRetryDelaySeconds,
      backoff: true,
      retryDelayMaxSeconds: 600,
      pollingIntervalSeconds: 0.5,
      expireInSeconds: deps.config.subscriptionSyncTimeoutSeconds,
      concurrency: deps.config.subscriptionSyncConcurrency,
      onGiveUp: (data, why) => giveUp(deps, textOr(field(data, 'subscriptionId')), why.reason),
    },
  );
  // Document 1, update rule 8: prepaid subscriptions without auto-renewal end at their expirationDate (checked hourly).
  await queue.define(EXPIRY_JOB, async () => void (await endExpiredSubscriptions(deps.db, deps.now(), { queue })), {
    retryLimit: 3,
    retryDelaySeconds: 60,
  });
  await queue.schedule(EXPIRY_JOB, '7 * * * *');
}

export const EXPIRY_JOB = 'commerce.subscription-expiry';
