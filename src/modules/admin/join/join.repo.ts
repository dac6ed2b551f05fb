// SQL of join-company links and join invitations; every function takes the executor it runs on.
import { and, asc, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { joinCompanyLinks, joinInvitations } from './join.tables.ts';
import type { Paging } from '../../../http/paging.ts';
import type { JOIN_INVITATION_SORT_FIELDS, JOIN_LINK_SORT_FIELDS } from './join.schemas.ts';

export type LinkRow = typeof joinCompanyLinks.$inferSelect;
export type NewLink = typeof joinCompanyLinks.$inferInsert;
export type InvitationRow = typeof joinInvitations.$inferSelect;
export type NewInvitation = typeof joinInvitations.$inferInsert;

// ---------------------------------------------------------------------------------------------
// Links

export async function insertLink(exec: Executor, l: NewLink): Promise<LinkRow> {
  const [row] = await exec.insert(joinCompanyLinks).values(l).returning();
  return row;
}

export async function findLink(exec: Executor, id: string): Promise<LinkRow | undefined> {
  const [row] = await exec.select().from(joinCompanyLinks).where(eq(joinCompanyLinks.id, id)).limit(1);
  return row;
}

export async function updateLinkRow(exec: Executor, id: string, patch: Partial<NewLink>): Promise<LinkRow> {
  const [row] = await exec.update(joinCompanyLinks).set(patch).where(eq(joinCompanyLinks.id, id)).returning();
  return row;
}

export async function deleteLinkRow(exec: Executor, id: string): Promise<LinkRow | undefined> {
  // Only a link nobody registered through is removed; the condition holds even against a
  // registration committed since the link was read.
  const [row] = await exec
    .delete(joinCompanyLinks)
    .where(and(eq(joinCompanyLinks.id, id), eq(joinCompanyLinks.nbUsersRegistered, 0)))
    .returning();
  return row;
}

/**
 * Counts one registration through the link, only while it is enabled, unexpired and not full:
 * concurrent registrations are serialised by the row lock of the UPDATE, so the count never
 * passes maxNumberUsers. Undefined when the link refused.
 */
export async function claimLinkSeat(exec: Executor, id: string, now: Date): Promise<LinkRow | undefined> {
  const [row] = await exec
    .update(joinCompanyLinks)
    .set({ nbUsersRegistered: sql`${joinCompanyLinks.nbUsersRegistered} + 1` })
    .where(
      and(
        eq(joinCompanyLinks.id, id),
        eq(joinCompanyLinks.isEnabled, true),
        sql`(${joinCompanyLinks.expirationDate} IS NULL OR ${joinCompanyLinks.expirationDate} > ${now.toISOString()}::timestamptz)`,
        sql`(${joinCompanyLinks.maxNumberUsers} IS NULL OR ${joinCompanyLinks.nbUsersRegistered} < ${joinCompanyLinks.maxNumberUsers})`,
      ),
    )
    .returning();
  return row;
}

export interface LinkFilters {
  createdByAdminId?: string;
  isEnabled?: boolean;
  fromExpirationDate?: string;
  toExpirationDate?: string;
  fromNbUsersRegistered?: number;
  toNbUsersRegistered?: number;
}

const LINK_SORT = {
  creationDate: joinCompanyLinks.creationDate,
  expirationDate: joinCompanyLinks.expirationDate,
  nbUsersRegistered: joinCompanyLinks.nbUsersRegistered,
  maxNumberUsers: joinCompanyLinks.maxNumberUsers,
  description: joinCompanyLinks.description,
};

export async function listLinkRows(
  exec: Executor,
  companyId: string,
  f: LinkFilters,
  p: Paging<(typeof JOIN_LINK_SORT_FIELDS)[number]>,
): Promise<{ rows: LinkRow[]; total: number }> {
  const conds: SQL[] = [eq(joinCompanyLinks.companyId, companyId)];
  if (f.createdByAdminId) conds.push(eq(joinCompanyLinks.createdByAdminId, f.createdByAdminId));
  if (f.isEnabled !== undefined) conds.push(eq(joinCompanyLinks.isEnabled, f.isEnabled));
  if (f.fromExpirationDate) conds.push(gte(joinCompanyLinks.expirationDate, new Date(f.fromExpirationDate)));
  if (f.toExpirationDate) conds.push(lte(joinCompanyLinks.expirationDate, new Date(f.toExpirationDate)));
  if (f.fromNbUsersRegistered !== undefined)
    conds.push(gte(joinCompanyLinks.nbUsersRegistered, f.fromNbUsersRegistered));
  if (f.toNbUsersRegistered !== undefined) conds.push(lte(joinCompanyLinks.nbUsersRegistered, f.toNbUsersRegistered));
  const where = and(...conds);
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(joinCompanyLinks)
      .where(where)
      .orderBy(dir(LINK_SORT[p.sortField]), dir(joinCompanyLinks.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(joinCompanyLinks)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Invitations

export async function insertInvitation(exec: Executor, i: NewInvitation): Promise<InvitationRow> {
  const [row] = await exec.insert(joinInvitations).values(i).returning();
  return row;
}

export async function findInvitation(exec: Executor, id: string): Promise<InvitationRow | undefined> {
  const [row] = await exec.select().from(joinInvitations).where(eq(joinInvitations.id, id)).limit(1);
  return row;
}

/** pending -> accepted, once: a concurrent acceptance of the same invitation finds nothing to update. */
export async function markAccepted(exec: Executor, id: string, userId: string, now: Date): Promise<boolean> {
  const rows = await exec
    .update(joinInvitations)
    .set({ status: 'accepted', acceptedDate: now, acceptedUserId: userId })
    .where(and(eq(joinInvitations.id, id), eq(joinInvitations.status, 'pending')))
    .returning({ id: joinInvitations.id });
  return rows.length > 0;
}

export interface InvitationFilters {
  status?: 'pending' | 'accepted' | 'expired';
  email?: string;
}

const INVITATION_SORT = {
  creationDate: joinInvitations.creationDate,
  email: joinInvitations.email,
  expirationDate: joinInvitations.expirationDate,
  status: joinInvitations.status,
};

export async function listInvitationRows(
  exec: Executor,
  companyId: string,
  f: InvitationFilters,
  now: Date,
  p: Paging<(typeof JOIN_INVITATION_SORT_FIELDS)[number]>,
): Promise<{ rows: InvitationRow[]; total: number }> {
  const conds: SQL[] = [eq(joinInvitations.companyId, companyId)];
  const at = sql`${now.toISOString()}::timestamptz`;
  // `expired` is derived: a pending invitation past its expiration date.
  if (f.status === 'accepted') conds.push(eq(joinInvitations.status, 'accepted'));
  if (f.status === 'pending')
    conds.push(sql`${joinInvitations.status} = 'pending' AND ${joinInvitations.expirationDate} > ${at}`);
  if (f.status === 'expired')
    conds.push(sql`${joinInvitations.status} = 'pending' AND ${joinInvitations.expirationDate} <= ${at}`);
  if (f.email) conds.push(sql`lower(${joinInvitations.email}) = lower(${f.email})`);
  const where = and(...conds);
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(joinInvitations)
      .where(where)
      .orderBy(dir(INVITATION_SORT[p.sortField]), dir(joinInvitations.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(joinInvitations)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
