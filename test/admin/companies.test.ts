// Issue 3, point 1: companies (document 3, Companies). Rules cited by number in the test names.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq } from 'drizzle-orm';
import { createTestApp, bearer, freshDatabase, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { ensureSystemCompanies } from '../../src/bootstrap.ts';

const A = '/api/svc/admin/v1.0/companies';
const E = '/api/svc/enduser/v1.0';
let t: TestApp;
let vad: string;
let vadAdmin: MadeUser;
let dr: string;
let drAdmin: MadeUser;
let orgId: string;
let orgCompany: string;
let orgAdmin: MadeUser;
let orgBp: string;

beforeAll(async () => {
  t = await createTestApp();
  vad = await makeCompany(t, { name: 'VAD partner', isBP: true, bpType: 'VAD' });
  vadAdmin = await makeUser(t, vad, ['bp_admin']);
  dr = await makeCompany(t, { name: 'DR partner', isBP: true, bpType: 'DR' });
  drAdmin = await makeUser(t, dr, ['bp_finance']);
  orgId = newId();
  await t.db.insert(organisations).values({ id: orgId, name: 'Org' });
  orgCompany = await makeCompany(t, { name: 'Org home', organisationId: orgId });
  orgBp = await makeCompany(t, { name: 'Org BP', isBP: true, bpType: 'DR', organisationId: orgId });
  orgAdmin = await makeUser(t, orgCompany, ['organization_admin']);
});
afterAll(() => t.close());

const post = (token: string, payload: object, url = A) =>
  t.inject({ method: 'POST', url, headers: bearer(token), payload });
const get = (token: string, url: string) => t.inject({ method: 'GET', url, headers: bearer(token) });
const put = (token: string, id: string, payload: object) =>
  t.inject({ method: 'PUT', url: `${A}/${id}`, headers: bearer(token), payload });
const rowOf = async (id: string) => (await t.db.select().from(companies).where(eq(companies.id, id)))[0];

describe('doc 3, company fields', () => {
  it('doc 3, company fields: defaults of the table (country FRA, size, offerType, visibility, flags)', async () => {
    const res = await post(t.superToken, { name: 'Defaults Inc' });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json().data;
    expect(d).toMatchObject({
      name: 'Defaults Inc',
      country: 'FRA',
      size: 'self-employed',
      offerType: 'freemium',
      visibility: 'private',
      selectedDeviceFirmware: 'released',
      alertNotificationReception: 'disabled',
      alertNotificationSending: 'disabled',
      useDialOutCustomisation: 'enabled',
      allowCloudPbxRecording: false,
      cloudPbxRecordingInboundOnly: true,
      allowDeviceFirmwareSelection: false,
      allowPhoneNumbersVisibility: false,
      allowUsersSelectTheme: true,
      allowUsersSelectPublicTheme: true,
      bpHasRightToConnect: true,
      bpIsContractAccepted: false,
      isCentrex: false,
      mobilePermanentConnectionMode: false,
      userSelfRegisterEnabled: true,
      status: 'active',
    });
    expect(d.dataLocation).toEqual({ name: 'Europe', location: 'Paris', country: 'FRA' });
    expect(d.settings).toEqual({ iceServers: [] });
    expect(typeof d.creationDate).toBe('string');
  });

  it('doc 3, company fields: bounds and allowed values are enforced (400, nothing stored)', async () => {
    const before = (await t.db.select().from(companies)).length;
    for (const bad of [
      { name: '' },
      { name: 'x'.repeat(256) },
      { name: 'B', size: 'huge' },
      { name: 'B', visibility: 'everyone' },
      { name: 'B', description: 'x'.repeat(2001) },
      { name: 'B', externalReference: 'x'.repeat(65) },
      { name: 'B', adminEmail: 'not-an-email' },
      { name: 'B', economicActivityClassification: 'Z' },
      { name: 'B', currency: 'GBP' },
    ]) {
      const res = await post(t.superToken, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.db.select().from(companies)).length).toBe(before);
  });

  it('doc 3, company fields: country must be in the countries list (400101)', async () => {
    const res = await post(t.superToken, { name: 'Nowhere', country: 'XXX' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400101);
  });

  it('doc 3, company fields: state is required for USA and CAN with the listed values (400102)', async () => {
    expect((await post(t.superToken, { name: 'US no state', country: 'USA' })).json().errorDetailsCode).toBe(400102);
    expect(
      (await post(t.superToken, { name: 'US bad state', country: 'USA', state: 'QC' })).json().errorDetailsCode,
    ).toBe(400102);
    expect(
      (await post(t.superToken, { name: 'CA no state', country: 'CAN', state: null })).json().errorDetailsCode,
    ).toBe(400102);
    const ok = await post(t.superToken, { name: 'Texan', country: 'USA', state: 'TX' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.dataLocation.name).toBe('North America');
    expect((await post(t.superToken, { name: 'Quebec', country: 'CAN', state: 'QC' })).statusCode).toBe(201);
  });

  it('doc 3, company fields: the data location cannot change after creation (country create-only, 400103)', async () => {
    const id = (await post(t.superToken, { name: 'Located', country: 'DEU' })).json().data.id;
    const res = await put(t.superToken, id, { country: 'USA', state: 'TX' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400103);
    expect((await rowOf(id)).country).toBe('DEU');
    expect((await put(t.superToken, id, { country: 'DEU', slogan: 'same country is no change' })).statusCode).toBe(200);
  });

  it('doc 3, company fields: privateDC is create-only (400104), update-only fields are ignored at creation', async () => {
    const res = await post(t.superToken, {
      name: 'Private',
      privateDC: 'dc-1',
      timezone: 'Europe/Paris',
      allowCloudPbxRecording: true,
    });
    const d = res.json().data;
    expect(d.privateDC).toBe('dc-1');
    expect(d.timezone).toBeNull();
    expect(d.allowCloudPbxRecording).toBe(false);
    const up = await put(t.superToken, d.id, { privateDC: 'dc-2' });
    expect(up.json().errorDetailsCode).toBe(400104);
    const ok = await put(t.superToken, d.id, {
      timezone: 'Europe/Paris',
      allowCloudPbxRecording: true,
      cloudPbxRecordingInboundOnly: false,
    });
    expect(ok.json().data).toMatchObject({
      timezone: 'Europe/Paris',
      allowCloudPbxRecording: true,
      cloudPbxRecordingInboundOnly: false,
    });
  });

  it('doc 3, company fields: allowPhoneNumbersVisibility is for BP companies only (400105)', async () => {
    const ec = (await post(t.superToken, { name: 'Plain' })).json().data.id;
    expect((await put(t.superToken, ec, { allowPhoneNumbersVisibility: true })).json().errorDetailsCode).toBe(400105);
    const bp = (await post(t.superToken, { name: 'A BP', isBP: true, bpType: 'DR' })).json().data.id;
    expect(
      (await put(t.superToken, bp, { allowPhoneNumbersVisibility: true })).json().data.allowPhoneNumbersVisibility,
    ).toBe(true);
  });

  it('doc 3, read-only fields: latin_name, dataLocation, subscriptions, selectedThemeObj; unknown fields are not stored', async () => {
    const res = await post(t.superToken, {
      name: 'Société Œuvre Ærø',
      selectedTheme: { light: 'l1', dark: 'd1' },
      id: 'forged',
      creationDate: '2000-01-01T00:00:00Z',
      latin_name: 'x',
    });
    const d = res.json().data;
    expect(d.id).not.toBe('forged');
    expect(d.latin_name).toBe('Societe OEuvre AEro');
    expect(d.selectedTheme).toBe('l1');
    const full = await get(t.superToken, `${A}/${d.id}?format=full&selectedThemeObj=true`);
    expect(full.json().data.selectedTheme).toEqual({ light: 'l1', dark: 'd1' });
    expect(full.json().data.numberUsers).toBe(0);
  });

  it('doc 3, get company: format small returns name and id, medium more, full everything', async () => {
    const small = (await get(t.superToken, `${A}/${vad}`)).json().data;
    expect(Object.keys(small).sort()).toEqual(['id', 'name']);
    const medium = (await get(t.superToken, `${A}/${vad}?format=medium`)).json().data;
    expect(medium).toMatchObject({ isBP: true, bpType: 'VAD', status: 'active' });
    expect(medium.subscriptions).toBeUndefined();
    const full = (await get(t.superToken, `${A}/${vad}?format=full`)).json().data;
    expect(full.subscriptions).toBeDefined();
  });
});

describe('doc 3, create company', () => {
  it('doc 3, create company, rule 1: only superadmin, bp_admin, bp_finance and organization_admin create through the admin operation', async () => {
    const ec = await makeCompany(t);
    const admin = await makeUser(t, ec, ['company_admin']);
    const res = await post(admin.token, { name: 'Not allowed' });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403001);
    // A plain user does not see companies through getCompany (document 3's role list): 404.
    const plain = await makeUser(t, ec);
    expect((await post(plain.token, { name: 'Not allowed either' })).statusCode).toBe(404);
  });

  it("doc 3, create company, rule 2: a bp_admin's company is attached to his BP and starts initializing", async () => {
    const res = await post(vadAdmin.token, { name: 'EC of VAD' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ bpId: vad, status: 'initializing', isBP: false });
  });

  it('doc 3, create company, rule 4: a VAD with isBP true creates a BP IR linked to it', async () => {
    const res = await post(vadAdmin.token, { name: 'IR of VAD', isBP: true });
    expect(res.json().data).toMatchObject({
      bpId: vad,
      isBP: true,
      bpType: 'IR',
      bpBusinessModel: 'resell',
      bpHasRightToConnect: true,
      status: 'initializing',
    });
    const ec = await post(vadAdmin.token, { name: 'EC of VAD 2', isBP: false });
    expect(ec.json().data).toMatchObject({ bpId: vad, isBP: false, bpType: null });
  });

  it('doc 3, create company, rule 5: a DR (or IR) creates an End Customer even with isBP true', async () => {
    const res = await post(drAdmin.token, { name: 'EC of DR', isBP: true });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ bpId: dr, isBP: false, bpType: null, status: 'initializing' });
  });

  it('doc 3, create company, rules 3 and 6: an organisation admin creates in his organisation, or under a BP of it', async () => {
    const a = (await post(orgAdmin.token, { name: 'Org child' })).json().data;
    expect(a).toMatchObject({ organisationId: orgId, bpId: null, status: 'active' });
    const b = await post(orgAdmin.token, { name: 'Org BP child', bpId: orgBp });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().data).toMatchObject({ organisationId: orgId, bpId: orgBp, isBP: false });
    // A BP outside his organisation is out of his scope: 404.
    expect((await post(orgAdmin.token, { name: 'Elsewhere', bpId: dr })).statusCode).toBe(404);
  });

  it('doc 3, create company, rule 3: with bp_admin and organisation admin roles the company goes to the organisation, not initializing', async () => {
    const orgBpAdmin = await makeUser(t, orgBp, ['bp_admin', 'organization_admin']);
    const res = await post(orgBpAdmin.token, { name: 'Both roles' });
    expect(res.json().data).toMatchObject({ organisationId: orgId, status: 'active' });
  });

  it('doc 3, create company, rule 7: a new company receives a subscription to the default offer', async () => {
    const d = (await post(vadAdmin.token, { name: 'Subscribed' })).json().data;
    expect(d.subscriptions).toHaveLength(1);
    const [offer] = await t.db.select().from(offers).where(eq(offers.isDefault, true));
    expect(d.subscriptions[0]).toMatchObject({
      offerId: offer.id,
      offerName: offer.name,
      isDefault: true,
      status: 'active',
      profileName: offer.profileName,
    });
  });

  it('doc 3, create company, rule 7: companies of a database that predates the default offer get it when the offer is made (idempotent)', async () => {
    const database = await freshDatabase();
    try {
      await database.migrate();
      const old = newId();
      await database.db.insert(companies).values({ id: old, name: 'Legacy' });
      await ensureSystemCompanies(database.db);
      await ensureSystemCompanies(database.db);
      const subs = await database.db.select().from(subscriptions).where(eq(subscriptions.companyId, old));
      expect(subs.filter((s) => s.isDefault)).toHaveLength(1);
      expect((await database.db.select().from(offers).where(eq(offers.isDefault, true))).length).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('doc 3, create company: non-superadmins cannot set superadmin fields (403102)', async () => {
    const res = await post(vadAdmin.token, { name: 'Sneaky', status: 'active' });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403102);
  });

  it('doc 3, create company: the names Default and Terminated cannot be reused (409101)', async () => {
    for (const name of ['Default', 'terminated', ' DEFAULT ']) {
      const res = await post(t.superToken, { name });
      expect(res.statusCode).toBe(409);
      expect(res.json().errorDetailsCode).toBe(409101);
    }
  });

  it('doc 3, create company, rule 1: a user of the Default company creates his own and becomes its company_admin', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const res = await post(u.token, { name: 'My own', country: 'ITA' }, `${E}/companies`);
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json().data;
    expect(d).toMatchObject({ name: 'My own', country: 'ITA', status: 'active', bpId: null, numberUsers: 1 });
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(row.companyId).toBe(d.id);
    expect(row.roles.sort()).toEqual(['company_admin', 'user']);
    // Now out of Default: a second one is refused.
    const again = await post(u.token, { name: 'Second' }, `${E}/companies`);
    expect(again.statusCode).toBe(403);
    expect(again.json().errorDetailsCode).toBe(403101);
  });

  it('doc 3, create company, rule 1: users of other companies cannot use the enduser operation (403101)', async () => {
    const u = await makeUser(t, await makeCompany(t));
    const res = await post(u.token, { name: 'Not from Default' }, `${E}/companies`);
    expect(res.json().errorDetailsCode).toBe(403101);
  });
});

describe('doc 3, update company', () => {
  it('doc 3, update company: superadmin any company; other admins only their own company', async () => {
    const ec = await makeCompany(t, { bpId: vad });
    const admin = await makeUser(t, ec, ['company_admin']);
    expect((await put(admin.token, ec, { slogan: 'ours' })).statusCode).toBe(200);
    // bp_admin reads his End Customer but may not update it: 403.
    expect((await put(vadAdmin.token, ec, { slogan: 'theirs' })).statusCode).toBe(403);
    expect((await put(vadAdmin.token, vad, { slogan: 'ours' })).statusCode).toBe(200);
    // Another company: 404 (tenant isolation), nothing changed.
    const other = await makeCompany(t, { name: 'Other' });
    expect((await put(admin.token, other, { slogan: 'x' })).statusCode).toBe(404);
    expect((await rowOf(other)).slogan).toBeNull();
    expect((await put(t.superToken, other, { slogan: 'super' })).json().data.slogan).toBe('super');
  });

  it('doc 3, update company: an admin cannot change superadmin fields of his company (403102)', async () => {
    const ec = await makeCompany(t);
    const admin = await makeUser(t, ec, ['company_admin']);
    const res = await put(admin.token, ec, { isBP: true, bpType: 'VAD' });
    expect(res.json().errorDetailsCode).toBe(403102);
    expect((await rowOf(ec)).isBP).toBe(false);
  });

  it('doc 3, update company: absent fields are left unchanged', async () => {
    const id = (await post(t.superToken, { name: 'Keep', slogan: 'kept', city: 'Lyon' })).json().data.id;
    const res = await put(t.superToken, id, { city: 'Nice' });
    expect(res.json().data).toMatchObject({ slogan: 'kept', city: 'Nice', name: 'Keep' });
  });

  it('doc 3, update company: Default and Terminated cannot be renamed (409102), their names cannot be reused (409101)', async () => {
    const r = await put(t.superToken, t.defaultCompanyId, { name: 'Renamed default' });
    expect(r.statusCode).toBe(409);
    expect(r.json().errorDetailsCode).toBe(409102);
    const id = (await post(t.superToken, { name: 'Rename me' })).json().data.id;
    expect((await put(t.superToken, id, { name: 'Terminated' })).json().errorDetailsCode).toBe(409101);
    expect((await rowOf(id)).name).toBe('Rename me');
  });

  it('doc 3, create company, rule 8: isCentrex cannot change once sites exist (409103)', async () => {
    const id = (await post(t.superToken, { name: 'Centrex' })).json().data.id;
    expect((await put(t.superToken, id, { isCentrex: true })).json().data.isCentrex).toBe(true);
    await makeSite(t, id);
    const res = await put(t.superToken, id, { isCentrex: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409103);
    expect((await rowOf(id)).isCentrex).toBe(true);
  });

  it('doc 3, update company: status terminated only through delete (400107); a status change moves statusUpdatedDate', async () => {
    const id = (await post(t.superToken, { name: 'Status' })).json().data.id;
    expect((await put(t.superToken, id, { status: 'terminated' })).json().errorDetailsCode).toBe(400107);
    t.clock.advance(60_000);
    const res = await put(t.superToken, id, { status: 'hold' });
    expect(res.json().data.status).toBe('hold');
    expect(res.json().data.statusUpdatedDate).toBe(t.clock.now().toISOString());
  });
});

describe('doc 3, delete company', () => {
  it('doc 3, delete company: status terminated, renamed, statusUpdatedDate set, never removed', async () => {
    const id = (await post(t.superToken, { name: 'Doomed' })).json().data.id;
    t.clock.advance(1000);
    const res = await t.inject({ method: 'DELETE', url: `${A}/${id}`, headers: bearer(t.superToken) });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({
      status: 'terminated',
      name: `Doomed (terminated ${id})`,
      statusUpdatedDate: t.clock.now().toISOString(),
      userSelfRegisterEnabled: false,
    });
    expect(await rowOf(id)).toBeDefined();
    expect(d.subscriptions.every((s: { status: string }) => s.status === 'terminated')).toBe(true);
  });

  it('doc 3, delete company: the company is disabled: its users cannot sign in and their tokens are refused', async () => {
    const id = (await post(t.superToken, { name: 'Disabled Soon' })).json().data.id;
    const member = await makeUser(t, id, ['company_admin']);
    expect((await t.inject({ method: 'GET', url: `${A}/${id}`, headers: bearer(member.token) })).statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `${A}/${id}`, headers: bearer(t.superToken) })).statusCode).toBe(
      200,
    );
    const after = await t.inject({
      method: 'GET',
      url: '/api/svc/authentication/v1.0/validator',
      headers: bearer(member.token),
    });
    expect(after.statusCode).toBe(401);
    await expect(t.login(member.email, PASSWORD)).rejects.toThrow(/401/);
  });

  it('doc 3, delete company: superadmin cannot delete Default and Terminated (403103)', async () => {
    const res = await t.inject({ method: 'DELETE', url: `${A}/${t.defaultCompanyId}`, headers: bearer(t.superToken) });
    expect(res.json().errorDetailsCode).toBe(403103);
  });

  it('doc 3, delete company: bp_admin deletes his End Customers, not his own BP company', async () => {
    const ec = (await post(vadAdmin.token, { name: 'EC to delete' })).json().data.id;
    expect((await t.inject({ method: 'DELETE', url: `${A}/${ec}`, headers: bearer(vadAdmin.token) })).statusCode).toBe(
      200,
    );
    expect((await t.inject({ method: 'DELETE', url: `${A}/${vad}`, headers: bearer(vadAdmin.token) })).statusCode).toBe(
      403,
    );
    const other = await makeCompany(t);
    expect(
      (await t.inject({ method: 'DELETE', url: `${A}/${other}`, headers: bearer(vadAdmin.token) })).statusCode,
    ).toBe(404);
  });

  it('doc 3, delete company: refused while paid subscriptions are active (409104)', async () => {
    const id = (await post(t.superToken, { name: 'Paying' })).json().data.id;
    const offerId = newId();
    await t.db.insert(offers).values({ id: offerId, name: 'Paid', canBeSold: true });
    await t.db.insert(subscriptions).values({ id: newId(), companyId: id, offerId, status: 'active' });
    const res = await t.inject({ method: 'DELETE', url: `${A}/${id}`, headers: bearer(t.superToken) });
    expect(res.json().errorDetailsCode).toBe(409104);
    expect((await rowOf(id)).status).toBe('active');
  });
});

describe('doc 3, get company roles', () => {
  it('doc 3, get company: bp_admin of a VAD reads the End Customers of its IR, and his own BP company; others get 404', async () => {
    const ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad });
    const ecIr = await makeCompany(t, { bpId: ir });
    expect((await get(vadAdmin.token, `${A}/${ecIr}`)).statusCode).toBe(200);
    const irAdmin = await makeUser(t, ir, ['bp_admin']);
    expect((await get(irAdmin.token, `${A}/${vad}`)).statusCode).toBe(200);
    expect((await get(irAdmin.token, `${A}/${dr}`)).statusCode).toBe(404);
    // numberUsers: not for the reader's BP company.
    expect((await get(irAdmin.token, `${A}/${vad}?format=full`)).json().data.numberUsers).toBeUndefined();
    expect((await get(irAdmin.token, `${A}/${ir}?format=full`)).json().data.numberUsers).toBe(1);
  });

  it('doc 3, get default company: format full by default', async () => {
    const u = await makeUser(t, await makeCompany(t));
    const d = (await get(u.token, `${A}/default`)).json().data;
    expect(d).toMatchObject({ id: t.defaultCompanyId, name: 'Default' });
    expect(d.numberUsers).toBeUndefined();
    expect(d.subscriptions).toHaveLength(1);
    expect((await get(t.superToken, `${A}/default`)).json().data.numberUsers).toBeGreaterThan(0);
  });
});

describe('doc 3, list companies', () => {
  it('doc 3, list companies: small items are {name, id}, sorted by name, paged in SQL', async () => {
    const res = await get(t.superToken, `${A}?limit=2&offset=0`);
    expect(res.json()).toMatchObject({ limit: 2, offset: 0 });
    expect(res.json().data).toHaveLength(2);
    expect(Object.keys(res.json().data[0]).sort()).toEqual(['id', 'name']);
    const all = (await get(t.superToken, `${A}?limit=1000`)).json();
    const names = all.data.map((c: { name: string }) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(all.total).toBe(all.data.length);
    const desc = (await get(t.superToken, `${A}?limit=1000&sortOrder=-1`))
      .json()
      .data.map((c: { name: string }) => c.name.toLowerCase());
    expect(desc).toEqual([...names].reverse());
  });

  it('doc 3, list companies: every filter of the document', async () => {
    const ir = (await post(vadAdmin.token, { name: 'Filter IR', isBP: true })).json().data.id;
    const catalogId = (
      await t.inject({
        method: 'POST',
        url: '/api/svc/subscription/v1.0/catalogs',
        headers: bearer(t.superToken),
        payload: { name: 'Filter catalog' },
      })
    ).json().data.id;
    const ec = (
      await post(t.superToken, {
        name: 'Filter Alpha Beta',
        bpId: ir,
        externalReference: 'ext-1',
        externalReference2: 'ext-2',
        crmAccountId: 'crm-1',
        catalogId,
        visibility: 'public',
        bpBusinessType: ['conference'],
      })
    ).json().data.id;
    const q = async (qs: string) =>
      (await get(t.superToken, `${A}?limit=1000&${qs}`)).json().data.map((c: { id: string }) => c.id) as string[];
    expect(await q(`bpId=${ir}`)).toEqual([ec]);
    expect(await q('externalReference=ext-1')).toEqual([ec]);
    expect(await q('externalReference2=ext-2')).toEqual([ec]);
    expect(await q('crmAccountId=crm-1')).toEqual([ec]);
    expect(await q(`catalogId=${catalogId}`)).toEqual([ec]);
    expect(await q('name=beta%20filter')).toEqual([ec]);
    expect(await q('name=alpha%20gamma')).toEqual([]);
    expect(await q(`visibility=public&bpId=${ir}`)).toEqual([ec]);
    expect(await q(`bpBusinessType=conference,default`)).toEqual([ec]);
    expect(await q(`isBP=true&bpType=IR&bpId=${vad}`)).toContain(ir);
    expect(await q(`hasBP=true&bpId=${ir}`)).toEqual([ec]);
    expect(await q(`hasBP=false`)).not.toContain(ec);
    expect(await q(`status=initializing`)).toContain(ir);
    expect(await q(`status=initializing`)).not.toContain(ec);
    expect(await q(`organisationId=${orgId}`)).toContain(orgCompany);
    const [offer] = await t.db.select().from(offers).where(eq(offers.isDefault, true));
    expect(await q(`offerId=${offer.id}&bpId=${ir}`)).toEqual([ec]);
    expect(await q(`offerCanBeSold=false&bpId=${ir}`)).toEqual([ec]);
    expect(await q(`offerCanBeSold=true&bpId=${ir}`)).toEqual([]);
    expect(await q(`offerGroupName=${offer.groupName}&bpId=${ir}`)).toEqual([ec]);
    await t.db.update(companies).set({ selectedAppCustomisationTemplate: 'tpl-1' }).where(eq(companies.id, ec));
    expect(await q('selectedAppCustomisationTemplate=tpl-1')).toEqual([ec]);
  });

  it('doc 3, list companies: filtered by the visibility of get company (tenant isolation)', async () => {
    const ids = (await get(drAdmin.token, `${A}?limit=1000`)).json().data.map((c: { id: string }) => c.id) as string[];
    expect(ids).toContain(dr);
    expect(ids).not.toContain(vad);
    const full = (await get(drAdmin.token, `${A}?limit=1000&format=full`)).json().data;
    expect(full.every((c: { id: string; bpId: string | null }) => c.id === dr || c.bpId === dr)).toBe(true);
  });

  it('doc 3, list companies: bad booleans give 400', async () => {
    expect((await get(t.superToken, `${A}?isBP=maybe`)).statusCode).toBe(400);
  });
});

describe('doc 3, custom data, administrators, countries', () => {
  it('doc 3, set custom data: body {customData}, response {data: {id, customData}}', async () => {
    const id = (await post(t.superToken, { name: 'Custom' })).json().data.id;
    const res = await t.inject({
      method: 'PUT',
      url: `${A}/${id}/custom-data`,
      headers: bearer(t.superToken),
      payload: { customData: { a: 1, b: { c: 'x' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { id, customData: { a: 1, b: { c: 'x' } } } });
    expect(
      (await t.inject({ method: 'PUT', url: `${A}/${id}/custom-data`, headers: bearer(t.superToken), payload: {} }))
        .statusCode,
    ).toBe(400);
    expect((await rowOf(id)).customData).toEqual({ a: 1, b: { c: 'x' } });
  });

  it('doc 3, set custom data: a company_admin is refused when adminCanSetCustomData is false (403104)', async () => {
    const id = (await post(t.superToken, { name: 'No custom', adminCanSetCustomData: false })).json().data.id;
    const admin = await makeUser(t, id, ['company_admin']);
    const res = await t.inject({
      method: 'PUT',
      url: `${A}/${id}/custom-data`,
      headers: bearer(admin.token),
      payload: { customData: { a: 1 } },
    });
    expect(res.json().errorDetailsCode).toBe(403104);
  });

  it('doc 3, list administrators: entries and sort by displayName', async () => {
    const id = await makeCompany(t, { name: 'Admins Co' });
    const a = await makeUser(t, id, ['company_admin']);
    await makeUser(t, id);
    await t.db.update(users).set({ firstName: 'Zed' }).where(eq(users.id, a.id));
    const b = await makeUser(t, id, ['company_admin']);
    await t.db.update(users).set({ firstName: 'Amy' }).where(eq(users.id, b.id));
    const res = await get(a.token, `${A}/${id}/administrators?format=full`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().total).toBe(2);
    expect(res.json().data.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    expect(res.json().data[0]).toMatchObject({
      companyId: id,
      companyName: 'Admins Co',
      isTerminated: false,
      loginEmail: b.email,
    });
    expect((await get(a.token, `${A}/${vad}/administrators`)).statusCode).toBe(404);
  });

  it('doc 3, countries: the ISO 3166-1 alpha-3 list', async () => {
    const res = await t.inject({ method: 'GET', url: `${E}/countries` });
    expect(res.statusCode).toBe(200);
    const list = res.json().data as { code: string; name: string }[];
    expect(list.length).toBe(249);
    expect(list).toContainEqual({ code: 'FRA', name: 'France' });
    expect(list.every((c) => /^[A-Z]{3}$/.test(c.code))).toBe(true);
  });
});
