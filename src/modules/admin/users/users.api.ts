// The face of the users module (docs/architecture.md, "Modules"): all that other modules use of
// users. Their files import this one, never the module's repository, service or tables (a
// `*.tables.ts` may import users.tables.ts for a foreign key); the SQL fragments here are the
// only SQL outside this module that reads the users table.
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../db/client.ts';
import type { Paging } from '../../../http/paging.ts';
import { ADMIN_ROLES, type Role } from '../../../authz/roles.ts';
import { users } from './users.tables.ts';
import type { UserRow as UserRecord } from './users.repo.ts';

export { User, USER_FORMATS } from './users.schemas.ts';
export {
  toApiUser,
  normaliseRoles,
  findUserByLoginEmail,
  loginEmailTaken,
  createArrivingUser,
  findUsersByLogins,
  createUsersTogether,
  patchUsersTogether,
  deleteUsersTogether,
  type UserRow,
} from './users.service.ts';
export type { NewUser, UserPatch } from './users.repo.ts';
export type { UserEmail, UserPhoneNumber } from './users.schemas.ts';
export { userArrived, usersArrived, passwordChanged, companyIsBP, companyOrganisationShared } from './users.hooks.ts';
// The operations another module runs as commands (the bulk import: src/http/run-command.ts).
export { createUser, updateUser, deleteUser } from './users.operations.ts';

const textArray = (values: string[]) => sql`${sql.param(values)}::text[]`;

// ---------------------------------------------------------------------------------------------
// For companies: a company's users and administrators (document 3, Companies).

/** The number of users of the company row `t`, as an extra of an authorising statement. */
export const USERS_OF_COMPANY_COUNT = sql`(SELECT count(*)::int FROM users u WHERE u.company_id = t.id)`;

export async function userCounts(exec: Executor, companyIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (companyIds.length === 0) return out;
  const rows = await exec
    .select({ companyId: users.companyId, n: sql<number>`count(*)::int` })
    .from(users)
    .where(inArray(users.companyId, companyIds))
    .groupBy(users.companyId);
  for (const r of rows) out.set(r.companyId, r.n);
  return out;
}

const ADMIN_ROLE_LIST = ADMIN_ROLES.filter((r) => r !== 'support' && r !== 'business_admin');

export type AdministratorSortField = 'displayName' | 'loginEmail' | 'lastName' | 'firstName';

const displayName = sql`trim(${users.firstName} || ' ' || ${users.lastName})`;
const ADMIN_SORT: Record<AdministratorSortField, SQL | AnyPgColumn> = {
  displayName: sql`lower(${displayName})`,
  loginEmail: sql`lower(${users.loginEmail})`,
  lastName: sql`lower(${users.lastName})`,
  firstName: sql`lower(${users.firstName})`,
};

/** The administrators of a company, a page of them and their count. */
export async function listAdministrators(
  exec: Executor,
  company: { id: string; name: string },
  p: Paging<AdministratorSortField>,
) {
  const where = and(eq(users.companyId, company.id), sql`${users.roles} && ${textArray([...ADMIN_ROLE_LIST])}`);
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select({
        id: users.id,
        loginEmail: users.loginEmail,
        firstName: users.firstName,
        lastName: users.lastName,
        displayName: sql<string>`${displayName}`,
        isTerminated: users.isTerminated,
      })
      .from(users)
      .where(where)
      .orderBy(dir(ADMIN_SORT[p.sortField]), dir(users.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, companyId: company.id, companyName: company.name })),
    total: count[0]?.n ?? 0,
  };
}

export async function moveUserToCompany(
  exec: Executor,
  userId: string,
  companyId: string,
  roles: Role[],
  now: Date,
): Promise<void> {
  await exec.update(users).set({ companyId, roles, siteId: null, lastUpdateDate: now }).where(eq(users.id, userId));
}

export async function userRoles(exec: Executor, userId: string): Promise<Role[]> {
  const [u] = await exec.select({ roles: users.roles }).from(users).where(eq(users.id, userId));
  return u?.roles ?? [];
}

// ---------------------------------------------------------------------------------------------
// For sites: the users of a site (document 3, Sites).

/** Users of the site holding site_admin (their role needs the site). */
export async function countSiteAdmins(exec: Executor, siteId: string): Promise<number> {
  const [r] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.siteId, siteId), sql`'site_admin' = ANY(${users.roles})`));
  return r?.n ?? 0;
}

/** The users of the site leave it and stay in their company (a site moving to another company). */
export async function detachUsersFromSite(exec: Executor, siteId: string): Promise<void> {
  await exec.update(users).set({ siteId: null }).where(eq(users.siteId, siteId));
}

// ---------------------------------------------------------------------------------------------
// For other modules' reads.

/** A user's id and XMPP address (systems: phone numbers). */
export async function userJid(exec: Executor, userId: string) {
  const [row] = await exec.select({ id: users.id, jidIm: users.jidIm }).from(users).where(eq(users.id, userId));
  return row;
}

/** Whether the user of that id is terminated, as SQL over the expression of his id (authentication: OAuth). */
export const userIsTerminated = (userId: SQL | AnyPgColumn): SQL<boolean> =>
  sql<boolean>`(SELECT u.is_terminated FROM users u WHERE u.id = ${userId})`;

/**
 * The XMPP addresses of the company_admin of a company and of the bp_admin and bp_finance of its
 * BP, as SQL over the expressions of their ids (commerce: who is told of a subscription change).
 */
export const adminJids = (companyId: SQL, bpId: SQL): SQL =>
  sql`ARRAY(SELECT u.jid_im FROM users u WHERE u.jid_im IS NOT NULL
  AND ((u.company_id = ${companyId} AND u.roles && ARRAY['company_admin']::text[]) OR (u.company_id = ${bpId} AND u.roles && ARRAY['bp_admin', 'bp_finance']::text[])))`;

/** Sets a user's own customisation values and the template they came from; returns his stored values (customisation). */
export async function setUserCustomisations(
  exec: Executor,
  userId: string,
  values: Record<string, unknown>,
  templateId: string,
): Promise<unknown> {
  const [row] = await exec
    .update(users)
    .set({ customisations: values, selectedAppCustomisationTemplate: templateId })
    .where(eq(users.id, userId))
    .returning({ customisations: users.customisations });
  return row.customisations;
}

/**
 * The names of the user of that id, as SQL over the expression of his id: a JSON object
 * `{firstName, lastName, displayName, loginEmail}` (displayName: the users' own, first and last
 * name), null when no such user (pbx: the subscribers of a CloudPBX, its numbering plan, the user
 * a DDI number is assigned to).
 */
export const userNamesOf = (userId: SQL | AnyPgColumn): SQL<UserNames | null> =>
  sql<UserNames | null>`(SELECT json_build_object('firstName', u.first_name, 'lastName', u.last_name,
    'displayName', trim(u.first_name || ' ' || u.last_name), 'loginEmail', u.login_email) FROM users u WHERE u.id = ${userId})`;

export interface UserNames {
  firstName: string;
  lastName: string;
  displayName: string;
  loginEmail: string;
}

// ---------------------------------------------------------------------------------------------
// For the bulk import: the export of a company's users (issue 27, point 6).

/** The columns of a user the CSV export writes (the columns of the import's templates). */
const EXPORTED = {
  id: users.id,
  loginEmail: users.loginEmail,
  firstName: users.firstName,
  lastName: users.lastName,
  nickName: users.nickName,
  title: users.title,
  jobTitle: users.jobTitle,
  department: users.department,
  country: users.country,
  language: users.language,
  timezone: users.timezone,
  emails: users.emails,
  phoneNumbers: users.phoneNumbers,
  selectedAppCustomisationTemplate: users.selectedAppCustomisationTemplate,
};
export type ExportedUser = Pick<UserRecord, keyof typeof EXPORTED>;

/**
 * A page of the users of a company in the order of their login (case-insensitive), after the
 * login `after` (keyset: the unique index on lower(login_email) orders it, so every page costs the
 * same whatever its place).
 */
export async function companyUsersPage(
  exec: Executor,
  companyId: string,
  after: string | null,
  limit: number,
): Promise<ExportedUser[]> {
  const login = sql`lower(${users.loginEmail})`;
  return exec
    .select(EXPORTED)
    .from(users)
    .where(
      after === null ? eq(users.companyId, companyId) : and(eq(users.companyId, companyId), sql`${login} > ${after}`),
    )
    .orderBy(asc(login))
    .limit(limit);
}
