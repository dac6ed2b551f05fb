// Issue 10, point 1: a company's catalog and the offers it sees (document 1, list offers of a
// company, get an offer; docs/decisions.md, Commerce).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { catalogs, offers } from '../../src/modules/commerce/commerce.tables.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { OFFER_FORMATS } from '../../src/modules/commerce/offers.schemas.ts';

const S = '/api/svc/subscription/v1.0';
const A = '/api/svc/admin/v1.0/companies';
let t: TestApp;
// A VAD with a catalog, its IR without one, an End Customer of each; a DR without one and its End Customer.
let vad: string, ir: string, ecOfIr: string, ecOfVad: string, dr: string, ecOfDr: string, lone: string;
let vadCatalog: string, ownCatalog: string;
let sold: { id: string }, other: { id: string }, demo: { id: string };
let vadAdmin: MadeUser, vadFinance: MadeUser, businessAdmin: MadeUser, loneAdmin: MadeUser;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = t.superToken) =>
  t.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const offer = async (body: object) =>
  (await call('POST', `${S}/offers`, { name: `Offer ${newId()}`, ...body })).json().data as { id: string };
const catalog = async (name: string, offerIds: string[]) =>
  (await call('POST', `${S}/catalogs`, { name, offerIds })).json().data.id as string;
const ids = async (companyId: string, qs = '', token = t.superToken) => {
  const res = await call('GET', `${S}/companies/${companyId}/offers?limit=1000${qs}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((o: { id: string }) => o.id) as string[];
};
const defaultOfferId = async () => (await t.db.select().from(offers).where(eq(offers.isDefault, true)))[0].id;

beforeAll(async () => {
  t = await createTestApp();
  sold = await offer({
    name: 'Business',
    canBeSold: true,
    profileId: 'p-business',
    offerReference: 'REF-B',
    erpReference: 'ERP-B',
    isExclusive: true,
  });
  other = await offer({ name: 'alpha prepaid', isPrepaid: true, prepaidDuration: 12, autoSubscribe: true });
  demo = await offer({ name: 'Demo', isDemo: true });
  vadCatalog = await catalog('VAD catalog', [sold.id, other.id, demo.id]);
  ownCatalog = await catalog('Own catalog', [other.id]);
  vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
  await t.db.update(companies).set({ catalogId: vadCatalog }).where(eq(companies.id, vad));
  ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad });
  ecOfIr = await makeCompany(t, { bpId: ir });
  ecOfVad = await makeCompany(t, { bpId: vad });
  dr = await makeCompany(t, { isBP: true, bpType: 'DR' });
  ecOfDr = await makeCompany(t, { bpId: dr });
  lone = await makeCompany(t);
  vadAdmin = await makeUser(t, vad, ['bp_admin']);
  vadFinance = await makeUser(t, vad, ['bp_finance']);
  businessAdmin = await makeUser(t, t.defaultCompanyId, ['business_admin']);
  loneAdmin = await makeUser(t, lone, ['company_admin']);
});
afterAll(() => t.close());

describe('issue 10, point 1: the catalog a company sees', () => {
  it("doc 1, list offers of a company: the offers of the catalog assigned to the company; without one its BP's, its BP's BP's, else the default catalog", async () => {
    const d = await defaultOfferId();
    const ofVad = [other.id, sold.id, demo.id, d].sort();
    expect((await ids(vad)).sort()).toEqual(ofVad);
    expect((await ids(ecOfVad)).sort()).toEqual(ofVad); // its BP's
    expect((await ids(ir)).sort()).toEqual(ofVad); // its BP's
    expect((await ids(ecOfIr)).sort()).toEqual(ofVad); // its BP's BP's
    expect(await ids(dr)).toEqual([d]); // the default catalog
    expect(await ids(ecOfDr)).toEqual([d]); // its BP has none: the default catalog
    expect(await ids(lone)).toEqual([d]);
    // Its own catalog first.
    expect((await call('PUT', `${A}/${ecOfIr}`, { catalogId: ownCatalog })).statusCode).toBe(200);
    expect((await ids(ecOfIr)).sort()).toEqual([other.id, d].sort());
    expect((await call('PUT', `${A}/${ecOfIr}`, { catalogId: null })).json().data.catalogId).toBeNull();
    expect((await ids(ecOfIr)).sort()).toEqual(ofVad);
  });

  it("issue 10, point 1: a company's catalogId must name a catalog: 400, and nothing is stored (create and update)", async () => {
    const ghost = newId();
    const upd = await call('PUT', `${A}/${lone}`, { catalogId: ghost, slogan: 'not stored' });
    expect(upd.json()).toMatchObject({ errorCode: 400, errorDetailsCode: 400605, errorDetails: { catalogId: ghost } });
    const [row] = await t.db.select().from(companies).where(eq(companies.id, lone));
    expect({ catalogId: row.catalogId, slogan: row.slogan }).toEqual({ catalogId: null, slogan: null });
    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0].n;
    expect((await call('POST', A, { name: 'Catalogued', catalogId: ghost })).json().errorDetailsCode).toBe(400605);
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(companies))[0].n).toBe(before);
    const created = await call('POST', A, { name: 'Catalogued', catalogId: ownCatalog });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.catalogId).toBe(ownCatalog);
  });

  it('doc 3, create company, rule 7: a new company holds the default subscription, whose offer its catalog shows', async () => {
    const c = (await call('POST', A, { name: 'Newcomer' })).json().data;
    const subs = (await call('GET', `${A}/${c.id}?format=full`)).json().data.subscriptions;
    expect(subs).toEqual([
      expect.objectContaining({ offerId: await defaultOfferId(), isDefault: true, status: 'active' }),
    ]);
    expect((await call('GET', `${S}/companies/${c.id}/offers/${await defaultOfferId()}`)).statusCode).toBe(200);
  });
});

describe('issue 10, point 1: list offers of a company', () => {
  it('doc 1, list offers of a company: every filter of the document, booleans sent as strings', async () => {
    expect(await ids(vad, '&name=BUSI')).toEqual([sold.id]);
    expect(await ids(vad, '&canBeSold=true')).toEqual([sold.id]);
    expect(await ids(vad, '&canBeSold=false&isPrepaid=false')).toEqual(expect.not.arrayContaining([sold.id, other.id]));
    expect(await ids(vad, '&autoSubscribe=true')).toEqual([other.id]);
    expect(await ids(vad, '&isExclusive=true')).toEqual([sold.id]);
    expect(await ids(vad, '&isPrepaid=true')).toEqual([other.id]);
    expect(await ids(vad, '&profileId=p-business')).toEqual([sold.id]);
    expect(await ids(vad, '&offerReference=REF-B')).toEqual([sold.id]);
    expect(await ids(vad, '&erpReference=ERP-B')).toEqual([sold.id]);
    expect(await ids(vad, '&erpReference=ERP-B&isPrepaid=true')).toEqual([]);
    // The name filter matches its text literally (LIKE wildcards are not wildcards).
    expect(await ids(vad, '&name=%25')).toEqual([]);
  });

  it('doc 1, list offers of a company: sortField name (default, case-insensitive) or _id, sortOrder 1 or -1, limit and offset with the total', async () => {
    const all = await ids(vad);
    const names = new Map((await t.db.select().from(offers)).map((o) => [o.id, o.name.toLowerCase()]));
    expect(all.map((id) => names.get(id))).toEqual([...all.map((id) => names.get(id))].sort());
    expect(await ids(vad, '&sortOrder=-1')).toEqual([...all].reverse());
    expect(await ids(vad, '&sortField=_id')).toEqual([...all].sort());
    expect(await ids(vad, '&sortField=_id&sortOrder=-1')).toEqual([...all].sort().reverse());
    // Numbers sent as strings, unknown values falling back to their defaults.
    const page = (
      await call('GET', `${S}/companies/${vad}/offers?limit=2&offset=1&sortOrder=1&sortField=unknown`)
    ).json();
    expect({
      ids: page.data.map((o: { id: string }) => o.id),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    }).toEqual({ ids: all.slice(1, 3), total: 4, limit: 2, offset: 1 });
    const past = (await call('GET', `${S}/companies/${vad}/offers?offset=10`)).json();
    expect({ data: past.data, total: past.total }).toEqual({ data: [], total: 4 });
  });

  it("issue 10, point 8: a page this instance remembers is answered again exactly after any write to offers or catalog_offers, the API's or another's", async () => {
    const page = async () =>
      (await call('GET', `${S}/companies/${ecOfVad}/offers?format=full&limit=1000`)).json() as {
        data: Array<{ id: string; name: string; creationDate: string; lastUpdateDate: string }>;
        total: number;
      };
    const before = await page();
    expect(await page()).toEqual(before);
    // Dates are those of the offer row, as a single read gives them.
    const one = (await call('GET', `${S}/companies/${ecOfVad}/offers/${sold.id}`)).json().data;
    expect(before.data.find((o) => o.id === sold.id)).toEqual(one);
    // Through the API: an offer renamed, an offer added to the catalog and removed again.
    expect((await call('PUT', `${S}/offers/${other.id}`, { name: 'alpha prepaid renamed' })).statusCode).toBe(200);
    expect((await page()).data.find((o) => o.id === other.id)!.name).toBe('alpha prepaid renamed');
    const added = await offer({ name: 'Added later' });
    expect((await call('POST', `${S}/catalogs/${vadCatalog}/offers`, { offerId: added.id })).statusCode).toBe(201);
    const grown = await page();
    expect({ total: grown.total, has: grown.data.some((o) => o.id === added.id) }).toEqual({
      total: before.total + 1,
      has: true,
    });
    expect((await call('DELETE', `${S}/catalogs/${vadCatalog}/offers/${added.id}`)).statusCode).toBe(200);
    expect((await page()).total).toBe(before.total);
    // A write that did not go through this instance (another instance, an operator's SQL).
    await t.db.update(offers).set({ name: 'alpha prepaid' }).where(eq(offers.id, other.id));
    expect((await page()).data.find((o) => o.id === other.id)!.name).toBe('alpha prepaid');
  });

  it('issue 10, point 6: format small (default), medium and full give the levels of docs/formats.md', async () => {
    const level = async (qs: string) =>
      (await call('GET', `${S}/companies/${vad}/offers?name=Business${qs}`)).json().data[0];
    expect(Object.keys(await level('')).sort()).toEqual([...OFFER_FORMATS.small].sort());
    expect(Object.keys(await level('&format=small')).sort()).toEqual([...OFFER_FORMATS.small].sort());
    expect(Object.keys(await level('&format=medium')).sort()).toEqual([...OFFER_FORMATS.medium].sort());
    expect(await level('&format=full')).toMatchObject({
      id: sold.id,
      profileId: 'p-business',
      prices: [],
      provisioningNeeded: [],
      billingOfferId: null,
    });
  });

  it("doc 1, list offers of a company: a business_admin sees the demo offers of any company; a bp_finance who is also business_admin sees all of his End Customer's", async () => {
    expect(await ids(vad, '', businessAdmin.token)).toEqual([demo.id]);
    const both = await makeUser(t, vad, ['bp_finance', 'business_admin']);
    expect((await ids(ecOfVad, '', both.token)).sort()).toEqual((await ids(ecOfVad)).sort());
    expect(await ids(lone, '', both.token)).toEqual([]); // the default catalog has no demo offer
  });

  it('doc 1, list offers of a company: bp_admin and bp_finance read their own company and their End Customers; others get 403 or 404', async () => {
    expect((await ids(ecOfVad, '', vadAdmin.token)).length).toBe(4);
    expect((await ids(ecOfIr, '', vadFinance.token)).length).toBe(4);
    expect((await call('GET', `${S}/companies/${vad}/offers`, undefined, loneAdmin.token)).statusCode).toBe(404);
    expect((await call('GET', `${S}/companies/${dr}/offers`, undefined, vadAdmin.token)).statusCode).toBe(404);
  });

  it("doc 1, list offers of a company: a user who is both bp_admin or bp_finance and organization_admin reads the organisation's companies plus the End Customers / BP IR linked to its BP companies", async () => {
    // The VAD belongs to an organisation; the callers sit in another company of it (not the VAD's).
    const org = newId();
    await t.db.insert(organisations).values({ id: org, name: `Org ${org}` });
    const home = await makeCompany(t, { organisationId: org });
    await t.db.update(companies).set({ organisationId: org }).where(eq(companies.id, vad));
    try {
      for (const roles of [
        ['bp_admin', 'organization_admin'],
        ['bp_finance', 'organization_admin'],
      ] as const) {
        const both = await makeUser(t, home, [...roles]);
        for (const c of [home, vad, ecOfVad, ir, ecOfIr])
          expect((await ids(c, '', both.token)).length, `${roles.join('+')} ${c}`).toBeGreaterThan(0);
        // Not linked to a BP of the organisation: refused.
        expect([403, 404]).toContain(
          (await call('GET', `${S}/companies/${ecOfDr}/offers`, undefined, both.token)).statusCode,
        );
        // Either role alone does not reach the End Customers of the organisation's BPs.
        for (const role of roles) {
          const one = await makeUser(t, home, [role]);
          expect([403, 404], role).toContain(
            (await call('GET', `${S}/companies/${ecOfVad}/offers`, undefined, one.token)).statusCode,
          );
        }
      }
    } finally {
      await t.db.update(companies).set({ organisationId: null }).where(eq(companies.id, vad));
    }
  });
});

describe('issue 10, point 1: get an offer of a company', () => {
  it("doc 1, get an offer: an offer of the company's catalog is answered whole; outside it 403; an unknown offer 404", async () => {
    const res = await call('GET', `${S}/companies/${ecOfVad}/offers/${sold.id}`, undefined, vadFinance.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: sold.id,
      name: 'Business',
      canBeSold: true,
      creationDate: expect.any(String),
    });
    const outside = await call('GET', `${S}/companies/${dr}/offers/${sold.id}`);
    expect(outside.json()).toMatchObject({
      errorCode: 403,
      errorDetailsCode: 403600,
      errorDetails: { offerId: sold.id, companyId: dr },
    });
    expect((await call('GET', `${S}/companies/${ecOfVad}/offers/${newId()}`)).json()).toMatchObject({
      errorCode: 404,
      errorDetailsCode: 404000,
    });
    // The company must still be one the caller may read.
    expect((await call('GET', `${S}/companies/${dr}/offers/${sold.id}`, undefined, vadAdmin.token)).statusCode).toBe(
      404,
    );
  });

  it('doc 1, get an offer: a business_admin reads demo offers only (403 otherwise)', async () => {
    expect(
      (await call('GET', `${S}/companies/${vad}/offers/${demo.id}`, undefined, businessAdmin.token)).statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `${S}/companies/${vad}/offers/${sold.id}`, undefined, businessAdmin.token)).json()
        .errorDetailsCode,
    ).toBe(403601);
  });

  it("issue 10, point 1: a catalog removed from a company moves it to its BP's catalog at once", async () => {
    const c = await makeCompany(t, { bpId: dr });
    await t.db.update(companies).set({ catalogId: vadCatalog }).where(eq(companies.id, c));
    expect((await call('GET', `${S}/companies/${c}/offers/${sold.id}`)).statusCode).toBe(200);
    await t.db.update(companies).set({ catalogId: null }).where(eq(companies.id, c));
    expect((await call('GET', `${S}/companies/${c}/offers/${sold.id}`)).json().errorDetailsCode).toBe(403600);
    const [d] = await t.db.select().from(catalogs).where(eq(catalogs.isDefault, true));
    expect(d).toBeDefined();
  });
});
