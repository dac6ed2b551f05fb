// Document 2, CloudPBX: options and reference data of a CloudPBX; routes.md, CloudPBX; issue 25,
// point 2. Decisions in docs/decisions.md, "CloudPBX: options and reference data".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { EMERGENCY_NUMBERS_BY_COUNTRY, GENERIC_SIP_MODEL_ID } from '../../src/modules/pbx/options.data.ts';
import { DEFAULT_SIP_DOMAIN } from '../../src/ports/voice/device-accounts.ts';
import { pbxWorld, type PbxWorld } from './fixtures.ts';

const V = '/api/svc/vcpprovisioning/v1.0';
const PBXS = `${V}/cloudpbxs`;

let t: TestApp;
let w: PbxWorld;
let pbx: Record<string, any>;
let C: string;

const req = (method: 'GET' | 'PUT', url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

async function createPbx(companyId: string, siteId: string): Promise<Record<string, any>> {
  const res = await t.inject({
    method: 'POST',
    url: PBXS,
    headers: bearer(t.superToken),
    payload: { companyId, siteId },
  });
  if (res.statusCode !== 201) throw new Error(`createCloudPbx: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await pbxWorld(t, 'Options');
  pbx = await createPbx(w.ec1, w.site1);
  C = `${PBXS}/${pbx.id}`;
});
afterAll(() => t.close());

describe('doc 2, languages', () => {
  it('doc 2, languages: the nine codes (ro es it de fr en ar he nl) with their names', async () => {
    const res = await req('GET', `${C}/languages`, w.siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    const data: { code: string; description: string }[] = res.json().data;
    expect(data.map((l) => l.code)).toEqual(['ro', 'es', 'it', 'de', 'fr', 'en', 'ar', 'he', 'nl']);
    expect(data.find((l) => l.code === 'fr')?.description).toBe('French');
    expect(data.every((l) => l.description.length > 0)).toBe(true);
  });
});

describe('doc 2, barring options', () => {
  it('doc 2, barring option lists: permissions local, nat_local, int_nat_local; restrictions no_restriction, surcharged_numbers, custom_numbers', async () => {
    const res = await req('GET', `${C}/barring-options`, w.ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const { permissions, restrictions } = res.json().data;
    expect(permissions.map((o: { id: string }) => o.id)).toEqual(['local', 'nat_local', 'int_nat_local']);
    expect(restrictions.map((o: { id: string }) => o.id)).toEqual([
      'no_restriction',
      'surcharged_numbers',
      'custom_numbers',
    ]);
  });

  it('doc 2, custom numbers: none at first; PUT replaces the complete set ({data: {patterns}, status})', async () => {
    const empty = await req('GET', `${C}/barring-options/custom-numbers-restriction`, w.ec1Admin.token);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toEqual({ data: { patterns: [] } });
    const first = [
      { pattern: '^0899', description: 'premium' },
      { pattern: '^\\+44[0-9]+$', description: 'UK' },
    ];
    const put = await req('PUT', `${C}/barring-options/custom-numbers-restriction`, w.bpAdmin.token, {
      patterns: first,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ patterns: first });
    expect(typeof put.json().status).toBe('string');
    const second = [{ pattern: '^3[0-9]{3}$', description: 'short codes' }];
    await req('PUT', `${C}/barring-options/custom-numbers-restriction`, w.ec1Admin.token, { patterns: second });
    const now = await req('GET', `${C}/barring-options/custom-numbers-restriction`, w.siteAdmin.token);
    expect(now.json().data).toEqual({ patterns: second });
  });

  it('doc 2, custom numbers: each pattern a valid regular expression (400 naming the field and index, nothing changed)', async () => {
    const before = (await req('GET', `${C}/barring-options/custom-numbers-restriction`, w.ec1Admin.token)).json().data;
    const res = await req('PUT', `${C}/barring-options/custom-numbers-restriction`, w.ec1Admin.token, {
      patterns: [
        { pattern: '^08', description: 'fine' },
        { pattern: '^(08', description: 'unbalanced' },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      errorDetailsCode: 400801,
      errorDetails: { field: 'patterns[1].pattern', index: 1 },
    });
    const after = (await req('GET', `${C}/barring-options/custom-numbers-restriction`, w.ec1Admin.token)).json().data;
    expect(after).toEqual(before);
  });

  it('doc 2, custom numbers: patterns required; a pattern bounded in length, the set in count (400)', async () => {
    const put = (body: unknown) =>
      req('PUT', `${C}/barring-options/custom-numbers-restriction`, w.ec1Admin.token, body);
    expect((await put({})).statusCode).toBe(400);
    expect((await put({ patterns: [{ pattern: 'x'.repeat(201), description: 'long' }] })).statusCode).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => ({ pattern: `^${i}`, description: '' }));
    expect((await put({ patterns: many })).statusCode).toBe(400);
    expect((await put({ patterns: [] })).statusCode).toBe(200);
  });
});

describe('doc 2, CLI options', () => {
  it('doc 2, CLI options: GET answers policy, numberE164, userCanManageItsCli, companyNumberCanBeSelectedByUserAsCli', async () => {
    const res = await req('GET', `${C}/cli-options`, w.siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      policy: 'installation_ddi_number',
      numberE164: null,
      userCanManageItsCli: false,
      companyNumberCanBeSelectedByUserAsCli: false,
    });
  });

  it('doc 2, update CLI options: the fields given change, absent ones stay; answers {data: CloudPBX}', async () => {
    const res = await req('PUT', `${C}/cli-options`, w.ec1Admin.token, { policy: 'user_ddi_number' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.id).toBe(pbx.id);
    expect(res.json().data.cloudpbx.cliOptions).toEqual({
      policy: 'user_ddi_number',
      userCanManageItsCli: false,
      companyNumberCanBeSelectedByUserAsCli: false,
    });
    await req('PUT', `${C}/cli-options`, w.ec1Admin.token, { userCanManageItsCli: true });
    const now = await req('GET', `${C}/cli-options`, w.ec1Admin.token);
    expect(now.json().data).toMatchObject({ policy: 'user_ddi_number', userCanManageItsCli: true });
  });

  it('doc 2, update CLI options: policy among installation_ddi_number and user_ddi_number (400)', async () => {
    const res = await req('PUT', `${C}/cli-options`, w.ec1Admin.token, { policy: 'anything' });
    expect(res.statusCode, res.body).toBe(400);
  });
});

describe('doc 2, peer authentication', () => {
  it('doc 2, peer authentication: nulls until set; PUT answers {data: {username, password, realm}, status}, GET reads it back', async () => {
    const unset = await req('GET', `${C}/peer-authentication-options`, w.ec1Admin.token);
    expect(unset.statusCode, unset.body).toBe(200);
    expect(unset.json().data).toEqual({ username: null, password: null, realm: null });
    const put = await req('PUT', `${C}/peer-authentication-options`, w.ec1Admin.token, {
      username: 'peer-one',
      password: 'S3cret-peer!',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ username: 'peer-one', password: 'S3cret-peer!', realm: DEFAULT_SIP_DOMAIN });
    expect(typeof put.json().status).toBe('string');
    const get = await req('GET', `${C}/peer-authentication-options`, w.ec1Admin.token);
    expect(get.json().data).toEqual({ username: 'peer-one', password: 'S3cret-peer!', realm: DEFAULT_SIP_DOMAIN });
  });

  it('doc 2, peer authentication: the password is a secret, stored sealed and never in the CloudPBX (get, list, medium)', async () => {
    const [row] = await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, pbx.id));
    expect(JSON.stringify(row.peerAuthenticationOptions)).not.toContain('S3cret-peer!');
    for (const url of [C, `${C}?format=medium`, `${PBXS}?format=full`, `${PBXS}?format=medium`]) {
      const res = await req('GET', url, w.ec1Admin.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain('S3cret-peer!');
    }
    const full = (await req('GET', C, w.ec1Admin.token)).json().data;
    expect(full.cloudpbx.peerAuthenticationOptions).toEqual({
      username: 'peer-one',
      password: null,
      realm: DEFAULT_SIP_DOMAIN,
    });
  });

  it('doc 2, update peer authentication: username and password both required (400, nothing changed)', async () => {
    for (const body of [{ username: 'only' }, { password: 'only' }, {}]) {
      const res = await req('PUT', `${C}/peer-authentication-options`, w.ec1Admin.token, body);
      expect(res.statusCode, res.body).toBe(400);
    }
    const get = await req('GET', `${C}/peer-authentication-options`, w.ec1Admin.token);
    expect(get.json().data.username).toBe('peer-one');
  });
});

describe('doc 2, overflow options', () => {
  it('doc 2, update overflow: activate, activateUnavailableOverflow, noReplyDelay; read back under cloudpbx.overflowSubscribersToVoicemail', async () => {
    const res = await req('PUT', `${C}/overflow-options`, w.ec1Admin.token, { activate: true, noReplyDelay: 45 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cloudpbx.overflowSubscribersToVoicemail).toEqual({
      activate: true,
      noReplyDelay: 45,
      activateUnavailableOverflow: false,
    });
    await req('PUT', `${C}/overflow-options`, w.ec1Admin.token, { activateUnavailableOverflow: true });
    const now = (await req('GET', C, w.siteAdmin.token)).json().data;
    expect(now.cloudpbx.overflowSubscribersToVoicemail).toEqual({
      activate: true,
      noReplyDelay: 45,
      activateUnavailableOverflow: true,
    });
  });

  it('doc 2, update overflow: noReplyDelay 10 to 60 (400, nothing changed)', async () => {
    for (const noReplyDelay of [9, 61]) {
      const res = await req('PUT', `${C}/overflow-options`, w.ec1Admin.token, { noReplyDelay });
      expect(res.statusCode, res.body).toBe(400);
    }
    const now = (await req('GET', C, w.ec1Admin.token)).json().data;
    expect(now.cloudpbx.overflowSubscribersToVoicemail.noReplyDelay).toBe(45);
  });
});

describe('doc 2, emergency numbers', () => {
  it('doc 2, emergency numbers: a FRA CloudPBX includes 112 (and 15, 17, 18, 114), with its emergency options and outgoing prefix', async () => {
    await req('PUT', C, w.ec1Admin.token, { outgoingPrefix: '0', emergencyOptions: { emergencyGroupActivated: true } });
    const res = await req('GET', `${C}/emergency-numbers`, w.siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(pbx.country).toBe('FRA');
    const numbers = data.emergencyNumbers.map((n: { number: string }) => n.number);
    for (const n of ['112', '15', '17', '18', '114']) expect(numbers).toContain(n);
    expect(data.outgoingPrefix).toBe('0');
    expect(data.emergencyOptions).toEqual({ callAuthorizationWithSoftPhone: false, emergencyGroupActivated: true });
  });

  it('doc 2, emergency numbers: by the CloudPBX’s country (DEU 110, USA 911, GBR 999); a country not in the table gets 112', async () => {
    const expected: Record<string, string> = { DEU: '110', USA: '911', GBR: '999', BRA: '112' };
    for (const [country, number] of Object.entries(expected)) {
      const companyId = await makeCompany(t, { bpId: w.bp });
      await t.db.update(companies).set({ country }).where(eq(companies.id, companyId));
      const other = await createPbx(companyId, await makeSite(t, companyId));
      const res = await req('GET', `${PBXS}/${other.id}/emergency-numbers`, t.superToken);
      expect(res.statusCode, res.body).toBe(200);
      const numbers = res.json().data.emergencyNumbers.map((n: { number: string }) => n.number);
      expect(numbers).toContain(number);
      if (country === 'BRA') expect(numbers).toEqual(['112']);
    }
    for (const c of ['FRA', 'DEU', 'ESP', 'ITA', 'GBR', 'USA', 'BEL', 'NLD', 'CHE'])
      expect(EMERGENCY_NUMBERS_BY_COUNTRY[c]?.length ?? 0).toBeGreaterThan(0);
  });
});

describe('doc 2, device models', () => {
  it('doc 2, device models: the generic SIP model 999999 with 0 keys, and desk phones with their keys', async () => {
    const res = await req('GET', `${C}/devicemodels`, w.siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    const models: Record<string, any>[] = res.json().data;
    const generic = models.find((m) => m.id === GENERIC_SIP_MODEL_ID);
    expect(generic).toMatchObject({ programmableKeys: 0, keys: [] });
    const desk = models.filter((m) => m.programmableKeys > 0);
    expect(desk.length).toBeGreaterThan(2);
    for (const m of desk) {
      expect(m.keys.length).toBe(m.programmableKeys);
      expect(Number.isInteger(m.id)).toBe(true);
    }
  });

  it('doc 2, get a device model: {data: [Device model]} (an array of one); an unknown id 404', async () => {
    const res = await req('GET', `${C}/devicemodels/${GENERIC_SIP_MODEL_ID}`, w.ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toHaveLength(1);
    expect(res.json().data[0]).toMatchObject({ id: GENERIC_SIP_MODEL_ID, programmableKeys: 0 });
    const unknown = await req('GET', `${C}/devicemodels/424242`, w.ec1Admin.token);
    expect(unknown.statusCode, unknown.body).toBe(404);
  });
});

describe('doc 2, roles on the options of a CloudPBX', () => {
  const reads = [
    'languages',
    'barring-options',
    'barring-options/custom-numbers-restriction',
    'cli-options',
    'peer-authentication-options',
    'emergency-numbers',
    'devicemodels',
    `devicemodels/${GENERIC_SIP_MODEL_ID}`,
  ];
  const writes: [string, unknown][] = [
    ['barring-options/custom-numbers-restriction', { patterns: [{ pattern: '^1', description: 'no' }] }],
    ['cli-options', { userCanManageItsCli: false }],
    ['peer-authentication-options', { username: 'intruder', password: 'nope' }],
    ['overflow-options', { activate: false }],
  ];

  it('doc 2, reads: support, site_admin of its site and the bp_admin of its End Customer read; a company_admin of another company gets 404', async () => {
    for (const path of reads) {
      for (const u of [w.support, w.siteAdmin, w.bpAdmin])
        expect((await req('GET', `${C}/${path}`, u.token)).statusCode, `${path}`).toBe(200);
      expect((await req('GET', `${C}/${path}`, w.otherAdmin.token)).statusCode, path).toBe(404);
    }
  });

  it('doc 2, writes: support 403 on a PUT, site_admin 403 on a PUT, a company_admin of another company 404; nothing changed', async () => {
    for (const [path, body] of writes) {
      expect((await req('PUT', `${C}/${path}`, w.support.token, body)).statusCode, path).toBe(403);
      expect((await req('PUT', `${C}/${path}`, w.siteAdmin.token, body)).statusCode, path).toBe(403);
      expect((await req('PUT', `${C}/${path}`, w.otherAdmin.token, body)).statusCode, path).toBe(404);
    }
    const peer = await req('GET', `${C}/peer-authentication-options`, w.ec1Admin.token);
    expect(peer.json().data.username).toBe('peer-one');
  });

  it('doc 2, options of an unknown CloudPBX: 404', async () => {
    expect((await req('GET', `${PBXS}/nope/languages`, t.superToken)).statusCode).toBe(404);
  });
});
