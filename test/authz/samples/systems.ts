// Sample requests of the systems module, for the authorisation matrix (see ./types.ts).
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { sites } from '../../../src/modules/admin/sites/sites.tables.ts';
import { systems } from '../../../src/modules/systems/systems.tables.ts';
import { systemPhoneNumbers } from '../../../src/modules/systems/phone-numbers.tables.ts';
import type { Ctx, Sample } from './types.ts';

const A = '/api/svc/admin/v1.0';
const SYSTEMS = `${A}/systems`;

/** A shared system of the site's company linked to the site (so that unlinking is not refused as the last site). */
async function systemAt(ctx: Ctx, siteId: string, isShared: boolean): Promise<string> {
  const [site] = await ctx.t.db.select().from(sites).where(eq(sites.id, siteId));
  const id = newId();
  await ctx.t.db.insert(systems).values({
    id,
    name: `Sample system ${ctx.n}`,
    pbxId: `PBX${id}`,
    companyId: site.companyId,
    siteId,
    siteIds: isShared ? [siteId] : [],
    isShared,
    jidPbxagent: `pbxagent_${id}@localhost`,
    jidPbxagentPassword: 'secret',
    jidPbxpcg: `pbxpcg_${id}@localhost`,
    jidPbxpcgPassword: 'secret',
  });
  return id;
}

/** The system of a phone number (the path names it). */
async function systemOf(ctx: Ctx, phoneNumberId: string): Promise<string> {
  const [n] = await ctx.t.db
    .select({ systemId: systemPhoneNumbers.systemId })
    .from(systemPhoneNumbers)
    .where(eq(systemPhoneNumbers.id, phoneNumberId));
  return n?.systemId ?? 'none';
}

export const systemsSamples: Record<string, Sample> = {
  createSystem: {
    type: 'target',
    kind: 'site',
    fresh: false,
    request: (siteId, { n }) => ({ method: 'POST', url: SYSTEMS, payload: { siteId, name: `Matrix system ${n}` } }),
  },
  listSystems: {
    type: 'list',
    kind: 'system',
    request: (offset) => ({ method: 'GET', url: `${SYSTEMS}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((s: { id: string }) => s.id),
  },
  listSiteSystems: {
    type: 'target',
    kind: 'site',
    fresh: false,
    request: (siteId) => ({ method: 'GET', url: `${A}/sites/${siteId}/systems` }),
  },
  getSystem: {
    type: 'target',
    kind: 'system',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${SYSTEMS}/${id}?connectionHistory=true` }),
  },
  updateSystem: {
    type: 'target',
    kind: 'system',
    fresh: true,
    request: (id, { n }) => ({
      method: 'PUT',
      url: `${SYSTEMS}/${id}`,
      payload: { name: `Renamed system ${n}`, version: '12.1' },
    }),
  },
  deleteSystem: {
    type: 'target',
    kind: 'system',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${SYSTEMS}/${id}` }),
  },
  resetPbxAgentPassword: {
    type: 'target',
    kind: 'system',
    fresh: true,
    request: (id) => ({ method: 'POST', url: `${SYSTEMS}/${id}/reset-password` }),
  },
  // Linking a system of the site's own company (one the caller may read when he may manage the site).
  linkSystemToSite: {
    type: 'target',
    kind: 'site',
    fresh: true,
    defaultBody: { systemId: 'x' },
    request: async (siteId, ctx) => ({
      method: 'POST',
      url: `${A}/sites/${siteId}/systems`,
      payload: { systemId: ctx.t ? await systemAt(ctx, siteId, false) : 'x' },
    }),
  },
  unlinkSystemFromSite: {
    type: 'target',
    kind: 'site',
    fresh: true,
    request: async (siteId, ctx) => ({
      method: 'DELETE',
      url: `${A}/sites/${siteId}/systems/${await systemAt(ctx, siteId, true)}`,
    }),
  },
  listSystemPhoneNumbers: {
    type: 'target',
    kind: 'system',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${SYSTEMS}/${id}/phone-numbers?limit=10` }),
  },
  createSystemPhoneNumbers: {
    type: 'target',
    kind: 'system',
    fresh: true,
    request: (id) => ({
      method: 'POST',
      url: `${SYSTEMS}/${id}/phone-numbers`,
      payload: { phoneNumbers: [{ shortNumber: '2001', firstName: 'Ada', lastName: 'Lovelace' }] },
    }),
  },
  getSystemPhoneNumber: {
    type: 'target',
    kind: 'systemPhoneNumber',
    fresh: false,
    request: async (id, ctx) => ({ method: 'GET', url: `${SYSTEMS}/${await systemOf(ctx, id)}/phoneNumbers/${id}` }),
  },
  updateSystemPhoneNumber: {
    type: 'target',
    kind: 'systemPhoneNumber',
    fresh: true,
    defaultBody: { deviceName: 'Desk' },
    request: async (id, ctx) => ({
      method: 'PUT',
      url: `${SYSTEMS}/${await systemOf(ctx, id)}/phone-numbers/${id}`,
      payload: { deviceName: 'Desk', isMonitored: true },
    }),
  },
};
