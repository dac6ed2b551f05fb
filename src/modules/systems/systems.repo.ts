// SQL of telephone systems.
import { and, asc, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import type { Paging } from '../../http/paging.ts';
import { systems } from './systems.tables.ts';
import type { SYSTEM_SORT_FIELDS, SystemStatus, SystemType } from './systems.schemas.ts';

export type SystemRow = typeof systems.$inferSelect;
export type NewSystem = typeof systems.$inferInsert;

export async function insertSystem(exec: Executor, s: NewSystem): Promise<SystemRow> {
  const [row] = await exec.insert(systems).values(s).returning();
  return row;
}

export async function updateSystemRow(
  exec: Executor,
  id: string,
  patch: Partial<NewSystem>,
): Promise<SystemRow | undefined> {
  const [row] = await exec.update(systems).set(patch).where(eq(systems.id, id)).returning();
  return row;
}

export async function deleteSystemRow(exec: Executor, id: string): Promise<void> {
  // Its phone numbers go with it (ON DELETE CASCADE): the users linked to them are unlinked.
  await exec.delete(systems).where(eq(systems.id, id));
}

/** The system locked for a change of its links (two links at once must not lose one). */
export async function lockSystem(exec: Executor, id: string): Promise<SystemRow | undefined> {
  const [row] = await exec.select().from(systems).where(eq(systems.id, id)).for('update');
  return row;
}

/** Sets the linked sites and the first of them (the site its phone numbers' relations read too). */
export async function setSystemSites(exec: Executor, id: string, siteIds: string[]): Promise<SystemRow> {
  const siteId = siteIds[0] ?? null;
  const [row] = await exec.update(systems).set({ siteIds, siteId }).where(eq(systems.id, id)).returning();
  return row;
}

export async function countSystemsOfSite(exec: Executor, siteId: string): Promise<number> {
  const [r] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(systems)
    .where(sql`${siteId} = ANY(${systems.siteIds})`);
  return r?.n ?? 0;
}

/** The systems linked to a site, other than `exceptId`. */
export async function systemsOfSite(exec: Executor, siteId: string, exceptId: string): Promise<SystemRow[]> {
  return exec
    .select()
    .from(systems)
    .where(and(sql`${siteId} = ANY(${systems.siteIds})`, sql`${systems.id} <> ${exceptId}`));
}

const SORT = {
  pbxId: systems.pbxId,
  name: systems.name,
  type: systems.type,
  status: systems.status,
  creationDate: systems.creationDate,
};

export interface SystemFilters {
  siteId?: string;
  name?: string;
  type?: SystemType;
  status?: SystemStatus;
  companyId?: string;
  bpId?: string;
  isShared?: boolean;
  isCentrex?: boolean;
  isSharedOrCentrex?: boolean;
  isOxoManaged?: boolean;
  fromCreationDate?: string;
  toCreationDate?: string;
}

export async function listSystemRows(
  exec: Executor,
  scope: SQL | undefined,
  f: SystemFilters,
  p: Paging<(typeof SYSTEM_SORT_FIELDS)[number]>,
): Promise<{ rows: SystemRow[]; total: number }> {
  const c: (SQL | undefined)[] = [scope];
  if (f.siteId) c.push(sql`${f.siteId} = ANY(${systems.siteIds})`);
  if (f.name) c.push(ilike(systems.name, `${escapeLike(f.name)}%`));
  if (f.type) c.push(eq(systems.type, f.type));
  if (f.status) c.push(eq(systems.status, f.status));
  if (f.companyId) c.push(eq(systems.companyId, f.companyId));
  if (f.bpId) c.push(eq(systems.bpId, f.bpId));
  if (f.isShared !== undefined) c.push(eq(systems.isShared, f.isShared));
  if (f.isCentrex !== undefined) c.push(eq(systems.isCentrex, f.isCentrex));
  if (f.isSharedOrCentrex !== undefined) {
    const either = or(eq(systems.isShared, true), eq(systems.isCentrex, true))!;
    c.push(f.isSharedOrCentrex ? either : sql`NOT (${either})`);
  }
  if (f.isOxoManaged !== undefined) c.push(eq(systems.isOxoManaged, f.isOxoManaged));
  if (f.fromCreationDate) c.push(gte(systems.creationDate, new Date(f.fromCreationDate)));
  if (f.toCreationDate) c.push(lte(systems.creationDate, new Date(f.toCreationDate)));
  const where = and(...c.filter((x): x is SQL => !!x));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(systems)
      .where(where)
      .orderBy(dir(SORT[p.sortField]), dir(systems.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(systems)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
