// SQL of the call recordings of a CloudPBX (pbx_recordings; issue 26, point 5). The list is
// driven by the index (cloudpbx_id, date, id): the CloudPBX and the date range are a range of
// it, the default order (date, then id, descending) is its order read backwards, so a page reads
// its rows and stops; the total counts the same range of the same index (an index-only scan).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { runCounted, unlessUnchanged, versionedCount } from '../../db/list-count.ts';
import { rowsOf } from '../../db/raw.ts';
import { escapeLike } from '../../db/like.ts';
import { afterAnchor, pageAnchor, type AnchoredList, type PageAnchor } from '../../db/page-anchors.ts';
import type { Paging } from '../../http/paging.ts';
import { recordings } from './recordings.tables.ts';
import type { ListRecordingsFilters, RecordingSortField } from './recordings.schemas.ts';

export type RecordingRow = typeof recordings.$inferSelect;
export type NewRecording = typeof recordings.$inferInsert;

/** The columns a sortField orders by (then the id, so that pages never overlap). */
const SORT: Record<RecordingSortField, SQL> = {
  date: sql`r.date`,
  duration: sql`r.duration`,
  recordedName: sql`r.recorded_name`,
  recordedNumber: sql`r.recorded_number`,
  otherNumber: sql`r.other_number`,
};

/**
 * Case-insensitive "contains" (document 2: substring filters): ILIKE with the value's pattern
 * characters escaped, which the trigram indexes of migration 0035 serve (three characters or more).
 */
const contains = (column: SQL, value: string): SQL => sql`${column} ILIKE ${`%${escapeLike(value)}%`}`;

function filterWhere(cloudPbxId: string, f: ListRecordingsFilters): SQL {
  const parts: SQL[] = [sql`r.cloudpbx_id = ${cloudPbxId}`];
  if (f.fromDate !== undefined) parts.push(sql`r.date >= ${new Date(f.fromDate).toISOString()}::timestamptz`);
  if (f.toDate !== undefined) parts.push(sql`r.date <= ${new Date(f.toDate).toISOString()}::timestamptz`);
  if (f.phoneNumberId !== undefined) parts.push(sql`r.recorded_phone_number_id = ${f.phoneNumberId}`);
  if (f.recordedName) parts.push(contains(sql`r.recorded_name`, f.recordedName));
  if (f.recordedNumber) parts.push(contains(sql`r.recorded_number`, f.recordedNumber));
  if (f.otherNumber) parts.push(contains(sql`r.other_number`, f.otherNumber));
  return sql.join(parts, sql` AND `);
}

/** A recording as the list statement gives it (JSON: dates as text). */
interface JsonRecording {
  id: string;
  date: string;
  direction: string;
  otherNumber: string;
  recordedUserId: string | null;
  recordedGroupId: string | null;
  recordedPhoneNumberId: string | null;
  recordedName: string;
  recordedNumber: string;
  storageKey: string;
  mediaType: string;
  size: number;
  duration: number;
}

export type RecordingView = Omit<JsonRecording, 'date'> & { date: Date };

const ROW_JSON = sql`json_build_object('id', r.id, 'date', r.date, 'direction', r.direction,
  'otherNumber', r.other_number, 'recordedUserId', r.recorded_user_id, 'recordedGroupId', r.recorded_group_id,
  'recordedPhoneNumberId', r.recorded_phone_number_id, 'recordedName', r.recorded_name,
  'recordedNumber', r.recorded_number, 'storageKey', r.storage_key, 'mediaType', r.media_type,
  'size', r.size, 'duration', r.duration)`;

const viewOf = (j: JsonRecording): RecordingView => ({ ...j, date: new Date(j.date) });

/** The type each sort key is read back as from its text (src/db/page-anchors.ts). */
const SORT_TYPE: Record<RecordingSortField, AnchoredList['keyType']> = {
  date: 'timestamptz',
  duration: 'float8',
  recordedName: 'text',
  recordedNumber: 'text',
  otherNumber: 'text',
};

/**
 * Document 2, list recordings: one page and the total, in one statement, remembered at the
 * version of the `recordings` family of lists (src/db/list-count.ts; migration 0028 moves it on
 * every write to pbx_recordings): the same request again, nothing written since, is answered
 * without counting (with `version`, the one the authorising statement read, without a statement).
 * A page past the first thousand rows starts after the nearest anchor (src/db/page-anchors.ts).
 */
export async function listRecordingRows(
  database: Database,
  cloudPbxId: string,
  f: ListRecordingsFilters,
  p: Paging<RecordingSortField>,
  version?: string,
): Promise<{ rows: RecordingView[]; total: number }> {
  const list = (): AnchoredList => ({
    family: 'recordings',
    from: sql`FROM ${recordings} r WHERE ${filterWhere(cloudPbxId, f)}`,
    key: SORT[p.sortField],
    id: sql`r.id`,
    keyType: SORT_TYPE[p.sortField],
    descending: p.sortOrder !== 1,
  });
  const listKey = JSON.stringify(['recordings', cloudPbxId, f, p.sortField, p.sortOrder]);
  const anchor = await pageAnchor(database, listKey, version, p.offset, list);
  if (anchor) {
    const row = await pageOf(database, cloudPbxId, f, p, version, list, anchor);
    // The anchors are exact at their version only: read at another one, the page is computed again.
    if (row.list_version === anchor.version) return { rows: (row.rows ?? []).map(viewOf), total: row.total };
  }
  const row = await pageOf(database, cloudPbxId, f, p, version, list, undefined);
  return { rows: (row.rows ?? []).map(viewOf), total: row.total };
}

function pageOf(
  database: Database,
  cloudPbxId: string,
  f: ListRecordingsFilters,
  p: Paging<RecordingSortField>,
  version: string | undefined,
  list: () => AnchoredList,
  anchor: PageAnchor | undefined,
) {
  // Built once per CloudPBX, filters, page and anchor (the key names everything the statement depends on).
  const buildKey = JSON.stringify(['recordings', cloudPbxId, f, p, anchor ?? null]);
  return runCounted<{ list_version: string | null; total: number | null; rows: JsonRecording[] | null }>(
    database,
    (known) => {
      const where = filterWhere(cloudPbxId, f);
      const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
      const key = SORT[p.sortField];
      const after = anchor ? sql` AND ${afterAnchor(list(), anchor)}` : sql``;
      const offset = anchor ? p.offset - anchor.skipped : p.offset;
      // The page's ids first, its rows' JSON after: PostgreSQL computes the select list of every
      // row an OFFSET skips, so a page deep in 100,000 recordings built 100,000 objects (about a
      // second); the ids alone come from the index (cloudpbx_id, date, id) for the default order.
      return sql`WITH ids AS (
          SELECT r.id, ${key} AS k FROM ${recordings} r WHERE ${where}${after}
          ORDER BY ${key} ${dir}, r.id ${dir} LIMIT ${p.limit} OFFSET ${offset}),
        page AS (SELECT ${ROW_JSON} AS j, ids.k, r.id FROM ids JOIN ${recordings} r ON r.id = ids.id)
        SELECT ${unlessUnchanged('recordings', sql`COALESCE((SELECT json_agg(page.j ORDER BY page.k ${dir}, page.id ${dir}) FROM page), '[]'::json)`, known, 'rows')},
          ${versionedCount('recordings', sql`SELECT count(*)::int FROM ${recordings} r WHERE ${where}`, known)}`;
    },
    buildKey,
    version,
    // A substring's best plan is its trigram index when it is rare, the date range otherwise.
    f.recordedName || f.recordedNumber || f.otherNumber ? 'per value' : 'generic',
  );
}

export async function insertRecording(exec: Executor, row: NewRecording): Promise<RecordingRow> {
  const [r] = await exec.insert(recordings).values(row).returning();
  return r;
}

/** Deletes one recording of the CloudPBX; its storage key, or undefined when it was gone. */
export async function deleteRecordingRow(exec: Executor, cloudPbxId: string, id: string): Promise<string | undefined> {
  const [r] = await exec
    .delete(recordings)
    .where(and(eq(recordings.id, id), eq(recordings.cloudPbxId, cloudPbxId)))
    .returning({ storageKey: recordings.storageKey });
  return r?.storageKey;
}

/** Deletes the recordings of the CloudPBX among `ids`; those deleted, with their storage keys. */
export async function deleteRecordingRows(
  exec: Executor,
  cloudPbxId: string,
  ids: string[],
): Promise<{ id: string; storageKey: string }[]> {
  return exec
    .delete(recordings)
    .where(and(inArray(recordings.id, ids), eq(recordings.cloudPbxId, cloudPbxId)))
    .returning({ id: recordings.id, storageKey: recordings.storageKey });
}

/** How many recordings there are (the retention run's `checked`). */
export async function countRecordings(exec: Executor): Promise<number> {
  const [r] = await exec.select({ n: sql<number>`count(*)::int` }).from(recordings);
  return r?.n ?? 0;
}

/**
 * Deletes at most `limit` recordings the retention rule removes: dated before `expiredBefore`
 * (kept two months) or shorter than `minDuration` seconds. Each comes back once, with the reason
 * it went (`expired` first: a short and old recording counts as expired).
 */
export async function deleteRetainedBatch(
  exec: Executor,
  expiredBefore: Date,
  minDuration: number,
  limit: number,
): Promise<{ storageKey: string; expired: boolean }[]> {
  const result = await exec.execute(sql`DELETE FROM ${recordings} WHERE id IN (
      SELECT r.id FROM ${recordings} r
      WHERE r.date < ${expiredBefore.toISOString()}::timestamptz OR r.duration < ${minDuration}
      LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING storage_key AS "storageKey", date < ${expiredBefore.toISOString()}::timestamptz AS expired`);
  return rowsOf<{ storageKey: string; expired: boolean }>(result);
}
