// SQL of sites.
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { sites } from './sites.tables.ts';
import type { Paging } from '../../../http/paging.ts';
import type { SITE_SORT_FIELDS } from './sites.schemas.ts';

export type SiteRow = typeof sites.$inferSelect;
export type NewSite = typeof sites.$inferInsert;

export async function insertSite(exec: Executor, s: NewSite): Promise<SiteRow> {
  const [row] = await exec.insert(sites).values(s).returning();
  return row;
}

export async function updateSiteRow(exec: Executor, id: string, patch: Partial<NewSite>): Promise<SiteRow | undefined> {
  const [row] = await exec.update(sites).set(patch).where(eq(sites.id, id)).returning();
  return row;
}

export async function deleteSiteRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(sites).where(eq(sites.id, id));
}

const SORT = {
  name: sites.name,
  creationDate: sites.creationDate,
  status: sites.status,
  statusUpdatedDate: sites.statusUpdatedDate,
};

export interface SiteFilters {
  companyId?: string;
  status?: string;
}

export async function listSiteRows(
  exec: Executor,
  scope: SQL | undefined,
  f: SiteFilters,
  p: Paging<(typeof SITE_SORT_FIELDS)[number]>,
): Promise<{ rows: SiteRow[]; total: number }> {
  const conds: (SQL | undefined)[] = [scope];
  if (f.companyId) conds.push(eq(sites.companyId, f.companyId));
  // Free text (an unknown status matches no site): compared as text, as eq() would write it.
  if (f.status) conds.push(sql`${sites.status} = ${f.status}`);
  const where = and(...conds.filter((c): c is SQL => !!c));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(sites)
      .where(where)
      .orderBy(dir(SORT[p.sortField]), dir(sites.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(sites)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
