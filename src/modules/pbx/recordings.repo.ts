// SQL of the call recordings of a CloudPBX (pbx_recordings; issue 26, point 5). The list is
// driven by the index (cloudpbx_id, date, id): the CloudPBX and the date range are a range of
// it, the default order (date, then id, descending) is its order read backwards, so a page reads
// its rows and stops; the total counts the same range of the same index (an index-only scan).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { rememberedAt, runCounted, unlessUnchanged, versionedCount, versionOf } from '../../db/list-count.ts';
import { rowsOf } from '../../db/raw.ts';
import { escapeLike } from '../../db/like.ts';
import {
  afterAnchor,
  listStatementRow,
  listTotal,
  pageAnchor,
  rowsBound,
  type LongList,
  type PageAnchor,
} from '../../db/long-lists.ts';
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

/** The type each sort key is read back as from its text (src/db/long-lists.ts). */
const SORT_TYPE: Record<RecordingSortField, LongList['keyType']> = {
  date: 'timestamptz',
  duration: 'float8',
  recordedName: 'text',
  recordedNumber: 'text',
  otherNumber: 'text',
};

const rowsJson = (descending: boolean) => {
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  return sql`COALESCE((SELECT json_agg(page.j ORDER BY page.k ${dir}, page.id ${dir}) FROM page), '[]'::json)`;
};

/**
 * The page's ids first, its rows' JSON after: PostgreSQL computes the select list of every row an
 * OFFSET skips, so a page deep in 100,000 recordings built 100,000 objects (about a second); the
 * ids alone come from the index (cloudpbx_id, date, id) for the default order. Each row is read
 * by its id (a subquery per row: joined, a generic plan that cannot know the page's size read the
 * whole table to hash it, 40 ms a page). After `anchor`, the offset counts from it.
 */
function pageCtes(list: LongList, p: Paging<RecordingSortField>, anchor: PageAnchor | undefined): SQL {
  const dir = sql.raw(list.descending ? 'DESC' : 'ASC');
  const after = anchor ? sql` AND ${afterAnchor(list, anchor)}` : sql``;
  const skip = anchor ? p.offset - anchor.skipped : p.offset;
  const bound = rowsBound(skip, p.limit);
  const rows = sql`SELECT r.id, ${list.key} AS k ${list.from}${after}
      ORDER BY ${list.key} ${dir}, r.id ${dir}`;
  // The bounded rows keep their order (the outer ORDER BY reuses it, no second sort).
  const ids = bound
    ? sql`SELECT b.id, b.k FROM (${rows} LIMIT ${sql.raw(String(bound))}) b ORDER BY b.k ${dir}, b.id ${dir}`
    : rows;
  return sql`WITH ids AS (${ids} LIMIT ${p.limit} OFFSET ${skip}),
    page AS (SELECT (SELECT ${ROW_JSON} FROM ${recordings} r WHERE r.id = ids.id) AS j, ids.k, ids.id FROM ids)`;
}

/**
 * Document 2, list recordings: one page and the total. With `version` (the version of the
 * `recordings` family the authorising statement read; migration 0028 moves it on every write to
 * pbx_recordings), the list's total and, for a page past the first thousand rows, its anchor are
 * read once per list and version (src/db/long-lists.ts), and the page itself once per version.
 * Without it, or when the reads met different versions (a write in between), the page and its
 * count are read in one statement.
 */
export async function listRecordingRows(
  database: Database,
  cloudPbxId: string,
  f: ListRecordingsFilters,
  p: Paging<RecordingSortField>,
  version?: string,
): Promise<{ rows: RecordingView[]; total: number }> {
  const where = filterWhere(cloudPbxId, f);
  const list = (): LongList => ({
    family: 'recordings',
    from: sql`FROM ${recordings} r WHERE ${where}`,
    key: SORT[p.sortField],
    id: sql`r.id`,
    keyType: SORT_TYPE[p.sortField],
    descending: p.sortOrder !== 1,
    // A substring's best plan is its trigram index when it is rare, the date range otherwise; in
    // another order than the date's, the order's index for a wide range, the date's for a narrow one.
    plan: f.recordedName || f.recordedNumber || f.otherNumber || p.sortField !== 'date' ? 'per value' : 'generic',
  });
  if (version !== undefined) {
    // The list depends on its filters and order, not on the page (`f` is the whole query).
    const filters = [f.fromDate, f.toDate, f.phoneNumberId, f.recordedName, f.recordedNumber, f.otherNumber];
    const listKey = JSON.stringify(['recordings', cloudPbxId, filters, p.sortField, p.sortOrder]);
    const page = await rememberedAt(`page\u0000${listKey}\u0000${p.offset}\u0000${p.limit}`, version, async () => {
      const total = await listTotal(database, listKey, version, list);
      const anchor = await pageAnchor(database, listKey, version, p.offset, list);
      const l = list();
      const row = await listStatementRow<{ v: string; rows: JsonRecording[] }>(
        database,
        'lp',
        sql`${pageCtes(l, p, anchor)} SELECT ${versionOf('recordings')}::text AS v, ${rowsJson(l.descending)} AS rows`,
        l.plan,
      );
      // Exact only when the total, the anchor and the page were read at one version.
      if (String(row.v) !== total.version || (anchor && anchor.version !== total.version)) return null;
      return { rows: row.rows, total: total.total };
    });
    if (page) return { rows: page.rows.map(viewOf), total: page.total };
  }
  const l = list();
  const row = await runCounted<{ list_version: string | null; total: number | null; rows: JsonRecording[] | null }>(
    database,
    (known) =>
      sql`${pageCtes(l, p, undefined)}
        SELECT ${unlessUnchanged('recordings', rowsJson(l.descending), known, 'rows')},
          ${versionedCount('recordings', sql`SELECT count(*)::int ${l.from}`, known)}`,
    // Built once per CloudPBX, filters and page (the key names everything the statement depends on).
    JSON.stringify(['recordings', cloudPbxId, f, p]),
    version,
    l.plan,
  );
  return { rows: (row.rows ?? []).map(viewOf), total: row.total };
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
