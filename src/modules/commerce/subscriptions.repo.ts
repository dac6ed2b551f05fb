// SQL of subscriptions: for now the default subscription every company holds (document 3, create
// company rule 7; document 1, company kinds: "every company always has a subscription to the
// default (free) offer").
import { and, asc, count, eq, getTableColumns, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '../../http/paging.ts';
import type { Executor } from '../../db/client.ts';
import { newId } from '../../shared/ids.ts';
import { licences, offers, subscriptions } from './commerce.tables.ts';
import {
  ALL_COMPANY_IDS,
  BPS_EXTRA,
  bpsFromExtra,
  COMPANY_SUMMARY,
  companyJson,
  overCompany,
  type BpFacts,
  type OfferFilters,
  type SubscriptionView,
} from '../admin/companies/companies.api.ts';
import { adminJids } from '../admin/users/users.api.ts';
import { subscriptionWithOfferFromExtra } from './extras.ts';
import { rowInserter, statement } from '../../db/raw.ts';
import { emitAfter } from '../../events/outbox.ts';

export async function insertDefaultSubscription(
  exec: Executor,
  companyId: string,
  offerId: string,
  now: Date,
): Promise<void> {
  await exec
    .insert(subscriptions)
    .values({ id: newId(), companyId, offerId, status: 'active', isDefault: true, creationDate: now })
    .onConflictDoNothing();
}

/** Companies without a default subscription get one (when the default offer is created: companies made before it). */
export async function backfillDefaultSubscriptions(exec: Executor, offerId: string): Promise<void> {
  await exec.execute(sql`INSERT INTO subscriptions (id, company_id, offer_id, status, is_default)
    SELECT substr(md5(random()::text || c.id), 1, 24), c.id, ${offerId}, 'active', TRUE FROM ${ALL_COMPANY_IDS} c
    WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.company_id = c.id AND s.is_default)
    ON CONFLICT DO NOTHING`);
}

// ---------------------------------------------------------------------------------------------
// Subscriptions bought, read, changed and synchronised (document 1, Subscription).

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type SubscriptionWithOffer = { sub: SubscriptionRow; offer: typeof offers.$inferSelect };

/** A new subscription (one statement rendered once per set of columns: src/db/raw.ts). */
export const insertSubscription: (exec: Executor, s: NewSubscription) => Promise<SubscriptionRow> =
  rowInserter(subscriptions);

/** The offer of the subscription row `t` as one JSON value, for an extra of the authorising statement. */
export const SUBSCRIPTION_OFFER_EXTRA = sql`(SELECT row_to_json(o) FROM offers o WHERE o.id = t.offer_id)`;

/** One subscription and its offer, optionally locked for the change that follows. */
export async function findWithOffer(
  exec: Executor,
  id: string,
  lock = false,
): Promise<SubscriptionWithOffer | undefined> {
  const q = exec
    .select({ sub: getTableColumns(subscriptions), offer: getTableColumns(offers) })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(eq(subscriptions.id, id));
  const [row] = lock ? await q.for('update', { of: subscriptions }) : await q;
  return row;
}

/** The subscriptions of a company with their offers, oldest first (terminated ones on demand; business_admin: demo ones). */
export async function listWithOffer(
  exec: Executor,
  companyId: string,
  o: ListFilters,
  page?: Page,
): Promise<SubscriptionWithOffer[]> {
  // (creationDate, id) orders every subscription: pages neither repeat nor skip one.
  const query = exec
    .select({ sub: getTableColumns(subscriptions), offer: getTableColumns(offers) })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(listWhere(companyId, o))
    .orderBy(asc(subscriptions.creationDate), asc(subscriptions.id))
    .$dynamic();
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

interface ListFilters {
  showTerminated: boolean;
  demoOnly: boolean;
}

function listWhere(companyId: string, o: ListFilters) {
  const conds = [eq(subscriptions.companyId, companyId)];
  if (!o.showTerminated) conds.push(ne(subscriptions.status, 'terminated'));
  if (o.demoOnly) conds.push(eq(offers.isDemo, true));
  return and(...conds);
}

/** How many subscriptions the list's filters keep (the total of a page). */
export async function countListed(exec: Executor, companyId: string, o: ListFilters): Promise<number> {
  const [row] = await exec
    .select({ n: count() })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(listWhere(companyId, o));
  return row?.n ?? 0;
}

/** The default subscription of a company, with its offer. */
export async function findDefault(exec: Executor, companyId: string): Promise<SubscriptionWithOffer | undefined> {
  const [row] = await exec
    .select({ sub: getTableColumns(subscriptions), offer: getTableColumns(offers) })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.isDefault, true)));
  return row;
}

/**
 * Changes a subscription only if nobody changed it since `version` was read: the loser of two
 * concurrent updates changes nothing (undefined) and answers 409.
 */
export async function updateIfVersion(
  exec: Executor,
  id: string,
  version: number,
  patch: Partial<NewSubscription>,
): Promise<SubscriptionRow | undefined> {
  const [row] = await exec
    .update(subscriptions)
    .set({ ...patch, version: sql`${subscriptions.version} + 1` })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.version, version), eq(subscriptions.syncOngoing, false)))
    .returning();
  return row;
}

export async function updateSubscriptionRow(
  exec: Executor,
  id: string,
  patch: Partial<NewSubscription>,
): Promise<SubscriptionRow | undefined> {
  const [row] = await exec
    .update(subscriptions)
    .set({ ...patch, version: sql`${subscriptions.version} + 1` })
    .where(eq(subscriptions.id, id))
    .returning();
  return row;
}

/**
 * A synchronisation that gave up: its reason, on a subscription still synchronising (or
 * terminated: its cancellation failed) that shows none yet. Returns whether it was written.
 */
export async function recordSyncFailure(exec: Executor, id: string, reason: string, now: Date): Promise<boolean> {
  const rows = await exec
    .update(subscriptions)
    .set({ syncError: reason, syncFailedAt: now, lastUpdateDate: now, version: sql`${subscriptions.version} + 1` })
    .where(
      and(
        eq(subscriptions.id, id),
        sql`${subscriptions.syncError} IS NULL`,
        or(eq(subscriptions.syncOngoing, true), eq(subscriptions.status, 'terminated')),
      ),
    )
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

export async function deleteSubscriptionRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(subscriptions).where(eq(subscriptions.id, id));
}

/** Document 1, delete: "profile link removed from all users of the subscription". */
export async function removeLicences(exec: Executor, subscriptionId: string): Promise<void> {
  await exec.delete(licences).where(eq(licences.subscriptionId, subscriptionId));
}

// ---------------------------------------------------------------------------------------------
// The companies around a subscription: its company, the BP that buys for it, the recipients.

/**
 * Document 1, Events, subscription change, delete: "all company_admin of the company and all
 * bp_admin and bp_finance of the linked BP company" (create and update too: docs/decisions.md),
 * over the company row `t`: an extra of the authorising statement, or of the synchronisation's read.
 */
export const CHANGE_RECIPIENTS_EXTRA = adminJids(sql`t.id`, sql`t.bp_id`);

/** The recipients of a change to a subscription of the company (CHANGE_RECIPIENTS_EXTRA). */
export async function changeRecipients(exec: Executor, companyId: string): Promise<string[]> {
  return (await overCompany<{ to: string[] }>(exec, companyId, { to: CHANGE_RECIPIENTS_EXTRA }))?.to ?? [];
}

/** What a synchronisation reads: the subscription, its offer, its company, the BPs above and the recipients of its messages. */
export interface SyncReads extends SubscriptionWithOffer {
  company: { id: string; name: string; bpId: string | null; currency: string | null };
  parent: BpFacts | null;
  grandParent: BpFacts | null;
  recipients: string[];
}

const SYNC_READS = statement<'id'>(sql`SELECT json_build_object('sub', to_jsonb(s), 'offer', to_jsonb(o)) AS so,
    ${companyJson(sql`s.company_id`, { company: COMPANY_SUMMARY, bps: BPS_EXTRA, recipients: CHANGE_RECIPIENTS_EXTRA })} AS c
  FROM subscriptions s JOIN offers o ON o.id = s.offer_id WHERE s.id = ${sql.placeholder('id')}`);

/** SyncReads in one statement (undefined when the subscription is gone). */
export async function syncReads(exec: Executor, id: string): Promise<SyncReads | undefined> {
  const [row] = await SYNC_READS.rows<{
    so: unknown;
    c: { company: SyncReads['company']; bps: unknown; recipients: string[] | null } | null;
  }>(exec, { id });
  const found = row && subscriptionWithOfferFromExtra(row.so);
  if (!row?.c || !found) return undefined;
  return { ...found, company: row.c.company, ...bpsFromExtra(row.c.bps), recipients: row.c.recipients ?? [] };
}

/**
 * The order's and the billing subscription's identifiers of a synchronisation that failed or was
 * abandoned, shown at once (the columns and the row's new version and date).
 */
const SAVE_SYNC_IDS = statement<'id' | 'bs' | 'billing' | 'at'>(sql`UPDATE subscriptions SET
    bs_subscription_id = COALESCE(${sql.placeholder('bs')}::text, bs_subscription_id),
    billing_subscription_id = COALESCE(${sql.placeholder('billing')}::text, billing_subscription_id),
    version = version + 1, last_update_date = ${sql.placeholder('at')}::timestamptz
  WHERE id = ${sql.placeholder('id')}`);

export async function saveSyncIds(
  exec: Executor,
  id: string,
  ids: { bsSubscriptionId?: string; billingSubscriptionId?: string },
  at: Date,
): Promise<void> {
  await SAVE_SYNC_IDS.rows(exec, {
    id,
    bs: ids.bsSubscriptionId ?? null,
    billing: ids.billingSubscriptionId ?? null,
    at: at.toISOString(),
  });
}

/**
 * The end of a synchronisation, with its message, in one statement: active, the new maximum in
 * force, the identifiers it obtained (null: unchanged), no failure shown; false when the
 * subscription is gone.
 */
export const markSynchronised = emitAfter<
  'id' | 'max' | 'at' | 'bs' | 'billing'
>(sql`UPDATE subscriptions SET status = 'active', sync_ongoing = FALSE,
    max_number_users = ${sql.placeholder('max')}::int,
    bs_subscription_id = COALESCE(${sql.placeholder('bs')}::text, bs_subscription_id),
    billing_subscription_id = COALESCE(${sql.placeholder('billing')}::text, billing_subscription_id), updating_max_number_users = NULL, sync_error = NULL, sync_failed_at = NULL,
    version = version + 1, last_update_date = ${sql.placeholder('at')}::timestamptz
  WHERE id = ${sql.placeholder('id')} RETURNING 1`);

/** Prepaid subscriptions whose auto-renewal was cancelled and whose term has ended (document 1, update rule 8). */
export async function expiredWithoutRenewal(exec: Executor, now: Date, limit: number): Promise<string[]> {
  const rows = await exec
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.autoRenew, false),
        ne(subscriptions.status, 'terminated'),
        sql`${subscriptions.expirationDate} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// What companies asks of commerce (companies.hooks.ts; provided at install: commerce.module.ts).

/**
 * Document 3, delete company: allowed when the company "has default subscriptions or subscriptions
 * with status terminated"; any other subscription, free or not, stands in the way.
 */
export async function hasOtherActiveSubscriptions(exec: Executor, companyId: string): Promise<boolean> {
  const rows = await exec
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.companyId, companyId),
        eq(subscriptions.isDefault, false),
        sql`${subscriptions.status} <> 'terminated'`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Document 3, delete company: "company is disabled, not removed"; its subscriptions (the default one,
 * and the others already terminated) are terminated, never removed, whatever their offer.
 */
export async function terminateSubscriptions(exec: Executor, companyId: string, now: Date): Promise<void> {
  await exec
    .update(subscriptions)
    .set({
      status: 'terminated',
      terminationDate: now,
      lastUpdateDate: now,
      version: sql`${subscriptions.version} + 1`,
    })
    .where(and(eq(subscriptions.companyId, companyId), ne(subscriptions.status, 'terminated')));
}

/** The subscriptions of several companies in one statement, joined to their offers. */
export async function subscriptionsOf(exec: Executor, companyIds: string[]): Promise<Map<string, SubscriptionView[]>> {
  const out = new Map<string, SubscriptionView[]>();
  if (companyIds.length === 0) return out;
  const rows = await exec
    .select({
      companyId: subscriptions.companyId,
      profileName: offers.profileName,
      profileId: offers.profileId,
      offerName: offers.name,
      offerId: offers.id,
      _id: subscriptions.id,
      creationDate: subscriptions.creationDate,
      status: subscriptions.status,
      isDefault: subscriptions.isDefault,
      maxNumberUsers: subscriptions.maxNumberUsers,
    })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(inArray(subscriptions.companyId, companyIds))
    .orderBy(asc(subscriptions.creationDate), asc(subscriptions.id));
  for (const { companyId, ...s } of rows) {
    const list = out.get(companyId) ?? [];
    list.push(s);
    out.set(companyId, list);
  }
  return out;
}

/**
 * The subscriptions of the company row `t` with their offers, as JSON (an extra of getCompany's
 * authorising statement). OFFSET 0 keeps the company's few subscriptions as the first step, then
 * their offers: the planner otherwise may start from the default offer, which every company holds.
 * The subquery names the columns the answer shows: `SELECT *` made the database take apart the
 * whole row of each subscription (some 3 µs of its CPU per company read, 20,000 companies in a loop).
 */
export const COMPANY_SUBSCRIPTIONS_EXTRA = sql`(SELECT COALESCE(json_agg(json_build_object('profileName', o.profile_name, 'profileId', o.profile_id, 'offerName', o.name,
      'offerId', o.id, '_id', s.id, 'creationDate', s.creation_date, 'status', s.status, 'isDefault', s.is_default, 'maxNumberUsers', s.max_number_users)
      ORDER BY s.creation_date, s.id), '[]'::json)
    FROM (SELECT s.id, s.offer_id, s.creation_date, s.status, s.is_default, s.max_number_users
      FROM subscriptions s WHERE s.company_id = t.id OFFSET 0) s JOIN offers o ON o.id = s.offer_id)`;

/** The companies list's offer filters (document 3, list companies): one uncorrelated subquery of company ids each. */
export function companiesWithOffer(f: OfferFilters): SQL[] {
  const c: SQL[] = [];
  if (f.offerId)
    c.push(
      sql`(SELECT s.company_id FROM subscriptions s WHERE s.offer_id = ${f.offerId} AND s.status <> 'terminated')`,
    );
  if (f.offerCanBeSold !== undefined || f.offerGroupName) {
    const o: SQL[] = [];
    if (f.offerCanBeSold !== undefined) o.push(sql`o.can_be_sold = ${f.offerCanBeSold}`);
    if (f.offerGroupName) o.push(sql`o.group_name = ${f.offerGroupName}`);
    c.push(
      sql`(SELECT s.company_id FROM subscriptions s JOIN offers o ON o.id = s.offer_id WHERE s.status <> 'terminated' AND ${sql.join(o, sql` AND `)})`,
    );
  }
  return c;
}
