// Rules of join-company links (document 3), self-registration through a link, and join
// invitations (route table, +) with the company status transitions of document 3.
// Users are created with the functions of the users module (password policy, unique login).
import { timingSafeEqual } from 'node:crypto';
import type { Static } from 'typebox';
import { ASSIGNABLE_ROLES, ROLES, type Caller, type Role } from '../../../authz/roles.ts';
import type { Db, Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { hashPassword } from '../../../shared/passwords.ts';
import { newId, randomSecret, sha256hex } from '../../../shared/ids.ts';
import * as users from '../users/users.api.ts';
import { normaliseRoles } from '../users/users.api.ts';
import { activateInitializingCompany, bpTypeOf, companyFacts } from '../companies/companies.api.ts';
import * as repo from './join.repo.ts';
import type {
  AcceptJoinInvitationBody,
  CreateJoinInvitationBody,
  CreateJoinLinkBody,
  SelfRegisterBody,
  UpdateJoinLinkBody,
} from './join.schemas.ts';

/** Lifetime of a join invitation (docs/decisions.md, Join). */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------------
// Links

export function toApiLink(l: repo.LinkRow) {
  return {
    id: l.id,
    companyId: l.companyId,
    createdByAdminId: l.createdByAdminId,
    creationDate: l.creationDate,
    expirationDate: l.expirationDate,
    description: l.description,
    isEnabled: l.isEnabled,
    maxNumberUsers: l.maxNumberUsers,
    nbUsersRegistered: l.nbUsersRegistered,
  };
}

function expiration(v: string | Date | null | undefined, now: Date): Date | null | undefined {
  if (v === undefined || v === null) return v;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) fail('VALIDATION_FAILED', { field: 'expirationDate' });
  if (d.getTime() <= now.getTime()) fail('JOIN_LINK_EXPIRATION_IN_PAST', { expirationDate: v });
  return d;
}

export async function createLink(
  exec: Executor,
  caller: Caller,
  companyId: string,
  body: Static<typeof CreateJoinLinkBody>,
  now: Date,
) {
  const row = await repo.insertLink(exec, {
    id: newId(),
    companyId,
    createdByAdminId: caller.userId,
    description: body.description ?? null,
    expirationDate: expiration(body.expirationDate, now) ?? null,
    isEnabled: body.isEnabled ?? true,
    maxNumberUsers: body.maxNumberUsers ?? null,
    nbUsersRegistered: 0,
    creationDate: now,
  });
  return toApiLink(row);
}

export async function updateLink(
  exec: Executor,
  link: repo.LinkRow,
  body: Static<typeof UpdateJoinLinkBody>,
  now: Date,
) {
  const patch: Partial<repo.NewLink> = {};
  if (body.description !== undefined) patch.description = body.description;
  if (body.expirationDate !== undefined) patch.expirationDate = expiration(body.expirationDate, now);
  if (body.isEnabled !== undefined) patch.isEnabled = body.isEnabled;
  if (body.maxNumberUsers !== undefined) patch.maxNumberUsers = body.maxNumberUsers;
  if (Object.keys(patch).length === 0) return toApiLink(link);
  return toApiLink(await repo.updateLinkRow(exec, link.id, patch));
}

/** Document 3: a link already used by registered users is not deleted but disabled. */
export async function deleteLink(
  db: Executor,
  link: repo.LinkRow,
): Promise<{ status: string; data: ReturnType<typeof toApiLink> }> {
  return db.transaction(async (exec) => {
    const deleted = await repo.deleteLinkRow(exec, link.id);
    if (deleted) return { status: `Join-company link ${link.id} deleted`, data: toApiLink(deleted) };
    const disabled = await repo.updateLinkRow(exec, link.id, { isEnabled: false });
    return {
      status: `Join-company link ${link.id} has registered users: disabled instead of deleted`,
      data: toApiLink(disabled),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Self-registration

function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

function domainAllowed(allowed: readonly string[] | null, email: string): boolean {
  const list = (allowed ?? []).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean);
  return list.length === 0 || list.includes(emailDomain(email));
}

/** Why a link refuses a registration, read from the link itself (an unknown link is 404). */
function assertLinkOpen(link: repo.LinkRow, now: Date): void {
  if (!link.isEnabled) fail('JOIN_LINK_DISABLED', { joinCompanyLinkId: link.id });
  if (link.expirationDate && link.expirationDate.getTime() <= now.getTime())
    fail('JOIN_LINK_EXPIRED', { joinCompanyLinkId: link.id, expirationDate: link.expirationDate.toISOString() });
  if (link.maxNumberUsers !== null && link.nbUsersRegistered >= link.maxNumberUsers)
    fail('JOIN_LINK_FULL', { joinCompanyLinkId: link.id, maxNumberUsers: link.maxNumberUsers });
}

export async function selfRegister(db: Db, body: Static<typeof SelfRegisterBody>, now: Date) {
  const link = await repo.findLink(db, body.joinCompanyLinkId);
  if (!link) fail('JOIN_LINK_NOT_FOUND', { joinCompanyLinkId: body.joinCompanyLinkId });
  assertLinkOpen(link, now);
  const company = await companyFacts(db, link.companyId);
  if (!company || company.status === 'terminated' || !company.userSelfRegisterEnabled)
    fail('SELF_REGISTER_DISABLED', { companyId: link.companyId });
  if (!domainAllowed(company.userSelfRegisterAllowedDomains, body.loginEmail))
    fail('SELF_REGISTER_DOMAIN_NOT_ALLOWED', { domain: emailDomain(body.loginEmail) });
  if (await users.loginEmailTaken(db, body.loginEmail)) fail('LOGIN_EMAIL_TAKEN');
  // Hashed before the transaction: the seat's row lock is not held during the slow hash.
  const passwordHash = await hashPassword(body.password);
  return db.transaction(async (tx) => {
    const claimed = await repo.claimLinkSeat(tx, link.id, now);
    if (!claimed) {
      // Changed since it was read (another registration took the last seat, an admin disabled it).
      const again = await repo.findLink(tx, link.id);
      if (!again) fail('JOIN_LINK_NOT_FOUND', { joinCompanyLinkId: link.id });
      assertLinkOpen(again, now);
      fail('JOIN_LINK_FULL', { joinCompanyLinkId: link.id });
    }
    return users.createArrivingUser(tx, {
      id: newId(),
      companyId: link.companyId,
      loginEmail: body.loginEmail,
      passwordHash,
      firstName: body.firstName ?? '',
      lastName: body.lastName ?? '',
      roles: normaliseRoles([]),
      creationDate: now,
      lastUpdateDate: now,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Invitations

type InvitationFlags = Pick<
  repo.InvitationRow,
  'invitedToBeCompanyAdmin' | 'invitedToBeBpAdmin' | 'invitedToBeBpFinance'
>;

/** The roles an invitation gives: user always, and each flagged role, in the order of document 1. */
export function invitedRoles(i: InvitationFlags): Role[] {
  const flagged = new Set<Role>(['user']);
  if (i.invitedToBeCompanyAdmin) flagged.add('company_admin');
  if (i.invitedToBeBpAdmin) flagged.add('bp_admin');
  if (i.invitedToBeBpFinance) flagged.add('bp_finance');
  return normaliseRoles(ROLES.filter((r) => flagged.has(r)));
}

export function invitationStatus(i: repo.InvitationRow, now: Date): 'pending' | 'accepted' | 'expired' {
  if (i.status === 'accepted') return 'accepted';
  return i.expirationDate.getTime() <= now.getTime() ? 'expired' : 'pending';
}

export function toApiInvitation(i: repo.InvitationRow, now: Date) {
  return {
    id: i.id,
    companyId: i.companyId,
    email: i.email,
    invitedToBeCompanyAdmin: i.invitedToBeCompanyAdmin,
    invitedToBeBpAdmin: i.invitedToBeBpAdmin,
    invitedToBeBpFinance: i.invitedToBeBpFinance,
    status: invitationStatus(i, now),
    createdByAdminId: i.createdByAdminId,
    creationDate: i.creationDate,
    expirationDate: i.expirationDate,
    acceptedDate: i.acceptedDate,
    acceptedUserId: i.acceptedUserId,
  };
}

export async function createInvitation(
  db: Executor,
  caller: Caller,
  company: { id: string; isBP: boolean | null },
  body: Static<typeof CreateJoinInvitationBody>,
  now: Date,
) {
  return db.transaction(async (exec) => {
    const flags = {
      invitedToBeCompanyAdmin: body.invitedToBeCompanyAdmin ?? false,
      invitedToBeBpAdmin: body.invitedToBeBpAdmin ?? false,
      invitedToBeBpFinance: body.invitedToBeBpFinance ?? false,
    };
    const roles = invitedRoles(flags);
    // The inviter gives these roles: the rule of createUser (ASSIGNABLE_ROLES).
    const assignable = new Set(caller.roles.flatMap((r) => ASSIGNABLE_ROLES[r]));
    const refused = roles.filter((r) => r !== 'user' && !assignable.has(r));
    if (refused.length) fail('ROLE_NOT_ASSIGNABLE', { roles: refused });
    if ((flags.invitedToBeBpAdmin || flags.invitedToBeBpFinance) && company.isBP !== true)
      fail('JOIN_INVITATION_NO_ROLE_FOR_COMPANY', { companyId: company.id });
    if (await users.loginEmailTaken(exec, body.email)) fail('JOIN_INVITATION_EMAIL_TAKEN', { email: body.email });
    const token = randomSecret(32);
    const row = await repo.insertInvitation(exec, {
      id: newId(),
      companyId: company.id,
      email: body.email,
      ...flags,
      tokenHash: sha256hex(token),
      status: 'pending',
      createdByAdminId: caller.userId,
      creationDate: now,
      expirationDate: new Date(now.getTime() + INVITATION_TTL_MS),
    });
    return { ...toApiInvitation(row, now), invitationToken: token };
  });
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Document 3, Company status: the first invited company_admin who joins an `initializing` End
 * Customer, or the first invited bp_admin / bp_finance who joins an `initializing` BP IR created
 * by a BP VAD, makes the company `active`.
 */
async function companyTransition(exec: Executor, inv: repo.InvitationRow, now: Date): Promise<void> {
  const company = await companyFacts(exec, inv.companyId);
  if (company?.status !== 'initializing') return;
  const endCustomer = !company.isBP;
  const irOfVad = company.isBP && company.bpType === 'IR' && (await bpTypeOf(exec, company.bpId)) === 'VAD';
  if (
    (endCustomer && inv.invitedToBeCompanyAdmin) ||
    (irOfVad && (inv.invitedToBeBpAdmin || inv.invitedToBeBpFinance))
  ) {
    await activateInitializingCompany(exec, company.id, now);
  }
}

export async function acceptInvitation(
  db: Db,
  invitationId: string,
  body: Static<typeof AcceptJoinInvitationBody>,
  now: Date,
) {
  const inv = await repo.findInvitation(db, invitationId);
  // A wrong token answers as an unknown invitation: without the token, nothing is learnt.
  if (!inv || !sameHash(inv.tokenHash, sha256hex(body.token))) fail('JOIN_INVITATION_NOT_FOUND', { invitationId });
  if (inv.status === 'accepted') fail('JOIN_INVITATION_USED', { invitationId });
  if (inv.expirationDate.getTime() <= now.getTime())
    fail('JOIN_INVITATION_EXPIRED', { invitationId, expirationDate: inv.expirationDate.toISOString() });
  const company = await companyFacts(db, inv.companyId);
  if (!company || company.status === 'terminated')
    fail('JOIN_INVITATION_EXPIRED', { invitationId, reason: 'the company is terminated' });
  if (await users.loginEmailTaken(db, inv.email)) fail('LOGIN_EMAIL_TAKEN');
  const passwordHash = await hashPassword(body.password);
  return db.transaction(async (tx) => {
    const userId = newId();
    // Spent first: of two concurrent acceptances, only one finds the invitation pending.
    if (!(await repo.markAccepted(tx, inv.id, userId, now))) fail('JOIN_INVITATION_USED', { invitationId });
    const user = await users.createArrivingUser(tx, {
      id: userId,
      companyId: inv.companyId,
      loginEmail: inv.email,
      passwordHash,
      firstName: body.firstName ?? '',
      lastName: body.lastName ?? '',
      roles: invitedRoles(inv),
      adminType: inv.invitedToBeBpAdmin ? 'bp_admin' : inv.invitedToBeCompanyAdmin ? 'company_admin' : null,
      creationDate: now,
      lastUpdateDate: now,
    });
    await companyTransition(tx, inv, now);
    return user;
  });
}
