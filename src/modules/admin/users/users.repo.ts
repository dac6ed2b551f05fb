// SQL of users; every function takes the executor it runs on.
import { escapeLike } from '../../../db/like.ts';
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { users } from './users.tables.ts';
import type { Paging } from '../../../http/paging.ts';
import type { USER_SORT_FIELDS } from './users.schemas.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export async function insertUser(exec: Executor, u: NewUser): Promise<UserRow> {
  const [row] = await exec.insert(users).values(u).returning();
  return row!;
}

export async function findByLoginEmail(exec: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await exec.select().from(users).where(sql`lower(${users.loginEmail}) = lower(${email})`).limit(1);
  return row;
}

export async function loginEmailTaken(exec: Executor, email: string, exceptId?: string): Promise<boolean> {
  const row = await findByLoginEmail(exec, email);
  return !!row && row.id !== exceptId;
}

export async function updateUserRow(exec: Executor, id: string, patch: Partial<NewUser>): Promise<UserRow> {
  const [row] = await exec.update(users).set(patch).where(eq(users.id, id)).returning();
  return row!;
}

export async function deleteUserRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(users).where(eq(users.id, id));
}

export async function countSuperadmins(exec: Executor): Promise<number> {
  const [r] = await exec.select({ n: sql<number>`count(*)::int` }).from(users).where(sql`'superadmin' = ANY(${users.roles})`);
  return r?.n ?? 0;
}

export interface UserFilters {
  companyId?: string;
  loginEmail?: string;
  roles?: string[];
  name?: string;
}

const SORT_COLUMNS = {
  lastName: users.lastName,
  firstName: users.firstName,
  loginEmail: users.loginEmail,
  creationDate: users.creationDate,
};

export async function listUserRows(
  exec: Executor,
  scope: SQL | undefined,
  f: UserFilters,
  p: Paging<(typeof USER_SORT_FIELDS)[number]>,
): Promise<{ rows: UserRow[]; total: number }> {
  const conds: (SQL | undefined)[] = [scope];
  if (f.companyId) conds.push(eq(users.companyId, f.companyId));
  if (f.loginEmail) conds.push(sql`lower(${users.loginEmail}) = lower(${f.loginEmail})`);
  if (f.roles?.length) conds.push(sql`${users.roles} && ${sql.param(f.roles)}::text[]`);
  if (f.name) {
    const pat = `${escapeLike(f.name)}%`;
    conds.push(or(ilike(users.lastName, pat), ilike(users.firstName, pat)));
  }
  const where = and(...conds.filter((c): c is SQL => !!c));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec.select().from(users).where(where).orderBy(dir(SORT_COLUMNS[p.sortField]), dir(users.id)).limit(p.limit).offset(p.offset),
    exec.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
