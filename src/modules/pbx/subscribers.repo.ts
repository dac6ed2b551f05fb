// SQL of the subscribers of a CloudPBX (pbx_subscribers). The user's names are read through the
// users module's face (userNamesOf); DDI numbers and SIP devices are this module's tables.
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Paging } from '../../http/paging.ts';
import { userNamesOf, type UserNames } from '../admin/users/users.api.ts';
import { subscribers } from './subscribers.tables.ts';
import { ddis } from './ddis.tables.ts';
import { devices } from './devices.tables.ts';
import { groups } from './groups.tables.ts';
import type { SUBSCRIBER_SORT_FIELDS } from './subscribers.schemas.ts';
import { escapeLike } from '../../db/like.ts';

export type SubscriberRow = typeof subscribers.$inferSelect;
export type NewSubscriber = typeof subscribers.$inferInsert;

/** A subscriber with what its answer shows beyond its row: its user's names and its devices. */
export interface SubscriberView {
  row: SubscriberRow;
  names: UserNames | null;
  devices: string[];
}

const VIEW = {
  row: subscribers,
  names: userNamesOf(subscribers.userId),
  // (Written out: in a one-table select, Drizzle leaves the outer column unqualified.)
  devices: sql<
    string[]
  >`ARRAY(SELECT d.id FROM pbx_devices d WHERE d.subscriber_id = pbx_subscribers.id ORDER BY d.id)`,
};

const ofPbx = (cloudPbxId: string, id: string): SQL | undefined =>
  and(eq(subscribers.id, id), eq(subscribers.cloudPbxId, cloudPbxId));

export async function viewSubscriber(
  exec: Executor,
  cloudPbxId: string,
  id: string,
): Promise<SubscriberView | undefined> {
  const [r] = await exec.select(VIEW).from(subscribers).where(ofPbx(cloudPbxId, id));
  return r;
}

const SORT = { shortNumber: subscribers.shortNumberValue, creationDate: subscribers.creationDate };

/** The `search` of listSubscribers: a number's first digits, or a part of the user's display name. */
function searchOf(search: string | undefined): SQL | undefined {
  const term = search?.trim();
  if (!term) return undefined;
  if (/^\d+$/.test(term)) return sql`${subscribers.shortNumber} LIKE ${`${escapeLike(term)}%`}`;
  return sql`(${userNamesOf(subscribers.userId)})->>'displayName' ILIKE ${`%${escapeLike(term)}%`}`;
}

export async function listSubscriberViews(
  exec: Executor,
  cloudPbxId: string,
  p: Paging<(typeof SUBSCRIBER_SORT_FIELDS)[number]>,
  search?: string,
): Promise<{ rows: SubscriberView[]; total: number }> {
  const where = and(eq(subscribers.cloudPbxId, cloudPbxId), searchOf(search));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select(VIEW)
      .from(subscribers)
      .where(where)
      .orderBy(dir(SORT[p.sortField]), dir(subscribers.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(subscribers)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/**
 * What a creation checks before it asks the voice platform: the user's subscriber, the number's
 * holder (a subscriber or a group: issue 26, one numbering plan for both).
 */
export async function creationConflicts(
  exec: Executor,
  cloudPbxId: string,
  userId: string,
  shortNumberValue: number,
): Promise<{ userTaken: boolean; numberTaken: boolean }> {
  const [r] = await exec
    .select({
      userTaken: sql<boolean>`EXISTS (SELECT 1 FROM ${subscribers} WHERE ${subscribers.userId} = ${userId})`,
      numberTaken: sql<boolean>`EXISTS (SELECT 1 FROM ${subscribers} WHERE ${subscribers.cloudPbxId} = ${cloudPbxId}
        AND ${subscribers.shortNumberValue} = ${shortNumberValue})
        OR EXISTS (SELECT 1 FROM ${groups} WHERE ${groups.cloudPbxId} = ${cloudPbxId}
        AND ${groups.shortNumberValue} = ${shortNumberValue})`,
    })
    .from(sql`(SELECT 1) AS one`);
  return { userTaken: r?.userTaken === true, numberTaken: r?.numberTaken === true };
}

/** Inserts the subscriber (a unique index may refuse it: the caller reads the constraint). */
export async function insertSubscriber(exec: Executor, row: NewSubscriber): Promise<SubscriberRow> {
  const [r] = await exec.insert(subscribers).values(row).returning();
  return r;
}

/** The subscriber's row locked until the transaction ends (a change at a time). */
export async function lockSubscriber(
  exec: Executor,
  cloudPbxId: string,
  id: string,
): Promise<SubscriberRow | undefined> {
  const [r] = await exec.select().from(subscribers).where(ofPbx(cloudPbxId, id)).for('update');
  return r;
}

export async function updateSubscriberRow(
  exec: Executor,
  id: string,
  patch: Partial<NewSubscriber>,
): Promise<SubscriberRow | undefined> {
  const [r] = await exec.update(subscribers).set(patch).where(eq(subscribers.id, id)).returning();
  return r;
}

export async function deleteSubscriberRow(exec: Executor, id: string): Promise<boolean> {
  const rows = await exec.delete(subscribers).where(eq(subscribers.id, id)).returning({ id: subscribers.id });
  return rows.length > 0;
}

/** The DDI numbers of the CloudPBX assigned to the user: unassigned (their XMPP addresses go with the user). */
export async function unassignUserDdis(exec: Executor, cloudPbxId: string, userId: string): Promise<void> {
  await exec
    .update(ddis)
    .set({ userId: null, jidIm: null, jidTel: null, jidPassword: null })
    .where(and(eq(ddis.cloudPbxId, cloudPbxId), eq(ddis.userId, userId)));
}

/** What a CloudPBX holds (document 2, delete CloudPBX): its DDI numbers, subscribers and SIP devices. */
export async function attachedObjects(
  exec: Executor,
  cloudPbxId: string,
): Promise<{ ddis: number; subscribers: number; devices: number }> {
  const [r] = await exec
    .select({
      ddis: sql<number>`(SELECT count(*)::int FROM ${ddis} WHERE ${ddis.cloudPbxId} = ${cloudPbxId})`,
      subscribers: sql<number>`(SELECT count(*)::int FROM ${subscribers} WHERE ${subscribers.cloudPbxId} = ${cloudPbxId})`,
      devices: sql<number>`(SELECT count(*)::int FROM ${devices} WHERE ${devices.cloudPbxId} = ${cloudPbxId})`,
    })
    .from(sql`(SELECT 1) AS one`);
  return { ddis: r?.ddis ?? 0, subscribers: r?.subscribers ?? 0, devices: r?.devices ?? 0 };
}
