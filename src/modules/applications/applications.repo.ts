// SQL of applications.
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { applications } from './applications.tables.ts';
import type { Paging } from '../../http/paging.ts';
import type { APP_SORT_FIELDS } from './applications.schemas.ts';

export type ApplicationRow = typeof applications.$inferSelect;
export type NewApplication = typeof applications.$inferInsert;

export async function insertApplication(exec: Executor, a: NewApplication): Promise<ApplicationRow> {
  const [row] = await exec.insert(applications).values(a).returning();
  return row;
}

export async function updateApplicationRow(
  exec: Executor,
  id: string,
  patch: Partial<NewApplication>,
): Promise<ApplicationRow> {
  const [row] = await exec.update(applications).set(patch).where(eq(applications.id, id)).returning();
  return row;
}

export async function deleteApplicationRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(applications).where(eq(applications.id, id));
}

export async function listApplicationRows(
  exec: Executor,
  scope: SQL | undefined,
  p: Paging<(typeof APP_SORT_FIELDS)[number]>,
): Promise<{ rows: ApplicationRow[]; total: number }> {
  const col = p.sortField === 'name' ? applications.name : applications.creationDate;
  const dir = p.sortOrder === 1 ? asc : desc;
  const where = and(scope);
  const [rows, [count]] = await Promise.all([
    exec
      .select()
      .from(applications)
      .where(where)
      .orderBy(dir(col), dir(applications.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(applications)
      .where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

export async function findActiveApplicationRow(exec: Executor, id: string): Promise<ApplicationRow | undefined> {
  const [app] = await exec
    .select()
    .from(applications)
    .where(and(eq(applications.id, id), eq(applications.isActive, true)));
  return app;
}

export async function activeApplicationWithKeyHash(exec: Executor, apiKeyHash: string): Promise<boolean> {
  const rows = await exec
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.apiKeyHash, apiKeyHash), eq(applications.isActive, true)))
    .limit(1);
  return rows.length > 0;
}
