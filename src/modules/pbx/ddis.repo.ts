// SQL of the DDI numbers of a CloudPBX (pbx_ddis). The user's names and the system's pbxId are
// read through the users' and systems' faces (userNamesOf, systemColumnOf), in the same statement.
import { and, count, eq, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { runCounted, unlessUnchanged, versionedCount } from '../../db/list-count.ts';
import { rowsOf } from '../../db/raw.ts';
import { jsonRowReader } from '../../db/row-json.ts';
import type { Paging } from '../../http/paging.ts';
import { field, isRecord } from '../../shared/json-values.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { systemColumnOf } from '../systems/systems.api.ts';
import { ddis } from './ddis.tables.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import { ivrs } from './ivrs.tables.ts';
import type { DdiSortField } from './ddis.schemas.ts';

export type DdiRow = typeof ddis.$inferSelect;
export type NewDdi = typeof ddis.$inferInsert;

/** The names of the user a DDI is assigned to (users' face). */
export interface DdiUserNames {
  firstName: string;
  lastName: string;
  displayName: string;
}

/** A DDI with what its answer reads elsewhere: its PBX's pbxId and trunk, its user's names. */
export interface DdiView {
  row: DdiRow;
  /** The name of the welcome service it is the external number of (issue 26, point 6). */
  welcomeName: string | null;
  pbxId: string;
  externalTrunkId: string | null;
  user: DdiUserNames | null;
}

const readRow = jsonRowReader<DdiRow>(ddis);

function namesOf(v: unknown): DdiUserNames | null {
  if (!isRecord(v)) return null;
  const text = (k: string) => {
    const x = field(v, k);
    return typeof x === 'string' ? x : '';
  };
  return { firstName: text('firstName'), lastName: text('lastName'), displayName: text('displayName') };
}

/** What a DDI's answer reads of its CloudPBX: its system's pbxId, its trunk. */
interface PbxInfo {
  pbxId: string;
  externalTrunkId: string | null;
}

function pbxInfoOf(v: unknown): PbxInfo {
  const pbxId = field(v, 'pbxId');
  const trunk = field(v, 'externalTrunkId');
  return { pbxId: typeof pbxId === 'string' ? pbxId : '', externalTrunkId: typeof trunk === 'string' ? trunk : null };
}

function viewOf(row: unknown, user: unknown, welcome: unknown, pbx: PbxInfo): DdiView {
  return {
    row: readRow(isRecord(row) ? row : {}),
    ...pbx,
    user: namesOf(user),
    welcomeName: typeof welcome === 'string' ? welcome : null,
  };
}

/** The name of the welcome service whose external number the DDI `ddi` (an alias) is. */
const welcomeNameOf = (ddi: string) =>
  sql`(SELECT ${ivrs.name} FROM ${ivrs} WHERE ${ivrs.id} = ${sql.raw(ddi)}.vcp_ivr_id)`;

/** The CloudPBX's pbxId (its system's, through the systems' face) and trunk, as one JSON value: read once per statement. */
const pbxInfo = (cloudPbxId: string) =>
  sql`(SELECT json_build_object('pbxId', ${systemColumnOf(cloudPbxs.id, 'pbxId')}, 'externalTrunkId', ${cloudPbxs.externalTrunkId})
    FROM ${cloudPbxs} WHERE ${cloudPbxs.id} = ${cloudPbxId})`;

/** Document 2, list DDIs: the filters (booleans). */
export interface DdiFilters {
  isAssignedToUser?: boolean;
  isAssignedToGroup?: boolean;
  isAssignedToIVR?: boolean;
  isAssignedToAutoAttendant?: boolean;
  isAssigned?: boolean;
}

const ASSIGNEES = {
  isAssignedToUser: ddis.userId,
  isAssignedToGroup: ddis.vcpGroupId,
  isAssignedToIVR: ddis.vcpIvrId,
  isAssignedToAutoAttendant: ddis.vcpAutoAttendantId,
} as const;

const SORT = { number: ddis.number, numberE164: ddis.numberE164, creationDate: ddis.creationDate } as const;

function filterWhere(cloudPbxId: string, f: DdiFilters): SQL {
  const c: (SQL | undefined)[] = [eq(ddis.cloudPbxId, cloudPbxId)];
  for (const k of ['isAssignedToUser', 'isAssignedToGroup', 'isAssignedToIVR', 'isAssignedToAutoAttendant'] as const) {
    const v = f[k];
    if (v !== undefined) c.push(v ? isNotNull(ASSIGNEES[k]) : isNull(ASSIGNEES[k]));
  }
  if (f.isAssigned !== undefined) {
    const cols = Object.values(ASSIGNEES);
    c.push(f.isAssigned ? or(...cols.map((x) => isNotNull(x))) : and(...cols.map((x) => isNull(x))));
  }
  return and(...c.filter((x): x is SQL => !!x)) ?? sql`TRUE`;
}

/** The views of a remembered page, made once per page (the same array comes back while the version stands). */
const viewsOfPage = new WeakMap<object, DdiView[]>();

/**
 * A page of the DDIs of a CloudPBX and the number matching, in one prepared statement remembered
 * with the 'pbx' list version (src/db/list-count.ts; migration 0028): while nothing of the PBX's
 * tables, users or systems was written, the same request is answered from memory. When computed,
 * the page walks the index pbx_ddis_pbx_number_idx (cloudpbx_id, number) in order and stops at the
 * page's end; the user's names are read for the page's rows only (after its LIMIT, whatever the
 * offset), the PBX's pbxId and trunk once; the count is an InitPlan over the same CloudPBX's rows.
 */
export async function listDdiRows(
  database: Database,
  cloudPbxId: string,
  f: DdiFilters,
  p: Paging<DdiSortField>,
  version: string | undefined,
): Promise<{ rows: DdiView[]; total: number }> {
  const row = await runCounted<{ list_version: string | null; total: number | null; pbx: unknown; rows: unknown }>(
    database,
    (known) => {
      const where = filterWhere(cloudPbxId, f);
      const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
      const key = SORT[p.sortField];
      const rows = sql`COALESCE((SELECT json_agg(json_build_object('row', to_jsonb(page), 'user', ${userNamesOf(sql`page.user_id`)}, 'welcome', ${welcomeNameOf('page')})
        ORDER BY page.k ${dir}, page.id ${dir}) FROM page), '[]'::json)`;
      // The page's ids first (the sort carries the key and the id, not whole rows), its rows after.
      return sql`WITH ids AS (
          SELECT ${ddis.id} AS id, ${key} AS k FROM ${ddis} WHERE ${where}
          ORDER BY ${key} ${dir}, ${ddis.id} ${dir} LIMIT ${p.limit} OFFSET ${p.offset}),
        page AS (SELECT ${ddis}.*, ids.k FROM ids JOIN ${ddis} ON ${ddis.id} = ids.id)
        SELECT ${unlessUnchanged('pbx', pbxInfo(cloudPbxId), known, 'pbx')}, ${unlessUnchanged('pbx', rows, known, 'rows')},
          ${versionedCount('pbx', sql`SELECT count(*)::int FROM ${ddis} WHERE ${where}`, known)}`;
    },
    JSON.stringify(['pbx_ddis', cloudPbxId, f, p]),
    version,
  );
  const page = Array.isArray(row.rows) ? row.rows : [];
  let views = viewsOfPage.get(page);
  if (!views) {
    const pbx = pbxInfoOf(row.pbx);
    views = page.map((r) => viewOf(field(r, 'row'), field(r, 'user'), field(r, 'welcome'), pbx));
    viewsOfPage.set(page, views);
  }
  return { rows: views, total: row.total };
}

/** One DDI of the CloudPBX as its answer shows it (undefined when gone). */
export async function readDdiView(exec: Executor, cloudPbxId: string, id: string): Promise<DdiView | undefined> {
  const result = await exec.execute(
    sql`SELECT to_jsonb(d) AS row, ${userNamesOf(sql`d.user_id`)} AS user, ${welcomeNameOf('d')} AS welcome,
        ${pbxInfo(cloudPbxId)} AS pbx
      FROM ${ddis} d WHERE d.id = ${id} AND d.cloudpbx_id = ${cloudPbxId}`,
  );
  const [row] = rowsOf<{ row: unknown; user: unknown; welcome: unknown; pbx: unknown }>(result);
  return row ? viewOf(row.row, row.user, row.welcome, pbxInfoOf(row.pbx)) : undefined;
}

export async function insertDdi(exec: Executor, row: NewDdi): Promise<void> {
  await exec.insert(ddis).values(row);
}

/** The DDI of that id in that CloudPBX, locked until the transaction ends. */
export async function lockDdi(exec: Executor, cloudPbxId: string, id: string): Promise<DdiRow | undefined> {
  const [r] = await exec
    .select()
    .from(ddis)
    .where(and(eq(ddis.id, id), eq(ddis.cloudPbxId, cloudPbxId)))
    .for('update');
  return r;
}

export async function ddiWithNumber(exec: Executor, numberE164: string): Promise<{ id: string } | undefined> {
  const [r] = await exec.select({ id: ddis.id }).from(ddis).where(eq(ddis.numberE164, numberE164));
  return r;
}

export async function countDdis(exec: Executor, cloudPbxId: string): Promise<number> {
  const [r] = await exec.select({ n: count() }).from(ddis).where(eq(ddis.cloudPbxId, cloudPbxId));
  return r?.n ?? 0;
}

/** The default DDI of the CloudPBX (the partial unique index pbx_ddis_default_uq keeps it one). */
export async function defaultDdi(exec: Executor, cloudPbxId: string): Promise<DdiRow | undefined> {
  const [r] = await exec
    .select()
    .from(ddis)
    .where(and(eq(ddis.cloudPbxId, cloudPbxId), eq(ddis.isCloudPbxDefault, true)));
  return r;
}

/** Whether the user holds another DDI of the CloudPBX than `exceptId`. */
export async function userHasOtherDdi(
  exec: Executor,
  cloudPbxId: string,
  userId: string,
  exceptId: string,
): Promise<boolean> {
  const [r] = await exec
    .select({ id: ddis.id })
    .from(ddis)
    .where(and(eq(ddis.cloudPbxId, cloudPbxId), eq(ddis.userId, userId), ne(ddis.id, exceptId)))
    .limit(1);
  return !!r;
}

export async function updateDdi(exec: Executor, id: string, patch: Partial<NewDdi>): Promise<void> {
  await exec.update(ddis).set(patch).where(eq(ddis.id, id));
}

export async function deleteDdiRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(ddis).where(eq(ddis.id, id));
}

/** Whether the user is a subscriber of the CloudPBX (pbx_subscribers). */
export async function isSubscriberOf(exec: Executor, cloudPbxId: string, userId: string): Promise<boolean> {
  const [r] = await exec
    .select({ id: subscribers.id })
    .from(subscribers)
    .where(and(eq(subscribers.userId, userId), eq(subscribers.cloudPbxId, cloudPbxId)))
    .limit(1);
  return !!r;
}

/** Whether the error is the violation of that unique index (a statement that lost a race). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  // Drizzle wraps the driver's error: the SQLSTATE sits on the error or its cause.
  for (let e: unknown = err, depth = 0; e && depth < 3; e = field(e, 'cause'), depth++)
    if (field(e, 'code') === '23505') return field(e, 'constraint') === constraint;
  return false;
}
