// Rules of the sites operations (document 3, Sites; docs/decisions.md).
import type { Static } from 'typebox';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { newId } from '../../../shared/ids.ts';
import * as repo from './sites.repo.ts';
import { countSiteAdmins, detachUsersFromSite } from '../users/users.api.ts';
import { systemsOfSite } from './sites.hooks.ts';
import type { CreateSiteBody, UpdateSiteBody } from './sites.schemas.ts';

const LATIN_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
};
// Built from the table's keys rather than written as a literal: the bundle (src/bundle.ts) writes
// them as \u escapes, and a source of ASCII only is held in memory at one byte a character.
const LATIN_LETTER = new RegExp(`[${Object.keys(LATIN_LETTERS).join('')}]`, 'g');

const MARKS = /\p{M}/gu;
/** Printable ASCII only: nothing to transliterate (most names; every getSite answers one). */
const PLAIN = /^[\x20-\x7e]*$/;

/** Document 3, Site latin_name: the name with its diacritics removed (Zürich -> Zurich, Straße -> Strasse). */
export function latinName(name: string): string {
  if (PLAIN.test(name)) return name;
  return name
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(LATIN_LETTER, (c) => LATIN_LETTERS[c] ?? c);
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
    settings: { iceServers: [] },
    status: s.status,
  };
}

export async function createSite(exec: Executor, companyId: string, body: Static<typeof CreateSiteBody>, now: Date) {
  const row = await repo.insertSite(exec, {
    id: newId(),
    name: body.name,
    companyId,
    status: body.status ?? 'active',
    creationDate: now,
    statusUpdatedDate: now,
  });
  return toApiSite(row);
}

async function assertNoSiteAdmins(exec: Executor, siteId: string): Promise<void> {
  const n = await countSiteAdmins(exec, siteId);
  if (n > 0) fail('SITE_HAS_SITE_ADMINS', { siteId, siteAdmins: n });
}

/** Document 3, update site. Who may move it, and where to, is authorised before (the policy's updateSite). */
export async function updateSite(db: Executor, target: repo.SiteRow, body: Static<typeof UpdateSiteBody>, now: Date) {
  return db.transaction(async (exec) => {
    const patch: Partial<repo.NewSite> = {};
    if (body.companyId !== target.companyId) {
      // The users of the site stay in their company: plain users leave the site, and a site_admin
      // (whose role needs a site of his company) blocks the move.
      await assertNoSiteAdmins(exec, target.id);
      await detachUsersFromSite(exec, target.id);
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
  });
}

/** Document 3: a site cannot be deleted while linked to systems; nor while site_admins need it. */
export async function deleteSite(db: Executor, target: repo.SiteRow): Promise<void> {
  return db.transaction(async (exec) => {
    const systems = await systemsOfSite.get(exec, target.id);
    if (systems > 0) fail('SITE_LINKED_TO_SYSTEMS', { siteId: target.id, systems });
    await assertNoSiteAdmins(exec, target.id);
    // Plain users of the site stay in their company without a site (users.site_id ON DELETE SET NULL).
    await repo.deleteSiteRow(exec, target.id);
  });
}
