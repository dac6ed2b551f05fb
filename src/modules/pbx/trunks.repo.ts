// SQL of the external trunks (pbx_external_trunks) and of their links (pbx_cloudpbxs.external_trunk_id).
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Paging } from '../../http/paging.ts';
import { externalTrunks } from './trunks.tables.ts';
import { cloudPbxs } from './pbx.tables.ts';
import type { TRUNK_SORT_FIELDS } from './trunks.schemas.ts';

export type TrunkRow = typeof externalTrunks.$inferSelect;
export type NewTrunk = typeof externalTrunks.$inferInsert;

export async function insertTrunk(exec: Executor, row: NewTrunk): Promise<TrunkRow> {
  const [r] = await exec.insert(externalTrunks).values(row).returning();
  return r;
}

/** The trunk, locked until the transaction ends (its update, its deletion). */
export async function lockTrunk(exec: Executor, id: string): Promise<TrunkRow | undefined> {
  const [r] = await exec.select().from(externalTrunks).where(eq(externalTrunks.id, id)).for('update');
  return r;
}

/** The trunk; with `share`, locked FOR SHARE until the transaction ends (a CloudPBX links it). */
export async function readTrunk(exec: Executor, id: string, share: boolean): Promise<TrunkRow | undefined> {
  const q = exec.select().from(externalTrunks).where(eq(externalTrunks.id, id));
  const [r] = share ? await q.for('share') : await q;
  return r;
}

export async function updateTrunkRow(exec: Executor, id: string, patch: Partial<NewTrunk>): Promise<TrunkRow> {
  const [r] = await exec.update(externalTrunks).set(patch).where(eq(externalTrunks.id, id)).returning();
  return r;
}

export async function deleteTrunkRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(externalTrunks).where(eq(externalTrunks.id, id));
}

/** How many CloudPBXs link the trunk. */
export async function countLinkedCloudPbxs(exec: Executor, id: string): Promise<number> {
  const [r] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(cloudPbxs)
    .where(eq(cloudPbxs.externalTrunkId, id));
  return r?.n ?? 0;
}

/** A feature the trunk no longer has: the CloudPBXs linking it leave the setting that needs it. */
export async function resetLinkedCallForking(exec: Executor, id: string): Promise<void> {
  await exec
    .update(cloudPbxs)
    .set({ callForkingToPstnNumber: 'not_available' })
    .where(eq(cloudPbxs.externalTrunkId, id));
}

export async function resetLinkedRouteInternalCalls(exec: Executor, id: string): Promise<void> {
  await exec.update(cloudPbxs).set({ routeInternalCallsToPeer: false }).where(eq(cloudPbxs.externalTrunkId, id));
}

export interface TrunkFilters {
  vcpInstanceId?: string;
  status?: string;
  trunkType?: string;
  bpId?: string;
}

const SORT = {
  name: externalTrunks.name,
  creationDate: externalTrunks.creationDate,
  status: externalTrunks.status,
  trunkType: externalTrunks.trunkType,
  vcpInstanceId: externalTrunks.vcpInstanceId,
};

export async function listTrunkRows(
  exec: Executor,
  scope: SQL | undefined,
  f: TrunkFilters,
  p: Paging<(typeof TRUNK_SORT_FIELDS)[number]>,
): Promise<{ rows: TrunkRow[]; total: number }> {
  const c: (SQL | undefined)[] = [scope];
  if (f.vcpInstanceId !== undefined) c.push(eq(externalTrunks.vcpInstanceId, f.vcpInstanceId));
  if (f.status !== undefined) c.push(eq(externalTrunks.status, f.status));
  if (f.trunkType !== undefined) c.push(eq(externalTrunks.trunkType, f.trunkType));
  if (f.bpId !== undefined) c.push(sql`${f.bpId}::text = ANY(${externalTrunks.bpIds})`);
  const where = and(...c.filter((x): x is SQL => !!x));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(externalTrunks)
      .where(where)
      .orderBy(dir(SORT[p.sortField]), dir(externalTrunks.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(externalTrunks)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
