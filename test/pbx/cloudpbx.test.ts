// Document 2, CloudPBX; routes.md, CloudPBX; issue 25, point 1 (and the CloudPBX parts of points
// 10 and 11). Decisions in docs/decisions.md, "CloudPBX".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { systems } from '../../src/modules/systems/systems.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { portRecords } from '../../src/ports/ports.tables.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { DEFAULT_VCP_INSTANCE, vcpInstanceFor } from '../../src/modules/pbx/pbx.instances.ts';
import { loadConfig } from '../../src/config.ts';
import { newId } from '../../src/shared/ids.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { seedSubscriber } from './fixtures.ts';

const V = '/api/svc/vcpprovisioning/v1.0';
const PBXS = `${V}/cloudpbxs`;
const SYSTEMS = '/api/svc/admin/v1.0/systems';

let t: TestApp;
// A BP with two End Customers, another BP with one, an organisation's company, an unrelated company.
let bp: string;
let ec1: string;
let ec2: string;
let otherBp: string;
let otherEc: string;
let orgCompany: string;
let site1: string;
let site1b: string;
let site2: string;
let bpAdmin: MadeUser;
let otherBpAdmin: MadeUser;
let orgAdmin: MadeUser;
let ec1Admin: MadeUser;
let siteAdmin: MadeUser;
let site1bAdmin: MadeUser;
let support: MadeUser;
let ec1User: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  bp = await makeCompany(t, { name: 'PBX BP', isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { name: 'PBX EC one', bpId: bp });
  ec2 = await makeCompany(t, { name: 'PBX EC two', bpId: bp });
  otherBp = await makeCompany(t, { name: 'Other BP', isBP: true, bpType: 'DR' });
  otherEc = await makeCompany(t, { name: 'Other EC', bpId: otherBp });
  const org = await t.inject({
    method: 'POST',
    url: '/api/svc/admin/v1.0/organisations',
    headers: bearer(t.superToken),
    payload: { name: 'PBX organisation' },
  });
  expect(org.statusCode, org.body).toBe(201);
  orgCompany = await makeCompany(t, { name: 'PBX org company', organisationId: org.json().data.id });
  site1 = await makeSite(t, ec1);
  site1b = await makeSite(t, ec1);
  site2 = await makeSite(t, ec2);
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  otherBpAdmin = await makeUser(t, otherBp, ['bp_admin']);
  orgAdmin = await makeUser(t, orgCompany, ['organization_admin']);
  ec1Admin = await makeUser(t, ec1, ['company_admin']);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1 });
  site1bAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1b });
  support = await makeUser(t, bp, ['support']);
  ec1User = await makeUser(t, ec1, []);
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

async function create(token: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await req('POST', PBXS, token, body);
  if (res.statusCode !== 201) throw new Error(`createCloudPbx: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** A company of the BP with a site, for a test that creates its CloudPBX. */
async function freshCompany(
  o: { country?: string; bpId?: string } = {},
): Promise<{ companyId: string; siteId: string }> {
  const companyId = await makeCompany(t, { bpId: o.bpId ?? bp });
  if (o.country) await t.db.update(companies).set({ country: o.country }).where(eq(companies.id, companyId));
  return { companyId, siteId: await makeSite(t, companyId) };
}

const tenants = (companyId: string) =>
  t.db
    .select()
    .from(portRecords)
    .where(and(eq(portRecords.port, 'voice'), eq(portRecords.kind, 'tenant'), eq(portRecords.parentId, companyId)));
const systemsOf = (companyId: string) => t.db.select().from(systems).where(eq(systems.companyId, companyId));

let pbx1: Record<string, any>;

describe('doc 2, create CloudPBX', () => {
  it('doc 2, create CloudPBX: the flat body of the original interface makes a system of type cloud_pbx at the site, its settings and its voice tenant', async () => {
    pbx1 = await create(ec1Admin.token, {
      companyId: ec1,
      bpId: bp,
      siteId: site1,
      name: 'Équipe PBX',
      numberingPrefixes: ['2'],
      numberingDigits: 4,
    });
    expect(pbx1).toMatchObject({
      type: 'cloud_pbx',
      name: 'Équipe PBX',
      latin_name: 'Equipe PBX',
      companyId: ec1,
      bpId: bp,
      siteId: [site1],
      country: 'FRA',
      vcpInstanceId: 'vcp-eu-1',
      status: 'created',
      blockedDate: null,
      cloudpbx: {
        numberingPrefix: '2',
        numberingPrefixes: ['2'],
        numberingDigits: 4,
        outgoingPrefix: null,
        language: 'en',
        externalTrunkId: null,
        callForkingToPstnNumber: 'not_available',
        overflowSubscribersToVoicemail: { activate: false, noReplyDelay: 20, activateUnavailableOverflow: false },
      },
    });
    expect(pbx1.jid_pbxagent).toBe(`pbxagent_${pbx1.id}@localhost`);
    expect(pbx1.jid_pbxpcg).toBe(`pbxpcg_${pbx1.id}@localhost`);
    expect(pbx1.jid_pbxagent_password.length).toBeGreaterThan(20);
    expect(pbx1.pbxId).toBe(`PBX${pbx1.id}`);
    // Its system row (type cloud_pbx) and its settings row, keyed by the system's id.
    const [system] = await t.db.select().from(systems).where(eq(systems.id, pbx1.id));
    expect({ type: system.type, companyId: system.companyId, siteId: system.siteId }).toEqual({
      type: 'cloud_pbx',
      companyId: ec1,
      siteId: site1,
    });
    const [settings] = await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, pbx1.id));
    expect(settings.numberingPrefixes).toEqual(['2']);
    // The company's tenant on the voice platform, whose id the CloudPBX shows as vcpNumber.
    const made = await tenants(ec1);
    expect(made.map((r) => r.id)).toEqual([pbx1.cloudpbx.vcpNumber]);
  });

  it('doc 2, CloudPBX is a system: GET /admin/v1.0/systems/{id} reads it as type cloud_pbx', async () => {
    const res = await req('GET', `${SYSTEMS}/${pbx1.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: pbx1.id, type: 'cloud_pbx', companyId: ec1, siteId: [site1] });
  });

  it('doc 3, delete site: the site of a CloudPBX is linked to a system, so its deletion is refused (409250)', async () => {
    const res = await req('DELETE', `/api/svc/admin/v1.0/sites/${site1}`, t.superToken);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409250);
  });

  it('doc 2, CloudPBX is a system: the admin paths neither change its type (400553) nor delete it (409552), nor make one (400)', async () => {
    const put = await req('PUT', `${SYSTEMS}/${pbx1.id}`, t.superToken, { type: 'oxe' });
    expect(put.statusCode, put.body).toBe(400);
    expect(put.json().errorDetailsCode).toBe(400553);
    const same = await req('PUT', `${SYSTEMS}/${pbx1.id}`, t.superToken, { version: '1' });
    expect(same.statusCode, same.body).toBe(200);
    const del = await req('DELETE', `${SYSTEMS}/${pbx1.id}`, t.superToken);
    expect(del.statusCode, del.body).toBe(409);
    expect(del.json().errorDetailsCode).toBe(409552);
    const made = await req('POST', SYSTEMS, t.superToken, { siteId: site1b, name: 'Not so', type: 'cloud_pbx' });
    expect(made.statusCode, made.body).toBe(400);
    expect((await req('GET', `${PBXS}/${pbx1.id}`, t.superToken)).json().data.type).toBe('cloud_pbx');
  });

  it('doc 2, create CloudPBX: one per company (409 in the error shape, nothing changed)', async () => {
    const before = { systems: (await systemsOf(ec1)).length, tenants: (await tenants(ec1)).length };
    const res = await req('POST', PBXS, t.superToken, { companyId: ec1, siteId: site1b, name: 'Second' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errorCode: 409, errorDetailsCode: 409800, errorDetails: { companyId: ec1 } });
    expect({ systems: (await systemsOf(ec1)).length, tenants: (await tenants(ec1)).length }).toEqual(before);
  });

  it('doc 2, create CloudPBX: one per company, also for two creations at once (201 and 409; one system, one tenant)', async () => {
    const { companyId, siteId } = await freshCompany();
    const both = await Promise.all([
      req('POST', PBXS, t.superToken, { companyId, siteId, name: 'First' }),
      req('POST', PBXS, bpAdmin.token, { companyId, siteId, name: 'Second' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await systemsOf(companyId)).length).toBe(1);
    // The refused creation's tenant, if it made one, is deleted again.
    expect((await tenants(companyId)).length).toBe(1);
  });

  it('clients of the original interface: numbers as strings, siteId as an array of one, unknown fields ignored', async () => {
    const { companyId, siteId } = await freshCompany();
    const pbx = await create(bpAdmin.token, {
      companyId,
      siteId: [siteId],
      name: 'Strings',
      numberingPrefixes: ['3', 4],
      numberingDigits: '3',
      noReplyDelay: '30',
      outgoingPrefix: 0,
      somethingElse: true,
    });
    expect(pbx.siteId).toEqual([siteId]);
    expect(pbx.cloudpbx).toMatchObject({
      numberingPrefixes: ['3', '4'],
      numberingPrefix: '3',
      numberingDigits: 3,
      outgoingPrefix: '0',
      externalTrunkId: null,
      overflowSubscribersToVoicemail: { noReplyDelay: 30 },
    });
    expect(pbx).not.toHaveProperty('somethingElse');
  });

  it('doc 2, create CloudPBX: numberingDigits is required when numberingPrefixes is given and not empty (400 naming the field, nothing made)', async () => {
    const { companyId, siteId } = await freshCompany();
    for (const body of [{ numberingPrefixes: ['2'] }, { numberingPrefix: '5' }]) {
      const res = await req('POST', PBXS, t.superToken, { companyId, siteId, ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ errorDetailsCode: 400800, errorDetails: { field: 'numberingDigits' } });
    }
    expect(await systemsOf(companyId)).toEqual([]);
    expect(await tenants(companyId)).toEqual([]);
    // An empty list needs no digits.
    const pbx = await create(t.superToken, { companyId, siteId, numberingPrefixes: [] });
    expect(pbx.cloudpbx).toMatchObject({ numberingPrefixes: [], numberingPrefix: null, numberingDigits: null });
  });

  it('doc 2, create CloudPBX: noReplyDelay 10 to 60, language among ro es it de fr en ar he nl, callForkingToPstnNumber among its three values (400)', async () => {
    const { companyId, siteId } = await freshCompany();
    for (const bad of [
      { noReplyDelay: 9 },
      { noReplyDelay: 61 },
      { language: 'pt' },
      { callForkingToPstnNumber: 'on' },
    ]) {
      const res = await req('POST', PBXS, t.superToken, { companyId, siteId, ...bad });
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(400);
    }
    expect(await tenants(companyId)).toEqual([]);
    const pbx = await create(t.superToken, { companyId, siteId, noReplyDelay: 60, language: 'he' });
    expect(pbx.cloudpbx).toMatchObject({ language: 'he', overflowSubscribersToVoicemail: { noReplyDelay: 60 } });
  });

  it('doc 2, create CloudPBX: the voice platform instance is chosen from the company country (docs/decisions.md table)', async () => {
    const expected: Record<string, string> = {
      FRA: 'vcp-eu-1',
      DEU: 'vcp-de-1',
      USA: 'vcp-na-1',
      JPN: DEFAULT_VCP_INSTANCE,
    };
    for (const [country, instance] of Object.entries(expected)) {
      const { companyId, siteId } = await freshCompany({ country });
      const pbx = await create(t.superToken, { companyId, siteId });
      expect({ country: pbx.country, instance: pbx.vcpInstanceId }).toEqual({ country, instance });
    }
  });

  it('doc 2, voice platform instance: PBX_VCP_INSTANCES overrides the table by country, and `*` the default', () => {
    const config = loadConfig({ PBX_VCP_INSTANCES: 'fra=vcp-fr-2, *=vcp-world-1' });
    expect(config.pbxVcpInstances).toEqual({ FRA: 'vcp-fr-2', '*': 'vcp-world-1' });
    expect(vcpInstanceFor('FRA', config.pbxVcpInstances)).toBe('vcp-fr-2');
    expect(vcpInstanceFor('DEU', config.pbxVcpInstances)).toBe('vcp-de-1');
    expect(vcpInstanceFor('JPN', config.pbxVcpInstances)).toBe('vcp-world-1');
    expect(vcpInstanceFor('JPN', {})).toBe(DEFAULT_VCP_INSTANCE);
    expect(() => loadConfig({ PBX_VCP_INSTANCES: 'France' })).toThrow();
  });

  it('doc 2, create CloudPBX: siteId names a site of the company (400005, no tenant made)', async () => {
    const { companyId } = await freshCompany();
    const res = await req('POST', PBXS, t.superToken, { companyId, siteId: site2 });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400005);
    expect(await tenants(companyId)).toEqual([]);
    expect(await systemsOf(companyId)).toEqual([]);
  });

  it('doc 2, create CloudPBX: the voice platform refusing the tenant is 502, nothing made', async () => {
    const { companyId, siteId } = await freshCompany();
    portsOf(t.deps).controls.voice.failNext = 1;
    const res = await req('POST', PBXS, t.superToken, { companyId, siteId });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().errorDetailsCode).toBe(502800);
    expect(await systemsOf(companyId)).toEqual([]);
    expect(await tenants(companyId)).toEqual([]);
  });

  it('doc 2, create CloudPBX with an Idempotency-Key: a replay answers the same CloudPBX, one made', async () => {
    const { companyId, siteId } = await freshCompany();
    const send = () =>
      t.inject({
        method: 'POST',
        url: PBXS,
        headers: { ...bearer(t.superToken), 'idempotency-key': `pbx-${companyId}` },
        payload: { companyId, siteId, name: 'Once' },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const again = await send();
    expect(again.json().data.id).toBe(first.json().data.id);
    expect((await systemsOf(companyId)).length).toBe(1);
    expect((await tenants(companyId)).length).toBe(1);
  });
});

describe('doc 2, get and list CloudPBXs', () => {
  let pbx2: Record<string, any>;
  let pbxOther: Record<string, any>;
  let pbxOrg: Record<string, any>;
  beforeAll(async () => {
    pbx2 = await create(t.superToken, { companyId: ec2, siteId: site2, name: 'EC two PBX' });
    pbxOther = await create(t.superToken, { companyId: otherEc, name: 'Other PBX' });
    pbxOrg = await create(orgAdmin.token, { companyId: orgCompany, name: 'Org PBX' });
  });

  it('doc 2, get CloudPBX: {data: CloudPBX} with every field, the secrets of its XMPP accounts included (as systems answer them)', async () => {
    const res = await req('GET', `${PBXS}/${pbx1.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(
      [
        'id',
        'pbxId',
        'name',
        'latin_name',
        'type',
        'siteId',
        'companyId',
        'bpId',
        'vcpInstanceId',
        'country',
        'status',
        'creationDate',
        'statusUpdatedDate',
        'blockedDate',
        'jid_pbxagent',
        'jid_pbxagent_password',
        'jid_pbxpcg',
        'jid_pbxpcg_password',
        'cloudpbx',
      ].sort(),
    );
    expect(Object.keys(data.cloudpbx).sort()).toEqual(
      [
        'outgoingPrefix',
        'numberingPrefix',
        'numberingPrefixes',
        'numberingDigits',
        'installationNumber',
        'installationNumberId',
        'domainName',
        'vcpNumber',
        'externalTrunkId',
        'language',
        'customSipHeader_1',
        'customSipHeader_2',
        'overflowSubscribersToVoicemail',
        'barringOptions',
        'cliOptions',
        'emergencyOptions',
        'callForwardOptions',
        'peerAuthenticationOptions',
        'allowCloudPbxRecording',
        'routeInternalCallsToPeer',
        'callForkingToPstnNumber',
        'monolineIncomingMode',
        'emulatedRingBackTone',
      ].sort(),
    );
    expect(data.jid_pbxpcg_password).toBe(pbx1.jid_pbxpcg_password);
  });

  it('doc 2, get CloudPBX: a system of another type is no CloudPBX (404)', async () => {
    const other = await req('POST', SYSTEMS, t.superToken, { siteId: site1b, name: 'An OXE' });
    expect(other.statusCode, other.body).toBe(201);
    const res = await req('GET', `${PBXS}/${other.json().data.id}`, t.superToken);
    expect(res.statusCode, res.body).toBe(404);
  });

  it('doc 2, list CloudPBXs: {data, limit, offset, total}; limit 100 by default, sorted by companyId ascending', async () => {
    const res = await req('GET', `${PBXS}?format=full`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect({ limit: body.limit, offset: body.offset, total: body.total >= 4 }).toEqual({
      limit: 100,
      offset: 0,
      total: true,
    });
    const ids: string[] = body.data.map((p: { companyId: string }) => p.companyId);
    expect(ids).toEqual([...ids].sort());
    const desc = (await req('GET', `${PBXS}?sortOrder=-1`, t.superToken)).json().data.map((p: any) => p.companyId);
    expect(desc).toEqual([...ids].reverse());
  });

  it('doc 2, list CloudPBXs: filters companyId (one or several, comma-separated) and bpId; paging by limit and offset', async () => {
    const one = (await req('GET', `${PBXS}?companyId=${ec1}`, t.superToken)).json();
    expect(one.data.map((p: any) => p.id)).toEqual([pbx1.id]);
    const two = (await req('GET', `${PBXS}?companyId=${ec1},${ec2}`, t.superToken)).json();
    expect(two.data.map((p: any) => p.id).sort()).toEqual([pbx1.id, pbx2.id].sort());
    const ofOtherBp = (await req('GET', `${PBXS}?bpId=${otherBp}`, t.superToken)).json();
    expect({ ids: ofOtherBp.data.map((p: any) => p.id), total: ofOtherBp.total }).toEqual({
      ids: [pbxOther.id],
      total: 1,
    });
    const all = (await req('GET', `${PBXS}?limit=1000`, t.superToken)).json();
    const page = (await req('GET', `${PBXS}?limit=2&offset=1`, t.superToken)).json();
    expect({ ids: page.data.map((p: any) => p.id), total: page.total, limit: page.limit, offset: page.offset }).toEqual(
      {
        ids: all.data.slice(1, 3).map((p: any) => p.id),
        total: all.total,
        limit: 2,
        offset: 1,
      },
    );
    const beyond = (await req('GET', `${PBXS}?offset=${all.total + 5}`, t.superToken)).json();
    expect({ data: beyond.data, total: beyond.total }).toEqual({ data: [], total: all.total });
  });

  it('doc 2, list CloudPBXs: small by default (no secrets); each caller sees the CloudPBXs his role reaches', async () => {
    const small = (await req('GET', `${PBXS}?companyId=${ec1}`, t.superToken)).json().data[0];
    expect(small).not.toHaveProperty('jid_pbxagent_password');
    const seen = async (u: MadeUser) =>
      new Set((await req('GET', `${PBXS}?limit=1000`, u.token)).json().data.map((p: any) => p.id));
    const bpSees = await seen(bpAdmin);
    expect([bpSees.has(pbx1.id), bpSees.has(pbx2.id), bpSees.has(pbxOther.id), bpSees.has(pbxOrg.id)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([...(await seen(otherBpAdmin))]).toEqual([pbxOther.id]);
    expect([...(await seen(orgAdmin))]).toEqual([pbxOrg.id]);
    expect([...(await seen(ec1Admin))]).toEqual([pbx1.id]);
    expect([...(await seen(siteAdmin))]).toEqual([pbx1.id]);
    expect([...(await seen(site1bAdmin))]).toEqual([]);
    expect((await seen(support)).has(pbxOther.id)).toBe(true);
    expect((await req('GET', PBXS, ec1User.token)).statusCode).toBe(403);
  });
});

describe('doc 2, roles on one CloudPBX', () => {
  it('doc 2, reads: superadmin, support, bp_admin of its End Customer, company_admin, site_admin of its site; others 404', async () => {
    const get = async (u: MadeUser | string) =>
      (await req('GET', `${PBXS}/${pbx1.id}`, typeof u === 'string' ? u : u.token)).statusCode;
    expect(await get(t.superToken)).toBe(200);
    expect(await get(support)).toBe(200);
    expect(await get(bpAdmin)).toBe(200);
    expect(await get(ec1Admin)).toBe(200);
    expect(await get(siteAdmin)).toBe(200);
    expect(await get(site1bAdmin)).toBe(404);
    expect(await get(otherBpAdmin)).toBe(404);
    expect(await get(orgAdmin)).toBe(404);
    expect(await get(ec1User)).toBe(404);
  });

  it('doc 2, writes: support and site_admin refused (403, they see it); out of scope 404; nothing changed', async () => {
    for (const u of [support, siteAdmin]) {
      expect((await req('PUT', `${PBXS}/${pbx1.id}`, u.token, { name: 'No' })).statusCode).toBe(403);
      expect((await req('DELETE', `${PBXS}/${pbx1.id}`, u.token)).statusCode).toBe(403);
    }
    for (const u of [otherBpAdmin, orgAdmin, site1bAdmin]) {
      expect((await req('PUT', `${PBXS}/${pbx1.id}`, u.token, { name: 'No' })).statusCode).toBe(404);
      expect((await req('DELETE', `${PBXS}/${pbx1.id}`, u.token)).statusCode).toBe(404);
    }
    const [system] = await t.db.select().from(systems).where(eq(systems.id, pbx1.id));
    expect(system.name).toBe('Équipe PBX');
  });

  it('doc 2, create: support and site_admin refused (403); a company out of the caller’s scope 404; bp_admin and organization_admin for their companies', async () => {
    const { companyId, siteId } = await freshCompany();
    const siteAdminThere = await makeUser(t, companyId, ['site_admin'], { siteId });
    expect((await req('POST', PBXS, support.token, { companyId, siteId })).statusCode).toBe(403);
    expect((await req('POST', PBXS, siteAdminThere.token, { companyId, siteId })).statusCode).toBe(403);
    expect((await req('POST', PBXS, otherBpAdmin.token, { companyId, siteId })).statusCode).toBe(404);
    expect((await req('POST', PBXS, orgAdmin.token, { companyId, siteId })).statusCode).toBe(404);
    expect(await tenants(companyId)).toEqual([]);
    const pbx = await create(bpAdmin.token, { companyId, siteId });
    expect(pbx.companyId).toBe(companyId);
  });
});

describe('doc 2, update CloudPBX', () => {
  it('doc 2, update CloudPBX: name (its system too), language, numbering, outgoing prefix, options; numbers as strings', async () => {
    const res = await req('PUT', `${PBXS}/${pbx1.id}`, bpAdmin.token, {
      name: 'Renamed',
      language: 'fr',
      numberingPrefixes: ['4', '5'],
      numberingDigits: '3',
      outgoingPrefix: '9',
      customSipHeader_1: 'X-One',
      monolineIncomingMode: true,
      barringOptions: { restrictions: 'surcharged_numbers' },
      callForwardOptions: { externalCallForward: 'not_authorized' },
      emergencyOptions: { emergencyGroupActivated: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Renamed',
      cloudpbx: {
        language: 'fr',
        numberingPrefixes: ['4', '5'],
        numberingPrefix: '4',
        numberingDigits: 3,
        outgoingPrefix: '9',
        customSipHeader_1: 'X-One',
        monolineIncomingMode: true,
        externalTrunkId: null,
        barringOptions: { permissions: 'int_nat_local', restrictions: 'surcharged_numbers' },
        callForwardOptions: { externalCallForward: 'not_authorized' },
        emergencyOptions: { callAuthorizationWithSoftPhone: false, emergencyGroupActivated: true },
      },
    });
    const system = await req('GET', `${SYSTEMS}/${pbx1.id}`, t.superToken);
    expect(system.json().data.name).toBe('Renamed');
  });

  it('doc 2, update CloudPBX: numberingDigits is required when numberingPrefixes is given and not empty (400 naming the field, nothing changed)', async () => {
    const res = await req('PUT', `${PBXS}/${pbx1.id}`, ec1Admin.token, { numberingPrefixes: ['7'], language: 'de' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDetailsCode: 400800, errorDetails: { field: 'numberingDigits' } });
    const now = (await req('GET', `${PBXS}/${pbx1.id}`, ec1Admin.token)).json().data.cloudpbx;
    expect({ prefixes: now.numberingPrefixes, language: now.language }).toEqual({
      prefixes: ['4', '5'],
      language: 'fr',
    });
  });

  it('doc 2, update CloudPBX: numberingPrefix alone replaces the first prefix, with the stored digits', async () => {
    const res = await req('PUT', `${PBXS}/${pbx1.id}`, ec1Admin.token, { numberingPrefix: 6 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cloudpbx).toMatchObject({
      numberingPrefix: '6',
      numberingPrefixes: ['6', '5'],
      numberingDigits: 3,
    });
  });

  it('clients of the original interface: empty nested objects on update change nothing', async () => {
    const before = (await req('GET', `${PBXS}/${pbx1.id}`, ec1Admin.token)).json().data;
    const res = await req('PUT', `${PBXS}/${pbx1.id}`, ec1Admin.token, {
      barringOptions: {},
      callForwardOptions: {},
      emergencyOptions: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(before);
  });
});

describe('doc 2, delete CloudPBX', () => {
  it('doc 2, delete CloudPBX: {status, data: []}; its settings, its system and its voice tenant go', async () => {
    const { companyId, siteId } = await freshCompany();
    const pbx = await create(t.superToken, { companyId, siteId });
    expect((await tenants(companyId)).length).toBe(1);
    const res = await req('DELETE', `${PBXS}/${pbx.id}`, bpAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: `CloudPBX ${pbx.id} deleted`, data: [] });
    expect(await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, pbx.id))).toEqual([]);
    expect(await systemsOf(companyId)).toEqual([]);
    expect(await tenants(companyId)).toEqual([]);
    expect((await req('GET', `${PBXS}/${pbx.id}`, t.superToken)).statusCode).toBe(404);
    expect((await req('GET', `${SYSTEMS}/${pbx.id}`, t.superToken)).statusCode).toBe(404);
    // The company may have a CloudPBX again.
    await create(t.superToken, { companyId, siteId });
  });

  it('doc 2, delete CloudPBX: forceDelete=true deletes an empty one too', async () => {
    const { companyId } = await freshCompany();
    const pbx = await create(t.superToken, { companyId });
    const res = await req('DELETE', `${PBXS}/${pbx.id}?forceDelete=true`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(await systemsOf(companyId)).toEqual([]);
  });

  it('doc 2, delete CloudPBX: without forceDelete, refused (409823) while a subscriber, a DDI number or a SIP device exists; nothing deleted', async () => {
    for (const attach of ['subscriber', 'ddi', 'device'] as const) {
      const { companyId } = await freshCompany();
      const pbx = await create(t.superToken, { companyId });
      if (attach === 'subscriber') await seedSubscriber(t, pbx.id, (await makeUser(t, companyId)).id, '2001');
      if (attach === 'ddi') {
        const number = `+3319${String(Date.now()).slice(-7)}`;
        await t.db.insert(ddis).values({ id: newId(), cloudPbxId: pbx.id, number, numberE164: number });
      }
      if (attach === 'device')
        await t.db.insert(devices).values({
          id: newId(),
          cloudPbxId: pbx.id,
          description: 'Desk',
          deviceTypeId: 999999,
          sipUsername: `del-${newId()}`,
          adminPassword: 'x',
        });
      for (const q of ['', '?forceDelete=false']) {
        const res = await req('DELETE', `${PBXS}/${pbx.id}${q}`, t.superToken);
        expect(res.statusCode, `${attach}: ${res.body}`).toBe(409);
        expect(res.json().errorDetailsCode).toBe(409823);
      }
      expect((await req('GET', `${PBXS}/${pbx.id}`, t.superToken)).statusCode).toBe(200);
      expect((await tenants(companyId)).length).toBe(1);
    }
  });

  it('doc 2, delete CloudPBX: forceDelete=true deletes its subscribers, DDI numbers and devices, on the voice platform too; the company, numbers and MAC address are free again', async () => {
    const { companyId } = await freshCompany();
    const pbx = await create(t.superToken, { companyId });
    const voice = portsOf(t.deps).voice;
    const subscriberId = await seedSubscriber(t, pbx.id, (await makeUser(t, companyId)).id, '2001');
    const number = `+3318${String(Date.now()).slice(-7)}`;
    await t.db.insert(ddis).values({ id: newId(), cloudPbxId: pbx.id, number, numberE164: number });
    const deviceId = newId();
    await t.db.insert(devices).values({
      id: deviceId,
      cloudPbxId: pbx.id,
      description: 'Desk',
      macAddress: '00:aa:bb:cc:dd:01',
      deviceTypeId: 1,
      subscriberId,
      sipUsername: `del-${deviceId}`,
      adminPassword: 'x',
    });
    await voice.createDeviceAccount({
      tenantId: pbx.cloudpbx.vcpNumber,
      deviceId,
      username: `del-${deviceId}`,
      password: 'Secret-123',
    });
    const res = await req('DELETE', `${PBXS}/${pbx.id}?forceDelete=true`, bpAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.db.select().from(subscribers).where(eq(subscribers.cloudPbxId, pbx.id))).toEqual([]);
    expect(await t.db.select().from(ddis).where(eq(ddis.numberE164, number))).toEqual([]);
    expect(await t.db.select().from(devices).where(eq(devices.id, deviceId))).toEqual([]);
    expect(await tenants(companyId)).toEqual([]);
    expect(await voice.listSubscribers(pbx.cloudpbx.vcpNumber)).toEqual([]);
    expect(await voice.getDeviceAccount(deviceId)).toBe(undefined);
    // The company may have a CloudPBX again; the number and the MAC address may be used again.
    const again = await create(t.superToken, { companyId });
    await t.db.insert(ddis).values({ id: newId(), cloudPbxId: again.id, number, numberE164: number });
    await t.db.insert(devices).values({
      id: newId(),
      cloudPbxId: again.id,
      description: 'Desk',
      macAddress: '00:aa:bb:cc:dd:01',
      deviceTypeId: 1,
      sipUsername: `del-${newId()}`,
      adminPassword: 'x',
    });
  });

  it('doc 2, delete CloudPBX: two deletes at once delete it once (200 and 404)', async () => {
    const { companyId } = await freshCompany();
    const pbx = await create(t.superToken, { companyId });
    const both = await Promise.all([
      req('DELETE', `${PBXS}/${pbx.id}`, t.superToken),
      req('DELETE', `${PBXS}/${pbx.id}`, bpAdmin.token),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(await systemsOf(companyId)).toEqual([]);
    expect(await tenants(companyId)).toEqual([]);
  });

  it('doc 2, delete CloudPBX: the voice platform refusing is 502, nothing deleted', async () => {
    const { companyId } = await freshCompany();
    const pbx = await create(t.superToken, { companyId });
    portsOf(t.deps).controls.voice.failNext = 1;
    const res = await req('DELETE', `${PBXS}/${pbx.id}`, t.superToken);
    expect(res.statusCode, res.body).toBe(502);
    expect((await req('GET', `${PBXS}/${pbx.id}`, t.superToken)).statusCode).toBe(200);
    expect((await tenants(companyId)).length).toBe(1);
  });
});
