// Rules of telephone systems (document 3, Systems and sites; document 1, Gateway notifications;
// decisions in docs/decisions.md, "Telephone systems").
import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { emit } from '../../events/outbox.ts';
import { systemChange } from '../../events/stanzas.ts';
import { newId } from '../../shared/ids.ts';
import { askGateway, type SystemsXmpp } from './gateway.ts';
import { XmppAccountFailed, type XmppAccounts } from '../../xmpp/accounts.ts';
import * as repo from './systems.repo.ts';
import { connectionHistories, type ConnectionEvent } from './connections.service.ts';
import type { CreateSystemBody, UpdateSystemBody } from './systems.schemas.ts';
import { companyFacts } from '../admin/companies/companies.api.ts';
import { systemsOfSite } from '../admin/sites/sites.api.ts';

/** A secret of an XMPP account: 32 random bytes, never logged (docs/security.md). */
export const newSecret = () => randomBytes(32).toString('base64url');

/** The System of document 3; `connectionHistory` (connections.service.ts) only when asked for. */
export function toApiSystem(s: repo.SystemRow, opts: { connectionHistory?: ConnectionEvent[] } = {}) {
  return {
    id: s.id,
    name: s.name,
    pbxId: s.pbxId,
    country: s.country,
    version: s.version,
    type: s.type,
    status: s.status,
    siteId: s.siteIds,
    companyId: s.companyId,
    bpId: s.bpId,
    jid_pbxagent: s.jidPbxagent,
    jid_pbxagent_password: s.jidPbxagentPassword,
    jid_pbxpcg: s.jidPbxpcg,
    jid_pbxpcg_password: s.jidPbxpcgPassword,
    serverPingTimeout: s.serverPingTimeout,
    pbxMainBundlePrefix: s.pbxMainBundlePrefix,
    usePbxMainBundlePrefix: s.usePbxMainBundlePrefix,
    pbxNationalPrefix: s.pbxNationalPrefix,
    pbxInternationalPrefix: s.pbxInternationalPrefix,
    pbxNumberingTranslator: s.pbxNumberingTranslator,
    hasMediaPillar: s.hasMediaPillar,
    isShared: s.isShared,
    isCentrex: s.isCentrex,
    isOxoManaged: s.isOxoManaged,
    searchResultOrder: s.searchResultOrder,
    activatingTransactionId: s.activatingTransactionId,
    jid_pbxagent_password_activating: s.jidPbxagentPasswordActivating,
    creationDate: s.creationDate,
    statusUpdatedDate: s.statusUpdatedDate,
    ...(opts.connectionHistory ? { connectionHistory: opts.connectionHistory } : {}),
  };
}

/** Systems as the API shows them, each with its connection history when `withHistory`. */
export async function toApiSystems(exec: Executor, rows: repo.SystemRow[], withHistory: boolean) {
  const histories = withHistory
    ? await connectionHistories(
        exec,
        rows.map((r) => r.id),
      )
    : undefined;
  return rows.map((r) => toApiSystem(r, { connectionHistory: histories?.get(r.id) }));
}

/**
 * Work on the system's accounts on the XMPP server (XMPP_ACCOUNTS); a refusal of the server is
 * 502 and the change it belongs to is not made (the caller's transaction rolls back).
 */
async function onXmppServer(
  accounts: XmppAccounts | undefined,
  work: (accounts: XmppAccounts) => Promise<void>,
): Promise<void> {
  if (!accounts) return;
  try {
    await work(accounts);
  } catch (err) {
    if (err instanceof XmppAccountFailed) fail('XMPP_ACCOUNT_FAILED');
    throw err;
  }
}

/** Document 3, link a system to a site: the CENTREX rules (43709). */
async function assertCentrexRules(
  exec: Executor,
  system: Pick<repo.SystemRow, 'id' | 'isCentrex'>,
  siteId: string,
  siteCompanyCentrex: boolean,
): Promise<void> {
  // A system with isCentrex true links only sites of multi-tenant companies, and such a site only one system, with isCentrex true.
  if (system.isCentrex !== siteCompanyCentrex) fail('SYSTEM_CENTREX_MISMATCH', { siteId, systemId: system.id });
  if (siteCompanyCentrex && (await repo.systemsOfSite(exec, siteId, system.id)).length > 0)
    fail('SYSTEM_CENTREX_MISMATCH', { siteId, systemId: system.id });
}

/** createSystem (+, routes.md): a system created for a site, with its two XMPP accounts. */
export async function createSystem(
  db: Executor,
  xmpp: Pick<SystemsXmpp, 'accounts' | 'userDomain'>,
  site: { id: string; companyId: string },
  body: Static<typeof CreateSystemBody>,
  now: Date,
) {
  return db.transaction(async (exec) => {
    const company = await companyFacts(exec, site.companyId);
    const isCentrex = body.isCentrex ?? false;
    const id = newId();
    await assertCentrexRules(exec, { id, isCentrex }, site.id, company?.isCentrex ?? false);
    const domain = xmpp.userDomain;
    const row = await repo.insertSystem(exec, {
      id,
      name: body.name,
      pbxId: body.pbxId ?? `PBX${id}`,
      country: body.country ?? company?.country ?? null,
      version: body.version ?? null,
      type: body.type ?? 'undefined',
      status: 'created',
      companyId: site.companyId,
      siteId: site.id,
      siteIds: [site.id],
      bpId: company?.bpId ?? null,
      jidPbxagent: `pbxagent_${id}@${domain}`,
      jidPbxagentPassword: newSecret(),
      jidPbxpcg: `pbxpcg_${id}@${domain}`,
      jidPbxpcgPassword: newSecret(),
      ...settingsPatch(body),
      isCentrex,
      creationDate: now,
      statusUpdatedDate: now,
    });
    // The accounts exist on the XMPP server before the system is answered, so its agent and gateway can log in.
    await onXmppServer(xmpp.accounts, async (a) => {
      await a.create(row.jidPbxagent, row.jidPbxagentPassword);
      await a.create(row.jidPbxpcg, row.jidPbxpcgPassword).catch(async (err: unknown) => {
        await a.delete(row.jidPbxagent).catch(() => undefined);
        throw err;
      });
    });
    return toApiSystem(row);
  });
}

/**
 * A system made by another module for a resource of its own (the pbx module's CloudPBX, a system
 * of type `cloud_pbx`): its row and its two XMPP accounts, made as createSystem makes them, in the
 * caller's transaction (a refusal of the XMPP server is 502 and rolls it back).
 */
export async function insertSystemWithAccounts(
  exec: Executor,
  xmpp: Pick<SystemsXmpp, 'accounts' | 'userDomain'>,
  s: {
    name: string;
    type: repo.NewSystem['type'];
    companyId: string;
    siteId: string | null;
    bpId: string | null;
    country: string | null;
    now: Date;
  },
): Promise<repo.SystemRow> {
  const id = newId();
  const domain = xmpp.userDomain;
  const row = await repo.insertSystem(exec, {
    id,
    name: s.name,
    pbxId: `PBX${id}`,
    country: s.country,
    type: s.type,
    status: 'created',
    companyId: s.companyId,
    siteId: s.siteId,
    siteIds: s.siteId ? [s.siteId] : [],
    bpId: s.bpId,
    jidPbxagent: `pbxagent_${id}@${domain}`,
    jidPbxagentPassword: newSecret(),
    jidPbxpcg: `pbxpcg_${id}@${domain}`,
    jidPbxpcgPassword: newSecret(),
    creationDate: s.now,
    statusUpdatedDate: s.now,
  });
  await onXmppServer(xmpp.accounts, async (a) => {
    await a.create(row.jidPbxagent, row.jidPbxagentPassword);
    await a.create(row.jidPbxpcg, row.jidPbxpcgPassword).catch(async (err: unknown) => {
      await a.delete(row.jidPbxagent).catch(() => undefined);
      throw err;
    });
  });
  return row;
}

/** The system of another module's resource goes with it: its row (and its phone numbers) and its accounts, in the caller's transaction. */
export async function deleteSystemWithAccounts(
  exec: Executor,
  accounts: XmppAccounts | undefined,
  row: Pick<repo.SystemRow, 'id' | 'jidPbxagent' | 'jidPbxpcg'>,
): Promise<void> {
  await repo.deleteSystemRow(exec, row.id);
  await onXmppServer(accounts, async (a) => {
    await a.delete(row.jidPbxagent);
    await a.delete(row.jidPbxpcg);
  });
}

/** Renames a system (another module's resource renamed through its own operation). */
export async function renameSystem(exec: Executor, id: string, name: string): Promise<repo.SystemRow | undefined> {
  return repo.updateSystemRow(exec, id, { name });
}

/** The settings of a create or update body, as columns. */
function settingsPatch(b: Static<typeof UpdateSystemBody>): Partial<repo.NewSystem> {
  const p: Partial<repo.NewSystem> = {};
  if (b.name !== undefined) p.name = b.name;
  if (b.country !== undefined) p.country = b.country;
  if (b.version !== undefined) p.version = b.version;
  if (b.type !== undefined) p.type = b.type;
  if (b.serverPingTimeout !== undefined) p.serverPingTimeout = b.serverPingTimeout;
  if (b.pbxMainBundlePrefix !== undefined)
    p.pbxMainBundlePrefix = typeof b.pbxMainBundlePrefix === 'string' ? [b.pbxMainBundlePrefix] : b.pbxMainBundlePrefix;
  if (b.usePbxMainBundlePrefix !== undefined) p.usePbxMainBundlePrefix = b.usePbxMainBundlePrefix;
  if (b.pbxNationalPrefix !== undefined) p.pbxNationalPrefix = b.pbxNationalPrefix;
  if (b.pbxInternationalPrefix !== undefined) p.pbxInternationalPrefix = b.pbxInternationalPrefix;
  if (b.pbxNumberingTranslator !== undefined) p.pbxNumberingTranslator = b.pbxNumberingTranslator;
  if (b.hasMediaPillar !== undefined) p.hasMediaPillar = b.hasMediaPillar;
  if (b.isShared !== undefined) p.isShared = b.isShared;
  if (b.isOxoManaged !== undefined) p.isOxoManaged = b.isOxoManaged;
  if (b.searchResultOrder !== undefined) p.searchResultOrder = [...new Set(b.searchResultOrder)];
  return p;
}

/** Document 3, update a system: the gateway is sent its `message` (document 1), in the transaction of the change. */
export async function updateSystem(
  db: Executor,
  target: repo.SystemRow,
  body: Static<typeof UpdateSystemBody>,
  now: Date,
) {
  // isCentrex, set at creation, is read-only: a move of a multi-tenant system is an unlink and a link.
  if (body.isCentrex !== undefined && body.isCentrex !== target.isCentrex)
    fail('SYSTEM_CENTREX_READ_ONLY', { isCentrex: target.isCentrex });
  // A CloudPBX (document 2) is made and deleted by the pbx module: its type stays.
  if (body.type !== undefined && body.type !== target.type && target.type === 'cloud_pbx')
    fail('SYSTEM_CLOUD_PBX_TYPE_READ_ONLY', { type: target.type });
  const patch = settingsPatch(body);
  if (body.status !== undefined && body.status !== target.status) {
    patch.status = body.status;
    patch.statusUpdatedDate = now;
  }
  return db.transaction(async (exec) => {
    const row = Object.keys(patch).length ? await repo.updateSystemRow(exec, target.id, patch) : target;
    if (!row) fail('NOT_FOUND', { target: 'system', id: target.id });
    await emit(exec, row.jidPbxpcg, systemChange('update', row));
    return toApiSystem(row);
  });
}

/**
 * Document 3, delete a system: the gateway is sent the `iq` of document 1 and, only after it
 * acknowledges, the system, its phone numbers (users linked to them are unlinked) and its accounts go.
 */
export async function deleteSystem(db: Executor, xmpp: SystemsXmpp, target: repo.SystemRow): Promise<void> {
  // A CloudPBX goes with its settings and its voice platform tenant: the pbx module's deleteCloudPbx.
  if (target.type === 'cloud_pbx') fail('SYSTEM_IS_CLOUD_PBX', { systemId: target.id });
  await askGateway(xmpp.request, target.jidPbxpcg, systemChange('delete', target));
  await db.transaction(async (exec) => {
    await repo.deleteSystemRow(exec, target.id);
    await onXmppServer(xmpp.accounts, async (a) => {
      await a.delete(target.jidPbxagent);
      await a.delete(target.jidPbxpcg);
    });
  });
}

/** Document 3, reset of the PBX agent password. */
export async function resetPbxAgentPassword(db: Executor, accounts: XmppAccounts | undefined, target: repo.SystemRow) {
  return db.transaction(async (exec) => {
    const row = await repo.updateSystemRow(exec, target.id, { jidPbxagentPassword: newSecret() });
    if (!row) fail('NOT_FOUND', { target: 'system', id: target.id });
    await onXmppServer(accounts, (a) => a.setPassword(row.jidPbxagent, row.jidPbxagentPassword));
    return toApiSystem(row);
  });
}

/**
 * Document 3, link a system to a site: linking an existing link is no error; the CENTREX rules
 * (43709); a system neither isShared nor isCentrex stays within its company.
 */
export async function linkSystemToSite(db: Executor, site: { id: string; companyId: string }, systemId: string) {
  return db.transaction(async (exec) => {
    const system = await repo.lockSystem(exec, systemId);
    if (!system) fail('NOT_FOUND', { target: 'system', id: systemId });
    if (system.siteIds.includes(site.id)) return toApiSystem(system);
    const company = await companyFacts(exec, site.companyId);
    await assertCentrexRules(exec, system, site.id, company?.isCentrex ?? false);
    if (!system.isShared && !system.isCentrex && site.companyId !== system.companyId)
      fail('SYSTEM_NOT_SHARED', { siteId: site.id, systemId });
    return toApiSystem(await repo.setSystemSites(exec, systemId, [...system.siteIds, site.id]));
  });
}

/** Document 3, unlink: the last site is detached only from an isShared or isCentrex system. */
export async function unlinkSystemFromSite(db: Executor, siteId: string, systemId: string): Promise<void> {
  await db.transaction(async (exec) => {
    const system = await repo.lockSystem(exec, systemId);
    // A system that is not linked to this site is not one of the site's systems.
    if (!system || !system.siteIds.includes(siteId)) fail('NOT_FOUND', { target: 'system', id: systemId });
    const rest = system.siteIds.filter((s) => s !== siteId);
    if (rest.length === 0 && !system.isShared && !system.isCentrex) fail('SYSTEM_LAST_SITE', { siteId, systemId });
    await repo.setSystemSites(exec, systemId, rest);
  });
}

/** Document 3, delete site: how many systems are linked to the site (its deletion is refused while any is). */
export function countSystemsOfSite(exec: Executor, siteId: string): Promise<number> {
  return repo.countSystemsOfSite(exec, siteId);
}

// Installed with the module (loaded with its operations): sites asks how many systems link a site (sites' hook).
systemsOfSite.provide(countSystemsOfSite);
