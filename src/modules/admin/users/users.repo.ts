// SQL of users; every function takes the executor it runs on.
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { companies, sites, users } from '../../../db/schema.ts';
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

/** The organisation of each company: a user's organisationId is his company's (document 3). */
export async function organisationsOf(exec: Executor, companyIds: readonly string[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(companyIds)];
  if (ids.length === 0) return new Map();
  const rows = await exec.select({ id: companies.id, organisationId: companies.organisationId }).from(companies).where(inArray(companies.id, ids));
  return new Map(rows.map((r) => [r.id, r.organisationId]));
}

/** The organisation of one company, as a named prepared statement: getUser reads it on its hot path. */
export async function organisationOfCompany(database: Database, companyId: string): Promise<string | null> {
  const rows = await database.prepared<{ organisation_id: string | null }>('company_organisation', 'SELECT organisation_id FROM companies WHERE id = $1', [companyId]);
  return rows[0]?.organisation_id ?? null;
}

export async function countSuperadmins(exec: Executor): Promise<number> {
  const [r] = await exec.select({ n: sql<number>`count(*)::int` }).from(users).where(sql`'superadmin' = ANY(${users.roles})`);
  return r?.n ?? 0;
}

export async function siteBelongsTo(exec: Executor, siteId: string, companyId: string): Promise<boolean> {
  const rows = await exec.select({ id: sites.id }).from(sites).where(and(eq(sites.id, siteId), eq(sites.companyId, companyId))).limit(1);
  return rows.length > 0;
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

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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
