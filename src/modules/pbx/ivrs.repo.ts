// SQL of the welcomes and welcome services of a CloudPBX (pbx_ivrs, pbx_ivr_overflows; their DDI
// is the pbx_ddis row whose vcp_ivr_id names them). An answer's view (the welcome's name and time
// zone, the DDI, each overflow with its destination's names and number) is read in the statement
// that reads the row; the users' names through the users' face (userNamesOf).
import { and, asc, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { jsonRowReader } from '../../db/row-json.ts';
import type { Paging } from '../../http/paging.ts';
import { field, isRecord } from '../../shared/json-values.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { ddis } from './ddis.tables.ts';
import { groups } from './groups.tables.ts';
import { ivrOverflows } from './ivrs.overflows.tables.ts';
import { ivrs } from './ivrs.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import type { IvrSortField } from './ivrs.schemas.ts';

export type IvrRow = typeof ivrs.$inferSelect;
export type NewIvr = typeof ivrs.$inferInsert;
export type OverflowRow = typeof ivrOverflows.$inferSelect;

/** An overflow with what its answer reads of the destination. */
export interface OverflowView {
  hours: string;
  type: string;
  destinationId: string;
  /** Short number (subscriber, group) or E.164 (welcome service's DDI). */
  number: string | null;
  name: string | null;
  userId: string | null;
  userDisplayName: string | null;
}

/** A welcome or welcome service with what its answer reads elsewhere. */
export interface IvrView {
  row: IvrRow;
  welcome: { name: string; timezone: string | null } | null;
  ddi: { id: string; numberE164: string } | null;
  overflows: OverflowView[];
}

const readRow = jsonRowReader<IvrRow>(ivrs);

const str = (v: unknown, k: string): string | null => {
  const x = field(v, k);
  return typeof x === 'string' ? x : null;
};

function overflowOf(v: unknown): OverflowView {
  const user = field(v, 'user');
  return {
    hours: str(v, 'hours') ?? '',
    type: str(v, 'type') ?? '',
    destinationId: str(v, 'destinationId') ?? '',
    number: str(v, 'number'),
    name: str(v, 'name') ?? str(user, 'displayName'),
    userId: str(v, 'userId'),
    userDisplayName: str(user, 'displayName'),
  };
}

function viewOf(v: unknown): IvrView {
  const row = field(v, 'row');
  const welcome = field(v, 'welcome');
  const ddi = field(v, 'ddi');
  const overflows = field(v, 'overflows');
  return {
    row: readRow(isRecord(row) ? row : {}),
    welcome: isRecord(welcome) ? { name: str(welcome, 'name') ?? '', timezone: str(welcome, 'timezone') } : null,
    ddi: isRecord(ddi) ? { id: str(ddi, 'id') ?? '', numberE164: str(ddi, 'numberE164') ?? '' } : null,
    overflows: Array.isArray(overflows) ? overflows.map(overflowOf) : [],
  };
}

/** The E.164 number of the DDI of the welcome service whose id is the expression. */
const ddiNumberOf = (ivrId: SQL) =>
  sql`(SELECT d.number_e164 FROM ${ddis} d WHERE d.vcp_ivr_id = ${ivrId} ORDER BY d.id LIMIT 1)`;

/**
 * The view of the pbx_ivrs row `i` as one JSON value: the row, its welcome, its DDI, its
 * overflows (a destination's names and number: the subscriber's short number and user's names,
 * the group's name and short number, the welcome service's or welcome's name and DDI number).
 */
const VIEW = sql`json_build_object(
  'row', to_jsonb(i),
  'welcome', (SELECT json_build_object('name', w.name, 'timezone', w.timezone) FROM ${ivrs} w WHERE w.id = i.welcome_id),
  'ddi', (SELECT json_build_object('id', d.id, 'numberE164', d.number_e164) FROM ${ddis} d
          WHERE d.vcp_ivr_id = i.id ORDER BY d.id LIMIT 1),
  'overflows', COALESCE((SELECT json_agg(json_build_object(
      'hours', o.hours, 'type', o.type,
      'destinationId', COALESCE(o.target_subscriber_id, o.target_group_id, o.target_ivr_id),
      'number', COALESCE(s.short_number, g.short_number, ${ddiNumberOf(sql`x.id`)}),
      'name', COALESCE(g.name, x.name),
      'userId', s.user_id,
      'user', ${userNamesOf(sql`s.user_id`)}) ORDER BY o.hours)
    FROM ${ivrOverflows} o
    LEFT JOIN ${subscribers} s ON s.id = o.target_subscriber_id
    LEFT JOIN ${groups} g ON g.id = o.target_group_id
    LEFT JOIN ${ivrs} x ON x.id = o.target_ivr_id
    WHERE o.ivr_id = i.id), '[]'::json))`;

/** One welcome or welcome service of the CloudPBX as its answer shows it (undefined when gone). */
export async function readIvrView(exec: Executor, cloudPbxId: string, id: string): Promise<IvrView | undefined> {
  const result = await exec.execute(
    sql`SELECT ${VIEW} AS v FROM ${ivrs} i WHERE i.id = ${id} AND i.cloudpbx_id = ${cloudPbxId}`,
  );
  const [row] = rowsOf<{ v: unknown }>(result);
  return row ? viewOf(row.v) : undefined;
}

const SORT = { name: sql`i.name`, creationDate: sql`i.creation_date` } as const;

/** A page of the CloudPBX's welcomes or welcome services, and how many there are. */
export async function listIvrViews(
  exec: Executor,
  cloudPbxId: string,
  kind: 'welcome' | 'welcomeservice',
  p: Paging<IvrSortField>,
): Promise<{ rows: IvrView[]; total: number }> {
  const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
  const key = SORT[p.sortField];
  const result = await exec.execute(sql`SELECT ${VIEW} AS v FROM ${ivrs} i
    WHERE i.cloudpbx_id = ${cloudPbxId} AND i.kind = ${kind}
    ORDER BY ${key} ${dir}, i.id ${dir} LIMIT ${p.limit} OFFSET ${p.offset}`);
  const [n] = await exec
    .select({ n: count() })
    .from(ivrs)
    .where(and(eq(ivrs.cloudPbxId, cloudPbxId), eq(ivrs.kind, kind)));
  return { rows: rowsOf<{ v: unknown }>(result).map((r) => viewOf(r.v)), total: n?.n ?? 0 };
}

export async function insertIvr(exec: Executor, row: NewIvr): Promise<void> {
  await exec.insert(ivrs).values(row);
}

export async function updateIvr(exec: Executor, id: string, patch: Partial<NewIvr>): Promise<void> {
  await exec.update(ivrs).set(patch).where(eq(ivrs.id, id));
}

export async function deleteIvrRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(ivrs).where(eq(ivrs.id, id));
}

/** The welcome or welcome service of that id in that CloudPBX, locked until the transaction ends. */
export async function lockIvr(exec: Executor, cloudPbxId: string, id: string): Promise<IvrRow | undefined> {
  const [r] = await exec
    .select()
    .from(ivrs)
    .where(and(eq(ivrs.id, id), eq(ivrs.cloudPbxId, cloudPbxId)))
    .for('update');
  return r;
}

/** The select of a welcome or welcome service of that kind in the CloudPBX. */
const ivrOfKind = (exec: Executor, cloudPbxId: string, id: string, kind: 'welcome' | 'welcomeservice') =>
  exec
    .select()
    .from(ivrs)
    .where(and(eq(ivrs.id, id), eq(ivrs.cloudPbxId, cloudPbxId), eq(ivrs.kind, kind)));

/**
 * A welcome or welcome service of that kind in the CloudPBX, key-share locked (a concurrent
 * delete of it waits for this transaction, which then references it safely).
 */
export async function holdIvr(
  exec: Executor,
  cloudPbxId: string,
  id: string,
  kind: 'welcome' | 'welcomeservice',
): Promise<IvrRow | undefined> {
  const [r] = await ivrOfKind(exec, cloudPbxId, id, kind).for('key share');
  return r;
}

/** A subscriber of the CloudPBX, key-share locked. */
export async function holdSubscriber(exec: Executor, cloudPbxId: string, id: string): Promise<boolean> {
  const [r] = await exec
    .select({ id: subscribers.id })
    .from(subscribers)
    .where(and(eq(subscribers.id, id), eq(subscribers.cloudPbxId, cloudPbxId)))
    .for('key share');
  return !!r;
}

/** A hunting group of the CloudPBX, key-share locked. */
export async function holdHuntingGroup(exec: Executor, cloudPbxId: string, id: string): Promise<boolean> {
  const [r] = await exec
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.id, id), eq(groups.cloudPbxId, cloudPbxId), eq(groups.type, 'hunting_group')))
    .for('key share');
  return !!r;
}

/** A welcome or welcome service of that kind in the CloudPBX (a read: no lock). */
export async function readIvrRow(
  exec: Executor,
  cloudPbxId: string,
  id: string,
  kind: 'welcome' | 'welcomeservice',
): Promise<IvrRow | undefined> {
  const [r] = await ivrOfKind(exec, cloudPbxId, id, kind);
  return r;
}

/** The oldest welcome (or welcome service) of the CloudPBX. */
export async function oldestOfKind(exec: Executor, cloudPbxId: string, kind: string): Promise<IvrRow | undefined> {
  const [r] = await exec
    .select()
    .from(ivrs)
    .where(and(eq(ivrs.cloudPbxId, cloudPbxId), eq(ivrs.kind, kind)))
    .orderBy(asc(ivrs.creationDate), asc(ivrs.id))
    .limit(1);
  return r;
}

/** Whether the CloudPBX has a default of that kind. */
export async function hasDefaultOfKind(exec: Executor, cloudPbxId: string, kind: string): Promise<boolean> {
  const [r] = await exec
    .select({ id: ivrs.id })
    .from(ivrs)
    .where(and(eq(ivrs.cloudPbxId, cloudPbxId), eq(ivrs.kind, kind), eq(ivrs.isDefaultIvr, true)))
    .limit(1);
  return !!r;
}

/** The welcome services using the welcome (its welcomeId). */
export async function servicesOfWelcome(exec: Executor, welcomeId: string): Promise<string[]> {
  const rows = await exec
    .select({ id: ivrs.id })
    .from(ivrs)
    .where(eq(ivrs.welcomeId, welcomeId))
    .orderBy(desc(ivrs.creationDate))
    .limit(20);
  return rows.map((r) => r.id);
}

/** The overflow of the service for those hours: replaced, or removed (null). */
export async function setOverflow(
  exec: Executor,
  ivrId: string,
  hours: 'open' | 'closed',
  o: Omit<OverflowRow, 'ivrId' | 'hours'> | null,
): Promise<void> {
  await exec.delete(ivrOverflows).where(and(eq(ivrOverflows.ivrId, ivrId), eq(ivrOverflows.hours, hours)));
  if (o) await exec.insert(ivrOverflows).values({ ivrId, hours, ...o });
}

/** The DDIs whose vcpIVRId names the welcome service (at most one, kept so by the service), locked. */
export async function lockDdisOfIvr(exec: Executor, ivrId: string) {
  return exec.select().from(ddis).where(eq(ddis.vcpIvrId, ivrId)).for('update');
}

/** The DDI of the CloudPBX, locked. */
export async function lockDdiOf(exec: Executor, cloudPbxId: string, id: string) {
  const [r] = await exec
    .select()
    .from(ddis)
    .where(and(eq(ddis.id, id), eq(ddis.cloudPbxId, cloudPbxId)))
    .for('update');
  return r;
}

/** Sets or clears the welcome service a DDI is the external number of. */
export async function setDdiIvr(exec: Executor, ddiId: string, ivrId: string | null): Promise<void> {
  await exec.update(ddis).set({ vcpIvrId: ivrId }).where(eq(ddis.id, ddiId));
}

/** The other DDIs of the service than `keep` (dissociated when another becomes its number). */
export async function otherDdisOfIvr(exec: Executor, ivrId: string, keep: string) {
  return exec
    .select()
    .from(ddis)
    .where(and(eq(ddis.vcpIvrId, ivrId), ne(ddis.id, keep)))
    .for('update');
}
