// SQL of the CloudPBX settings (pbx_cloudpbxs). The system's columns are read through the systems
// module's face (systemColumnOf, systemsByIds).
import { and, asc, desc, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Paging } from '../../http/paging.ts';
import { systemColumnOf } from '../systems/systems.api.ts';
import { cloudPbxs } from './pbx.tables.ts';
import type { CLOUDPBX_SORT_FIELDS } from './pbx.schemas.ts';

export type CloudPbxRow = typeof cloudPbxs.$inferSelect;
export type NewCloudPbx = typeof cloudPbxs.$inferInsert;

export async function insertCloudPbx(exec: Executor, row: NewCloudPbx): Promise<CloudPbxRow> {
  const [r] = await exec.insert(cloudPbxs).values(row).returning();
  return r;
}

export async function updateCloudPbxRow(
  exec: Executor,
  id: string,
  patch: Partial<NewCloudPbx>,
): Promise<CloudPbxRow | undefined> {
  const [r] = await exec.update(cloudPbxs).set(patch).where(eq(cloudPbxs.id, id)).returning();
  return r;
}

/** The row locked until the transaction ends (an update or a delete at a time). */
export async function lockCloudPbx(exec: Executor, id: string): Promise<CloudPbxRow | undefined> {
  const [r] = await exec.select().from(cloudPbxs).where(eq(cloudPbxs.id, id)).for('update');
  return r;
}

/**
 * Claims the CloudPBX for its deletion: false when another delete holds a claim younger than
 * `staleBefore` (or the CloudPBX is gone).
 */
export async function claimDeletion(exec: Executor, id: string, now: Date, staleBefore: Date): Promise<boolean> {
  const rows = await exec
    .update(cloudPbxs)
    .set({ deletingSince: now })
    .where(and(eq(cloudPbxs.id, id), or(isNull(cloudPbxs.deletingSince), lt(cloudPbxs.deletingSince, staleBefore))))
    .returning({ id: cloudPbxs.id });
  return rows.length > 0;
}

/** A deletion that did not happen gives its claim back. */
export async function releaseDeletion(exec: Executor, id: string): Promise<void> {
  await exec.update(cloudPbxs).set({ deletingSince: null }).where(eq(cloudPbxs.id, id));
}

export async function deleteCloudPbxRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(cloudPbxs).where(eq(cloudPbxs.id, id));
}

export interface CloudPbxFilters {
  companyIds?: string[];
  bpId?: string;
}

const SORT = {
  companyId: systemColumnOf(cloudPbxs.id, 'companyId'),
  name: systemColumnOf(cloudPbxs.id, 'name'),
  pbxId: systemColumnOf(cloudPbxs.id, 'pbxId'),
  creationDate: systemColumnOf(cloudPbxs.id, 'creationDate'),
};

export async function listCloudPbxRows(
  exec: Executor,
  scope: SQL | undefined,
  f: CloudPbxFilters,
  p: Paging<(typeof CLOUDPBX_SORT_FIELDS)[number]>,
): Promise<{ rows: CloudPbxRow[]; total: number }> {
  const c: (SQL | undefined)[] = [scope];
  if (f.companyIds?.length) c.push(inArray(systemColumnOf(cloudPbxs.id, 'companyId'), f.companyIds));
  if (f.bpId) c.push(sql`${systemColumnOf(cloudPbxs.id, 'bpId')} = ${f.bpId}`);
  const where = and(...c.filter((x): x is SQL => !!x));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(cloudPbxs)
      .where(where)
      .orderBy(dir(SORT[p.sortField]), dir(cloudPbxs.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(cloudPbxs)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
