// Document 2, External SIP trunk, External trunks, and the externalTrunkId rules of "Further rules:
// Update CloudPBX" (issue 25, points 1 and 7). Decisions in docs/decisions.md, "CloudPBX: external trunks".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { externalTrunks } from '../../src/modules/pbx/trunks.tables.ts';
import { portRecords } from '../../src/ports/ports.tables.ts';
import { createPbx, PBXS, V } from './fixtures.ts';

const TRUNKS = `${V}/externaltrunks`;
const ALIAS = `${V}/external-trunks`;

let t: TestApp;
let bp: string;
let ec1: string;
let bp2: string;
let notBp: string;
let orgCompany: string;
let bpAdmin: MadeUser;
let bp2Admin: MadeUser;
let ec1Admin: MadeUser;
let orgAdmin: MadeUser;
let support: MadeUser;
let siteAdmin: MadeUser;
let ec1User: MadeUser;
/** A trunk of bp with both features, one of bp without them, one of bp2 (rb_trunk, active, another instance). */
let full: Record<string, any>;
let plain: Record<string, any>;
let other: Record<string, any>;

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

async function createTrunk(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await req('POST', TRUNKS, t.superToken, { vcpInstanceId: 'vcp-eu-1', trunkType: 'bp_trunk', ...body });
  if (res.statusCode !== 201) throw new Error(`createExternalTrunk: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

const trunkRow = async (id: string) => (await t.db.select().from(externalTrunks).where(eq(externalTrunks.id, id)))[0];
const pbxRow = async (id: string) => (await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, id)))[0];
/** The ids listed among the three trunks of beforeAll (other tests make trunks of their own). */
const listIds = async (token: string, query = '') => {
  const res = await req('GET', `${TRUNKS}?limit=1000${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  const known = new Set([full.id, plain.id, other.id]);
  return new Set<string>(
    res
      .json()
      .data.map((x: { id: string }) => x.id)
      .filter((id: string) => known.has(id)),
  );
};

beforeAll(async () => {
  t = await createTestApp();
  bp = await makeCompany(t, { name: 'Trunk BP', isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { name: 'Trunk EC', bpId: bp });
  bp2 = await makeCompany(t, { name: 'Trunk BP two', isBP: true, bpType: 'DR' });
  await makeCompany(t, { name: 'Trunk EC two', bpId: bp2 });
  notBp = await makeCompany(t, { name: 'Not a BP' });
  const made = await t.inject({
    method: 'POST',
    url: '/api/svc/admin/v1.0/organisations',
    headers: bearer(t.superToken),
    payload: { name: 'Trunk organisation' },
  });
  expect(made.statusCode, made.body).toBe(201);
  orgCompany = await makeCompany(t, { name: 'Trunk org company', bpId: bp, organisationId: made.json().data.id });
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  bp2Admin = await makeUser(t, bp2, ['bp_admin']);
  ec1Admin = await makeUser(t, ec1, ['company_admin']);
  orgAdmin = await makeUser(t, orgCompany, ['organization_admin']);
  support = await makeUser(t, notBp, ['support']);
  const site = await makeSite(t, ec1);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site });
  ec1User = await makeUser(t, ec1, []);
  full = await createTrunk({
    name: 'B full',
    bpIds: [bp],
    callForkingToPstnNumber: true,
    routeInternalCallsToPeerAllowed: true,
  });
  plain = await createTrunk({ name: 'A plain', bpIds: [bp] });
  other = await createTrunk({
    name: 'C other',
    bpIds: [bp2],
    trunkType: 'rb_trunk',
    status: 'active',
    vcpInstanceId: 'vcp-de-1',
  });
});
afterAll(() => t.close());

describe('doc 2, external trunks', () => {
  it('doc 2, External SIP trunk: created with every field of the document, numbers as strings; get answers the same', async () => {
    const res = await req('POST', TRUNKS, t.superToken, {
      name: 'Operator X',
      description: 'to operator X',
      customSipHeader_1: 'X-One',
      customSipHeader_2: 'X-Two',
      peerAuthenticationRealm: 'realm.example',
      bpIds: [bp, bp2],
      status: 'active',
      peeringGroupId: '12',
      resellerId: 34,
      vcpInstanceId: 'vcp-uk-1',
      trunkType: 'rb_trunk',
      routeInternalCallsToPeerAllowed: 'true',
      callForkingToPstnNumber: true,
      loadBalancerOptions: { policy: 'round_robin', loadBalancerId: 'lb1', loadBalancerHostName: 'lb.example' },
      unknownField: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    const trunk = res.json().data;
    expect(trunk).toMatchObject({
      name: 'Operator X',
      description: 'to operator X',
      customSipHeader_1: 'X-One',
      customSipHeader_2: 'X-Two',
      peerAuthenticationRealm: 'realm.example',
      bpIds: [bp, bp2],
      status: 'active',
      peeringGroupId: 12,
      resellerId: 34,
      vcpInstanceId: 'vcp-uk-1',
      trunkType: 'rb_trunk',
      routeInternalCallsToPeerAllowed: true,
      callForkingToPstnNumber: true,
      loadBalancerOptions: {
        policy: 'round_robin',
        loadBalancerId: 'lb1',
        loadBalancerHostName: 'lb.example',
        loadBalancerDisplayName: null,
        loadBalancerDescription: null,
      },
    });
    expect(trunk).not.toHaveProperty('unknownField');
    const got = await req('GET', `${TRUNKS}/${trunk.id}`, t.superToken);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toEqual(trunk);
  });

  it('doc 2, External SIP trunk: defaults status new, both features false, no load balancer', async () => {
    expect(plain).toMatchObject({
      status: 'new',
      routeInternalCallsToPeerAllowed: false,
      callForkingToPstnNumber: false,
      description: null,
      peeringGroupId: null,
      loadBalancerOptions: { policy: null, loadBalancerId: null },
    });
  });

  it('doc 2, External SIP trunk: invalid status or trunkType is 400 naming the field, nothing made', async () => {
    const before = (await t.db.select().from(externalTrunks)).length;
    for (const [fieldName, value] of [
      ['status', 'deleted'],
      ['trunkType', 'sip'],
    ] as const) {
      const res = await req('POST', TRUNKS, t.superToken, {
        name: 'Bad',
        vcpInstanceId: 'vcp-eu-1',
        trunkType: 'bp_trunk',
        [fieldName]: value,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(`/${fieldName}`);
    }
    const put = await req('PUT', `${TRUNKS}/${plain.id}`, t.superToken, { status: 'gone' });
    expect(put.statusCode, put.body).toBe(400);
    expect(put.body).toContain('/status');
    expect((await t.db.select().from(externalTrunks)).length).toBe(before);
  });

  it('doc 2, External SIP trunk: vcpInstanceId must be an instance of the service (400 naming it)', async () => {
    const res = await req('POST', TRUNKS, t.superToken, {
      name: 'Bad',
      vcpInstanceId: 'vcp-mars-1',
      trunkType: 'bp_trunk',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDetailsCode: 400840, errorDetails: { field: 'vcpInstanceId' } });
    const put = await req('PUT', `${TRUNKS}/${plain.id}`, t.superToken, { vcpInstanceId: 'vcp-mars-1' });
    expect(put.statusCode, put.body).toBe(400);
    expect((await trunkRow(plain.id)).vcpInstanceId).toBe('vcp-eu-1');
  });

  it('doc 2, External SIP trunk: bpIds are BP companies (a company that is no BP, or none, is 400 naming bpIds)', async () => {
    for (const bpIds of [[bp, notBp], ['no-such-company']]) {
      const res = await req('POST', TRUNKS, t.superToken, {
        name: 'Bad BPs',
        vcpInstanceId: 'vcp-eu-1',
        trunkType: 'bp_trunk',
        bpIds,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ errorDetailsCode: 400005, errorDetails: { field: 'bpIds' } });
    }
    const put = await req('PUT', `${TRUNKS}/${plain.id}`, t.superToken, { bpIds: [bp, ec1] });
    expect(put.statusCode, put.body).toBe(400);
    expect((await trunkRow(plain.id)).bpIds).toEqual([bp]);
  });

  it('routes.md: create, update and delete of a trunk are superadmin only (403 to those who see it, 404 to others)', async () => {
    const body = { name: 'Mine', vcpInstanceId: 'vcp-eu-1', trunkType: 'bp_trunk', bpIds: [bp] };
    for (const u of [bpAdmin, support, ec1Admin])
      expect((await req('POST', TRUNKS, u.token, body)).statusCode).toBe(403);
    for (const u of [bpAdmin, support, ec1Admin]) {
      expect((await req('PUT', `${TRUNKS}/${plain.id}`, u.token, { name: 'X' })).statusCode).toBe(403);
      expect((await req('DELETE', `${TRUNKS}/${plain.id}`, u.token)).statusCode).toBe(403);
    }
    // bp2's admin cannot see bp's trunk.
    expect((await req('PUT', `${TRUNKS}/${plain.id}`, bp2Admin.token, { name: 'X' })).statusCode).toBe(404);
    expect((await req('DELETE', `${TRUNKS}/${plain.id}`, bp2Admin.token)).statusCode).toBe(404);
    expect((await trunkRow(plain.id)).name).toBe('A plain');
  });

  it('doc 2, list external trunks: superadmin and support all; bp_admin those of its company; company_admin and organization_admin those of their BP; site_admin and user 403', async () => {
    for (const u of [t.superToken, support.token])
      expect(await listIds(u)).toEqual(new Set([full.id, plain.id, other.id]));
    expect(await listIds(bpAdmin.token)).toEqual(new Set([full.id, plain.id]));
    expect(await listIds(bp2Admin.token)).toEqual(new Set([other.id]));
    expect(await listIds(ec1Admin.token)).toEqual(new Set([full.id, plain.id]));
    expect(await listIds(orgAdmin.token)).toEqual(new Set([full.id, plain.id]));
    for (const u of [siteAdmin, ec1User]) expect((await req('GET', TRUNKS, u.token)).statusCode).toBe(403);
  });

  it('doc 2, get an external trunk: the same visibility as the list (404 outside it)', async () => {
    expect((await req('GET', `${TRUNKS}/${full.id}`, ec1Admin.token)).statusCode).toBe(200);
    expect((await req('GET', `${TRUNKS}/${full.id}`, support.token)).statusCode).toBe(200);
    expect((await req('GET', `${TRUNKS}/${full.id}`, bp2Admin.token)).statusCode).toBe(404);
    expect((await req('GET', `${TRUNKS}/${other.id}`, bpAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${TRUNKS}/no-such-trunk`, t.superToken)).statusCode).toBe(404);
  });

  it('routes.md: external-trunks is an alias of externaltrunks for list and get', async () => {
    const list = await req('GET', `${ALIAS}?limit=1000&trunkType=rb_trunk`, bp2Admin.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((x: { id: string }) => x.id)).toContain(other.id);
    const got = await req('GET', `${ALIAS}/${full.id}`, bpAdmin.token);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data.id).toBe(full.id);
  });

  it('doc 2, list external trunks: filters vcpInstanceId, status, trunkType, bpId; sorted by name; paged', async () => {
    expect(await listIds(t.superToken, '&vcpInstanceId=vcp-de-1')).toEqual(new Set([other.id]));
    expect(await listIds(t.superToken, '&status=active')).toEqual(new Set([other.id]));
    expect(await listIds(t.superToken, '&trunkType=bp_trunk')).toEqual(new Set([full.id, plain.id]));
    expect(await listIds(t.superToken, `&bpId=${bp2}`)).toEqual(new Set([other.id]));
    expect(await listIds(bpAdmin.token, `&bpId=${bp2}`)).toEqual(new Set());
    const bad = await req('GET', `${TRUNKS}?status=gone`, t.superToken);
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.body).toContain('status');
    // bp's trunks: 'A plain', 'B full', and 'Operator X' of the first test (of bp and bp2).
    const page = await req('GET', `${TRUNKS}?bpId=${bp}&limit=1&offset=1`, t.superToken);
    expect(page.json()).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.json().data.map((x: { name: string }) => x.name)).toEqual(['B full']);
    const desc = await req('GET', `${TRUNKS}?bpId=${bp}&sortOrder=-1`, t.superToken);
    expect(desc.json().data.map((x: { name: string }) => x.name)).toEqual(['Operator X', 'B full', 'A plain']);
  });

  it('doc 2, update an external trunk: the fields given; loadBalancerOptions merged, an empty one changes nothing', async () => {
    const trunk = await createTrunk({ name: 'To update', loadBalancerOptions: { policy: 'p1', loadBalancerId: 'a' } });
    const res = await req('PUT', `${TRUNKS}/${trunk.id}`, t.superToken, {
      name: 'Updated',
      description: 'now described',
      resellerId: '7',
      bpIds: [bp2],
      loadBalancerOptions: { loadBalancerId: 'b' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Updated',
      description: 'now described',
      resellerId: 7,
      bpIds: [bp2],
      trunkType: 'bp_trunk',
      loadBalancerOptions: { policy: 'p1', loadBalancerId: 'b' },
    });
    const same = await req('PUT', `${TRUNKS}/${trunk.id}`, t.superToken, { loadBalancerOptions: {} });
    expect(same.json().data.loadBalancerOptions).toMatchObject({ policy: 'p1', loadBalancerId: 'b' });
    const cleared = await req('PUT', `${TRUNKS}/${trunk.id}`, t.superToken, { description: null });
    expect(cleared.json().data.description).toBe(null);
  });

  it('doc 2, delete an external trunk: a trunk no CloudPBX links is deleted', async () => {
    const trunk = await createTrunk({ name: 'To delete' });
    const res = await req('DELETE', `${TRUNKS}/${trunk.id}`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(await trunkRow(trunk.id)).toBe(undefined);
    expect((await req('GET', `${TRUNKS}/${trunk.id}`, t.superToken)).statusCode).toBe(404);
  });

  it('issue 25: deleting a trunk a CloudPBX links is 409, nothing changed', async () => {
    const trunk = await createTrunk({ name: 'Linked', bpIds: [bp] });
    const companyId = await makeCompany(t, { bpId: bp });
    const pbx = await createPbx(t, companyId, { outgoingPrefix: '0', externalTrunkId: trunk.id });
    const res = await req('DELETE', `${TRUNKS}/${trunk.id}`, t.superToken);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errorDetailsCode: 409840 });
    expect(await trunkRow(trunk.id)).toBeDefined();
    expect((await pbxRow(pbx.id)).externalTrunkId).toBe(trunk.id);
  });

  it('docs/decisions.md: a trunk that loses a feature puts the CloudPBXs linking it back to not_available / false', async () => {
    const trunk = await createTrunk({
      name: 'Losing features',
      bpIds: [bp],
      callForkingToPstnNumber: true,
      routeInternalCallsToPeerAllowed: true,
    });
    const companyId = await makeCompany(t, { bpId: bp });
    const pbx = await createPbx(t, companyId, {
      outgoingPrefix: '0',
      externalTrunkId: trunk.id,
      callForkingToPstnNumber: 'activated',
      routeInternalCallsToPeer: true,
    });
    expect(pbx.cloudpbx).toMatchObject({ callForkingToPstnNumber: 'activated', routeInternalCallsToPeer: true });
    const res = await req('PUT', `${TRUNKS}/${trunk.id}`, t.superToken, {
      callForkingToPstnNumber: false,
      routeInternalCallsToPeerAllowed: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await pbxRow(pbx.id);
    expect({ forking: row.callForkingToPstnNumber, route: row.routeInternalCallsToPeer }).toEqual({
      forking: 'not_available',
      route: false,
    });
  });
});

describe('doc 2, update CloudPBX: externalTrunkId', () => {
  /** A CloudPBX of a new End Customer of bp, with or without an outgoing prefix. */
  const newPbx = async (body: Record<string, unknown> = {}) => createPbx(t, await makeCompany(t, { bpId: bp }), body);
  const put = (id: string, token: string, body: Record<string, unknown>) => req('PUT', `${PBXS}/${id}`, token, body);

  it('doc 2, update CloudPBX: superadmin links a trunk, with the outgoing prefix in the same request; answered and stored', async () => {
    const pbx = await newPbx();
    const res = await put(pbx.id, t.superToken, { externalTrunkId: full.id, outgoingPrefix: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cloudpbx).toMatchObject({ externalTrunkId: full.id, outgoingPrefix: '0' });
    expect((await req('GET', `${PBXS}/${pbx.id}`, t.superToken)).json().data.cloudpbx.externalTrunkId).toBe(full.id);
  });

  it('doc 2, update CloudPBX: a bp_admin links a trunk of its own company, the outgoing prefix set earlier', async () => {
    const pbx = await newPbx({ outgoingPrefix: '9' });
    const res = await put(pbx.id, bpAdmin.token, { externalTrunkId: plain.id });
    expect(res.statusCode, res.body).toBe(200);
    expect((await pbxRow(pbx.id)).externalTrunkId).toBe(plain.id);
  });

  it('doc 2, update CloudPBX: externalTrunkId is changed only by superadmin or bp_admin (403 to others, nothing changed); the value it holds passes', async () => {
    const pbx = await createPbx(t, ec1, { outgoingPrefix: '0' });
    for (const u of [ec1Admin]) {
      const res = await put(pbx.id, u.token, { externalTrunkId: plain.id, language: 'de' });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ errorDetailsCode: 403840 });
    }
    const row = await pbxRow(pbx.id);
    expect({ trunk: row.externalTrunkId, language: row.language }).toEqual({ trunk: null, language: 'en' });
    // Sending back what it read (null, then the linked trunk) is no change.
    expect((await put(pbx.id, ec1Admin.token, { externalTrunkId: null, language: 'de' })).statusCode).toBe(200);
    expect((await put(pbx.id, bpAdmin.token, { externalTrunkId: plain.id })).statusCode).toBe(200);
    const same = await put(pbx.id, ec1Admin.token, { externalTrunkId: plain.id, language: 'fr' });
    expect(same.statusCode, same.body).toBe(200);
    // Nor may it unlink.
    const unlink = await put(pbx.id, ec1Admin.token, { externalTrunkId: null });
    expect(unlink.statusCode, unlink.body).toBe(403);
    expect((await pbxRow(pbx.id)).externalTrunkId).toBe(plain.id);
  });

  it("doc 2, update CloudPBX: a bp_admin links only its own trunks (another BP's trunk is 400 naming externalTrunkId)", async () => {
    const pbx = await newPbx({ outgoingPrefix: '0' });
    const res = await put(pbx.id, bpAdmin.token, { externalTrunkId: other.id });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDetails: { field: 'externalTrunkId' } });
    expect((await pbxRow(pbx.id)).externalTrunkId).toBe(null);
  });

  it('doc 2, update CloudPBX: the trunk must exist (400 naming externalTrunkId)', async () => {
    const pbx = await newPbx({ outgoingPrefix: '0' });
    const res = await put(pbx.id, t.superToken, { externalTrunkId: 'no-such-trunk' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDetails: { field: 'externalTrunkId' } });
  });

  it('doc 2, update CloudPBX: a linked CloudPBX needs an outgoing prefix (400 naming outgoingPrefix, nothing changed)', async () => {
    const pbx = await newPbx();
    const res = await put(pbx.id, t.superToken, { externalTrunkId: full.id, language: 'it' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ errorDetailsCode: 400841, errorDetails: { field: 'outgoingPrefix' } });
    const row = await pbxRow(pbx.id);
    expect({ trunk: row.externalTrunkId, language: row.language }).toEqual({ trunk: null, language: 'en' });
  });

  it('doc 2, update CloudPBX: callForkingToPstnNumber activated / not_activated only with a trunk that has call forking; not_available always', async () => {
    const pbx = await newPbx({ outgoingPrefix: '0' });
    for (const value of ['activated', 'not_activated']) {
      const none = await put(pbx.id, t.superToken, { callForkingToPstnNumber: value });
      expect(none.statusCode, none.body).toBe(400);
      expect(none.json()).toMatchObject({
        errorDetailsCode: 400842,
        errorDetails: { field: 'callForkingToPstnNumber' },
      });
      const without = await put(pbx.id, t.superToken, { externalTrunkId: plain.id, callForkingToPstnNumber: value });
      expect(without.statusCode, without.body).toBe(400);
    }
    expect((await put(pbx.id, t.superToken, { callForkingToPstnNumber: 'not_available' })).statusCode).toBe(200);
    const ok = await put(pbx.id, t.superToken, { externalTrunkId: full.id, callForkingToPstnNumber: 'not_activated' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.cloudpbx.callForkingToPstnNumber).toBe('not_activated');
  });

  it('doc 2, update CloudPBX: routeInternalCallsToPeer true only with a trunk that allows it', async () => {
    const pbx = await newPbx({ outgoingPrefix: '0' });
    const none = await put(pbx.id, t.superToken, { routeInternalCallsToPeer: true });
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json()).toMatchObject({
      errorDetailsCode: 400843,
      errorDetails: { field: 'routeInternalCallsToPeer' },
    });
    const without = await put(pbx.id, t.superToken, { externalTrunkId: plain.id, routeInternalCallsToPeer: true });
    expect(without.statusCode, without.body).toBe(400);
    expect((await pbxRow(pbx.id)).externalTrunkId).toBe(null);
    expect((await put(pbx.id, t.superToken, { routeInternalCallsToPeer: false })).statusCode).toBe(200);
    const ok = await put(pbx.id, t.superToken, { externalTrunkId: full.id, routeInternalCallsToPeer: true });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.cloudpbx.routeInternalCallsToPeer).toBe(true);
  });

  it('doc 2, update CloudPBX: null unlinks; call forking goes back to not_available, routeInternalCallsToPeer to false', async () => {
    const pbx = await newPbx({ outgoingPrefix: '0' });
    const linked = await put(pbx.id, bpAdmin.token, {
      externalTrunkId: full.id,
      callForkingToPstnNumber: 'activated',
      routeInternalCallsToPeer: true,
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const res = await put(pbx.id, bpAdmin.token, { externalTrunkId: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cloudpbx).toMatchObject({
      externalTrunkId: null,
      callForkingToPstnNumber: 'not_available',
      routeInternalCallsToPeer: false,
    });
    // The trunk no CloudPBX links any more can go.
    const trunk = await createTrunk({ name: 'Unlinked later', bpIds: [bp] });
    await put(pbx.id, t.superToken, { externalTrunkId: trunk.id });
    await put(pbx.id, t.superToken, { externalTrunkId: null });
    expect((await req('DELETE', `${TRUNKS}/${trunk.id}`, t.superToken)).statusCode).toBe(200);
  });

  it('doc 2, create CloudPBX: the same rules; a company_admin may not link a trunk (403, no tenant made)', async () => {
    const companyId = await makeCompany(t, { bpId: bp });
    const admin = await makeUser(t, companyId, ['company_admin']);
    const res = await req('POST', PBXS, admin.token, { companyId, outgoingPrefix: '0', externalTrunkId: plain.id });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({ errorDetailsCode: 403840 });
    const tenants = await t.db
      .select()
      .from(portRecords)
      .where(and(eq(portRecords.port, 'voice'), eq(portRecords.kind, 'tenant'), eq(portRecords.parentId, companyId)));
    expect(tenants).toEqual([]);
    const noPrefix = await req('POST', PBXS, bpAdmin.token, { companyId, externalTrunkId: plain.id });
    expect(noPrefix.statusCode, noPrefix.body).toBe(400);
    expect(noPrefix.json()).toMatchObject({ errorDetailsCode: 400841 });
    const ok = await req('POST', PBXS, bpAdmin.token, {
      companyId,
      outgoingPrefix: '0',
      externalTrunkId: full.id,
      callForkingToPstnNumber: 'activated',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.cloudpbx).toMatchObject({ externalTrunkId: full.id, callForkingToPstnNumber: 'activated' });
  });
});
