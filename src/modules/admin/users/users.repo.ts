// SQL of users; every function takes the executor it runs on.
import { escapeLike } from '../../../db/like.ts';
import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { runCounted, unlessUnchanged, versionedCount } from '../../../db/list-count.ts';
import { jsonPageReader } from '../../../db/row-json.ts';
import { rowsInserter } from '../../../db/raw.ts';
import { textArrayLiteral } from '../../../db/literal.ts';
import { users } from './users.tables.ts';
import type { Paging } from '../../../http/paging.ts';
import type { USER_SORT_FIELDS } from './users.schemas.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export async function insertUser(exec: Executor, u: NewUser): Promise<UserRow> {
  const [row] = await exec.insert(users).values(u).returning();
  return row;
}

export async function findByLoginEmail(exec: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await exec
    .select()
    .from(users)
    .where(sql`lower(${users.loginEmail}) = lower(${email})`)
    .limit(1);
  return row;
}

export async function loginEmailTaken(exec: Executor, email: string, exceptId?: string): Promise<boolean> {
  const row = await findByLoginEmail(exec, email);
  return !!row && row.id !== exceptId;
}

export async function updateUserRow(exec: Executor, id: string, patch: Partial<NewUser>): Promise<UserRow> {
  const [row] = await exec.update(users).set(patch).where(eq(users.id, id)).returning();
  return row;
}

export async function deleteUserRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(users).where(eq(users.id, id));
}

export async function countSuperadmins(exec: Executor): Promise<number> {
  const [r] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(sql`'superadmin' = ANY(${users.roles})`);
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

/** The users of a page, read once per remembered page. */
const usersOfPage = jsonPageReader<UserRow>(users);

/**
 * A page of users and the number matching, in one prepared statement. The page and the count are
 * computed only when users or companies changed since this statement (with these values) was
 * last answered by this instance: the 'users' list version, moved in the writing transaction by
 * the triggers of migration 0020; with `version`, the one the authorising statement read, a page
 * remembered at it is answered with no statement at all (src/db/list-count.ts).
 */
export async function listUserRows(
  database: Database,
  scope: { where: SQL | undefined; key: string | undefined },
  f: UserFilters,
  p: Paging<(typeof USER_SORT_FIELDS)[number]>,
  version?: string,
): Promise<{ rows: UserRow[]; total: number }> {
  // Built once per scope, filters and page: the same request again skips the query builder.
  const buildKey = scope.key === undefined ? undefined : JSON.stringify(['users', scope.key, f, p]);
  const row = await runCounted<{
    list_version: string | null;
    total: number | null;
    rows: Record<string, unknown>[] | null;
  }>(
    database,
    (known) => {
      const conds: (SQL | undefined)[] = [scope.where];
      if (f.companyId) conds.push(eq(users.companyId, f.companyId));
      if (f.loginEmail) conds.push(sql`lower(${users.loginEmail}) = lower(${f.loginEmail})`);
      if (f.roles?.length) conds.push(sql`${users.roles} && ${sql.param(f.roles)}::text[]`);
      if (f.name) {
        const pat = `${escapeLike(f.name)}%`;
        conds.push(or(ilike(users.lastName, pat), ilike(users.firstName, pat)));
      }
      const where = and(...conds.filter((c): c is SQL => !!c)) ?? sql`TRUE`;
      const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
      const key = SORT_COLUMNS[p.sortField];
      return sql`WITH page AS (
        SELECT ${users}.*, ${key} AS k FROM ${users} WHERE ${where}
        ORDER BY ${key} ${dir}, ${users.id} ${dir} LIMIT ${p.limit} OFFSET ${p.offset})
      SELECT ${unlessUnchanged('users', sql`COALESCE((SELECT json_agg(to_jsonb(page) ORDER BY page.k ${dir}, page.id ${dir}) FROM page), '[]'::json)`, known, 'rows')},
        ${versionedCount('users', sql`SELECT count(*)::int FROM ${users} WHERE ${where}`, known)}`;
    },
    buildKey,
    version,
  );
  return { rows: usersOfPage(row.rows ?? []), total: row.total };
}

// ---------------------------------------------------------------------------------------------
// The CSV import's batches (issue 27): one statement per batch, whatever its number of lines.

/** The users signing in with these logins (lower case), whatever their company. */
export async function findByLogins(exec: Executor, logins: readonly string[]): Promise<UserRow[]> {
  if (logins.length === 0) return [];
  return exec
    .select()
    .from(users)
    .where(sql`lower(${users.loginEmail}) = ANY(${textArrayLiteral(logins)}::text[])`);
}

/** Inserts the users; a login taken meanwhile (another instance) is skipped: the ids of those inserted. */
const insertMany = rowsInserter(users, { skipConflicts: true, returning: 'id' });

/** Every row must give the same columns (rowsInserter). */
export async function insertUsers(exec: Executor, rows: NewUser[]): Promise<Set<string>> {
  return new Set((await insertMany(exec, rows)).map(String));
}

/**
 * Applies a patch per user in one statement: each patch names the columns it sets (null clears a
 * nullable one); the others keep their value.
 */
export async function patchUsers(exec: Executor, patches: readonly { id: string; patch: UserPatch }[]): Promise<void> {
  if (patches.length === 0) return;
  const json = JSON.stringify(patches.map((p) => ({ id: p.id, p: p.patch })));
  const set = (column: string, key: keyof UserPatch, cast = '') =>
    sql.raw(`${column} = CASE WHEN v.p ? '${key}' THEN (v.p->>'${key}')${cast} ELSE u.${column} END`);
  const setJson = (column: string, key: keyof UserPatch) =>
    sql.raw(`${column} = CASE WHEN v.p ? '${key}' THEN v.p->'${key}' ELSE u.${column} END`);
  await exec.execute(sql`UPDATE ${users} u SET
    ${set('first_name', 'firstName')}, ${set('last_name', 'lastName')}, ${set('nick_name', 'nickName')},
    ${set('title', 'title')}, ${set('job_title', 'jobTitle')}, ${set('department', 'department')},
    ${set('country', 'country')}, ${set('language', 'language')}, ${set('timezone', 'timezone')},
    ${setJson('emails', 'emails')}, ${setJson('phone_numbers', 'phoneNumbers')},
    ${set('password_hash', 'passwordHash')},
    ${set('selected_app_customisation_template', 'selectedAppCustomisationTemplate')},
    ${setJson('customisations', 'customisations')},
    last_update_date = (v.p->>'lastUpdateDate')::timestamptz
    FROM (SELECT e->>'id' AS id, e->'p' AS p FROM jsonb_array_elements(${json}::jsonb) e) v
    WHERE u.id = v.id`);
}

/** What a batch may change of a user (patchUsers). */
export type UserPatch = Partial<
  Pick<
    NewUser,
    | 'firstName'
    | 'lastName'
    | 'nickName'
    | 'title'
    | 'jobTitle'
    | 'department'
    | 'country'
    | 'language'
    | 'timezone'
    | 'emails'
    | 'phoneNumbers'
    | 'passwordHash'
    | 'selectedAppCustomisationTemplate'
    | 'customisations'
  >
> & { lastUpdateDate: Date };

export async function deleteUserRows(exec: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await exec.delete(users).where(sql`${users.id} = ANY(${sql.param(ids)}::text[])`);
}
