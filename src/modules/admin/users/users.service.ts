// Rules of the users operations (route table, a supporting resource: the rules are what users of
// such a service expect, written in docs/decisions.md).
import type { Static } from 'typebox';
import { ASSIGNABLE_ROLES, type Caller, type Role } from '../../../authz/roles.ts';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { hashPassword } from '../../../shared/passwords.ts';
import { newId } from '../../../shared/ids.ts';
import * as repo from './users.repo.ts';
import { companyIsBP, companyOrganisationShared, passwordChanged, userArrived, usersArrived } from './users.hooks.ts';
import { userJidDomain } from '../../../xmpp/settings.ts';
import { sql } from 'drizzle-orm';
import type { CreateUserBody, UpdateUserBody } from './users.schemas.ts';

export function toApiUser(u: repo.UserRow) {
  return {
    id: u.id,
    loginEmail: u.loginEmail,
    firstName: u.firstName,
    lastName: u.lastName,
    displayName: `${u.firstName} ${u.lastName}`.trim(),
    companyId: u.companyId,
    // His company's organisation (a copy the database keeps, src/db/migrations/0003_user_organisation.sql).
    organisationId: u.organisationId,
    roles: u.roles,
    adminType: u.adminType,
    siteId: u.siteId,
    language: u.language,
    timezone: u.timezone,
    nickName: u.nickName,
    title: u.title,
    jobTitle: u.jobTitle,
    department: u.department,
    country: u.country,
    emails: u.emails,
    phoneNumbers: u.phoneNumbers,
    isTerminated: u.isTerminated,
    jid_im: u.jidIm,
    creationDate: u.creationDate,
    lastUpdateDate: u.lastUpdateDate,
  };
}

/** Every user holds `user`; roles are kept unique and in the order of document 1. */
export function normaliseRoles(roles: readonly Role[] | undefined): Role[] {
  const set = new Set<Role>(roles ?? []);
  set.add('user');
  return [...set];
}

const BP_ROLES: readonly Role[] = ['bp_admin', 'bp_finance'];

async function assertRolesAllowed(
  exec: Executor,
  caller: Caller,
  companyId: string,
  roles: Role[],
  before: readonly Role[] = [],
): Promise<void> {
  const assignable = new Set(caller.roles.flatMap((r) => ASSIGNABLE_ROLES[r]));
  // Only roles being added or removed need the caller's right over them.
  const changed = roles.filter((r) => !before.includes(r)).concat(before.filter((r) => !roles.includes(r)));
  const refused = changed.filter((r) => r !== 'user' && !assignable.has(r));
  if (refused.length) fail('ROLE_NOT_ASSIGNABLE', { roles: refused });
  if (roles.some((r) => BP_ROLES.includes(r))) {
    if (!(await companyIsBP.get(exec, companyId)))
      fail('INVALID_ROLES', { reason: 'bp_admin and bp_finance belong to users of a BP company' });
  }
}

/** A site_admin needs a site. That a siteId names a site of the user's company is the declared reference's (users.operations.ts). */
function assertSite(roles: Role[], siteId: string | null | undefined): void {
  if (roles.includes('site_admin') && !siteId) fail('SITE_REQUIRED');
}

const PROFILE_FIELDS = ['nickName', 'title', 'jobTitle', 'department', 'country', 'emails', 'phoneNumbers'] as const;

/** The profile fields a body gives (null clears one); those it omits are left out. */
function profileOf(body: Static<typeof UpdateUserBody>): Partial<repo.NewUser> {
  const out: Partial<repo.NewUser> = {};
  for (const k of PROFILE_FIELDS) if (body[k] !== undefined) Object.assign(out, { [k]: body[k] });
  return out;
}

export async function createUser(
  db: Executor,
  caller: Caller,
  companyId: string,
  body: Static<typeof CreateUserBody>,
  now: Date,
) {
  return db.transaction(async (exec) => {
    const roles = normaliseRoles(body.roles);
    await assertRolesAllowed(exec, caller, companyId, roles);
    assertSite(roles, body.siteId);
    if (await repo.loginEmailTaken(exec, body.loginEmail)) fail('LOGIN_EMAIL_TAKEN');
    const row = await repo.insertUser(exec, {
      id: newId(),
      companyId,
      loginEmail: body.loginEmail,
      passwordHash: await hashPassword(body.password),
      firstName: body.firstName ?? '',
      lastName: body.lastName ?? '',
      roles,
      adminType: body.adminType ?? null,
      siteId: body.siteId ?? null,
      language: body.language ?? null,
      timezone: body.timezone ?? null,
      ...profileOf(body),
      creationDate: now,
      lastUpdateDate: now,
    });
    // Document 3, create company rule 7: his company's users are assigned to its default subscription on arrival.
    await userArrived.run(exec, row, now);
    return toApiUser(row);
  });
}

export async function updateUser(
  db: Executor,
  caller: Caller,
  target: repo.UserRow,
  body: Static<typeof UpdateUserBody>,
  now: Date,
) {
  return db.transaction(async (exec) => {
    const patch: Partial<repo.NewUser> = { lastUpdateDate: now };
    const roles = body.roles ? normaliseRoles(body.roles) : target.roles;
    if (body.roles) {
      await assertRolesAllowed(exec, caller, target.companyId, roles, target.roles);
      if (
        target.roles.includes('superadmin') &&
        !roles.includes('superadmin') &&
        (await repo.countSuperadmins(exec)) <= 1
      )
        fail('LAST_SUPERADMIN');
      patch.roles = roles;
    }
    const siteId = body.siteId !== undefined ? body.siteId : target.siteId;
    if (body.roles || body.siteId !== undefined) assertSite(roles, siteId);
    if (body.siteId !== undefined) patch.siteId = body.siteId;
    if (body.loginEmail !== undefined) {
      if (await repo.loginEmailTaken(exec, body.loginEmail, target.id)) fail('LOGIN_EMAIL_TAKEN');
      patch.loginEmail = body.loginEmail;
    }
    if (body.password !== undefined) {
      patch.passwordHash = await hashPassword(body.password);
      // A password change ends the account's other sessions (docs/security.md, Work, sessions and client
      // authentication): the caller's own, if it is his account, goes on.
      await passwordChanged.run(
        exec,
        target.id,
        target.id === caller.userId ? (caller.sessionId ?? undefined) : undefined,
        now,
      );
    }
    for (const k of ['firstName', 'lastName', 'language', 'timezone'] as const) {
      if (body[k] !== undefined) patch[k] = body[k];
    }
    Object.assign(patch, profileOf(body));
    if (body.adminType !== undefined) patch.adminType = body.adminType;
    return toApiUser(await repo.updateUserRow(exec, target.id, patch));
  });
}

export async function deleteUser(db: Executor, caller: Caller, target: repo.UserRow) {
  return db.transaction(async (exec) => {
    if (target.id === caller.userId) fail('CANNOT_DELETE_SELF');
    if (target.roles.includes('superadmin') && (await repo.countSuperadmins(exec)) <= 1) fail('LAST_SUPERADMIN');
    await repo.deleteUserRow(exec, target.id);
  });
}

// ---------------------------------------------------------------------------------------------
// For the other modules: users arrive through them too (self-registration, invitations).

export type { UserRow } from './users.repo.ts';

/** The account signing in with this e-mail (case-insensitive), for the authentication module. */
export function findUserByLoginEmail(exec: Executor, loginEmail: string): Promise<repo.UserRow | undefined> {
  return repo.findByLoginEmail(exec, loginEmail);
}

/** True when a user already signs in with this e-mail (case-insensitive). */
export function loginEmailTaken(exec: Executor, loginEmail: string): Promise<boolean> {
  return repo.loginEmailTaken(exec, loginEmail);
}

/**
 * Creates the account of a user who arrives by himself (a join-company link, an invitation),
 * in the caller's transaction; the e-mail must be free (409 otherwise).
 */
export async function createArrivingUser(exec: Executor, user: repo.NewUser) {
  if (await repo.loginEmailTaken(exec, user.loginEmail)) fail('LOGIN_EMAIL_TAKEN');
  const row = await repo.insertUser(exec, user);
  // Document 3, create company rule 7: his company's users are assigned to its default subscription on arrival.
  await userArrived.run(exec, row, row.creationDate);
  return toApiUser(row);
}

// ---------------------------------------------------------------------------------------------
// The CSV import's batches (issue 27, point 8: a flat cost per line). The import judges each line
// before (src/modules/imports/user-lines.ts: the login free or of the company, the roles the caller
// may manage); these write a whole batch in a few statements.

/** The users signing in with these logins (lower case), whatever their company. */
export function findUsersByLogins(exec: Executor, logins: readonly string[]): Promise<repo.UserRow[]> {
  return repo.findByLogins(exec, logins);
}

/**
 * Creates users together, each arriving in his company as createUser's does (document 3, create
 * company rule 7: a licence of its default subscription). A login taken meanwhile by another
 * writer is skipped: the ids made are answered. The rows are given their JID and organisation.
 */
export async function createUsersTogether(exec: Executor, rows: repo.NewUser[], now: Date): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  // What the row triggers of users would read for each row, read once: the JID domain (migration
  // jid_im_trigger) and each company's organisation, its row share-locked as the trigger locks it
  // (migration user_organisation). The triggers then stand aside (migration 0032): per row, with
  // batches in flight together, they cost a third of an import's time.
  const domain = await userJidDomain(exec);
  const organisations = new Map<string, string | null>();
  for (const companyId of new Set(rows.map((r) => r.companyId)))
    organisations.set(companyId, await companyOrganisationShared.get(exec, companyId));
  // Completed in place: the rows are made for this call (an import's batch), and a copy of each
  // was some 4 % of what an import allocated.
  for (const r of rows) {
    r.jidIm = `${r.id}@${domain}`;
    r.organisationId = organisations.get(r.companyId) ?? null;
  }
  await exec.execute(sql`SELECT set_config('svc.users_organisation_given', 'on', true)`);
  const made = await repo.insertUsers(exec, rows);
  await exec.execute(sql`SELECT set_config('svc.users_organisation_given', 'off', true)`);
  const arrived = rows.filter((r) => r.id !== undefined && made.has(r.id));
  await usersArrived.run(
    exec,
    arrived.map((r) => ({ id: r.id ?? '', companyId: r.companyId })),
    now,
  );
  return made;
}

/** Applies a patch per user; those whose password changes lose their sessions (as updateUser). */
export async function patchUsersTogether(
  exec: Executor,
  patches: readonly { id: string; patch: repo.UserPatch }[],
  now: Date,
): Promise<void> {
  await repo.patchUsers(exec, patches);
  for (const p of patches)
    if (p.patch.passwordHash !== undefined) await passwordChanged.run(exec, p.id, undefined, now);
}

export function deleteUsersTogether(exec: Executor, ids: readonly string[]): Promise<void> {
  return repo.deleteUserRows(exec, ids);
}
