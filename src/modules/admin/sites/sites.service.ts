// Rules of the sites operations (document 3, Sites; docs/decisions.md).
import { and, eq, or, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { heldGrants } from '../../../authz/evaluate.ts';
import type { Grant } from '../../../authz/grant.ts';
import { SITE_MOVE_GRANTS } from '../../../authz/policy/sites.ts';
import { callerParams, relationSql } from '../../../authz/relations.ts';
import type { Caller } from '../../../authz/roles.ts';
import type { Executor } from '../../../db/client.ts';
import { companies, users } from '../../../db/schema.ts';
import { fail } from '../../../errors/catalogue.ts';
import { newId } from '../../authentication/tokens.ts';
import * as repo from './sites.repo.ts';
import type { CreateSiteBody, UpdateSiteBody } from './sites.schemas.ts';

const LATIN_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH' };

/** Document 3, Site latin_name: the name with its diacritics removed (Zürich -> Zurich, Straße -> Strasse). */
export function latinName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆœŒøØđĐłŁþÞ]/g, (c) => LATIN_LETTERS[c] ?? c);
}

export function toApiSite(s: repo.SiteRow) {
  return {
    id: s.id,
    name: s.name,
    latin_name: latinName(s.name),
    companyId: s.companyId,
    creationDate: s.creationDate,
    statusUpdatedDate: s.statusUpdatedDate,
    // No ICE servers are configured per site in this service: the list is always empty.
    settings: { iceServers: [] as never[] },
    status: s.status as 'active' | 'alerting' | 'hold' | 'terminated',
  };
}

export async function createSite(exec: Executor, companyId: string, body: Static<typeof CreateSiteBody>, now: Date) {
  const row = await repo.insertSite(exec, { id: newId(), name: body.name, companyId, status: body.status ?? 'active', creationDate: now, statusUpdatedDate: now });
  return toApiSite(row);
}

/** True when one of the caller's grants among `list` reaches the company (it must exist). */
async function grantsReachCompany(exec: Executor, caller: Caller, list: readonly Grant[], companyId: string): Promise<boolean> {
  const held = heldGrants(list, caller);
  if (held.length === 0) return false;
  const c = callerParams(caller);
  const scope = held.some((g) => g.relation === 'any') ? sql`TRUE` : or(...[...new Set(held.map((g) => g.relation))].map((r) => relationSql(r, c, { company: companies.id })));
  const rows = await exec.select({ id: companies.id }).from(companies).where(and(eq(companies.id, companyId), scope)).limit(1);
  return rows.length > 0;
}

/**
 * Document 3, update site: only a bp admin or an administrator of the site's organisation (and
 * superadmin) may move a site to another company, and only to a company he also administers.
 */
async function assertMayMove(exec: Executor, caller: Caller, from: string, to: string): Promise<void> {
  if (!(await grantsReachCompany(exec, caller, SITE_MOVE_GRANTS, from))) fail('SITE_MOVE_NOT_ALLOWED', { siteCompanyId: from });
  // A destination he does not administer is, to him, a company that does not exist.
  if (!(await grantsReachCompany(exec, caller, SITE_MOVE_GRANTS, to))) fail('NOT_FOUND', { target: 'company', id: to });
}

async function assertNoSiteAdmins(exec: Executor, siteId: string): Promise<void> {
  const n = await repo.countSiteAdmins(exec, siteId);
  if (n > 0) fail('SITE_HAS_SITE_ADMINS', { siteId, siteAdmins: n });
}

export async function updateSite(exec: Executor, caller: Caller, target: repo.SiteRow, body: Static<typeof UpdateSiteBody>, now: Date) {
  const patch: Partial<repo.NewSite> = {};
  if (body.companyId !== target.companyId) {
    await assertMayMove(exec, caller, target.companyId, body.companyId);
    // The users of the site stay in their company: plain users leave the site, and a site_admin
    // (whose role needs a site of his company) blocks the move.
    await assertNoSiteAdmins(exec, target.id);
    await exec.update(users).set({ siteId: null }).where(eq(users.siteId, target.id));
    patch.companyId = body.companyId;
  }
  if (body.name !== undefined) patch.name = body.name;
  if (body.status !== undefined && body.status !== target.status) {
    patch.status = body.status;
    patch.statusUpdatedDate = now;
  }
  if (Object.keys(patch).length === 0) return toApiSite(target);
  const row = await repo.updateSiteRow(exec, target.id, patch);
  if (!row) fail('NOT_FOUND', { target: 'site', id: target.id });
  return toApiSite(row);
}

/** Document 3: a site cannot be deleted while linked to systems; nor while site_admins need it. */
export async function deleteSite(exec: Executor, target: repo.SiteRow): Promise<void> {
  const systems = await repo.countLinkedSystems(exec, target.id);
  if (systems > 0) fail('SITE_LINKED_TO_SYSTEMS', { siteId: target.id, systems });
  await assertNoSiteAdmins(exec, target.id);
  // Plain users of the site stay in their company without a site (users.site_id ON DELETE SET NULL).
  await repo.deleteSiteRow(exec, target.id);
}

