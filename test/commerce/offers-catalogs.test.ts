// Issue 10, point 1: catalogs and offers, managed by superadmin (route table, Commerce, `+`;
// the rules written down in docs/decisions.md, Commerce).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { ensureSystemCompanies } from '../../src/bootstrap.ts';
import { catalogOffers, catalogs, offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const S = '/api/svc/subscription/v1.0';
let t: TestApp;
let support: MadeUser;
let bpAdmin: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  support = await makeUser(t, t.defaultCompanyId, ['support']);
  bpAdmin = await makeUser(t, await makeCompany(t, { isBP: true, bpType: 'DR' }), ['bp_admin']);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = t.superToken) =>
  t.inject({ method, url: `${S}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const count = async (table: typeof offers | typeof catalogs) =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
const defaultOffer = async () => (await t.db.select().from(offers).where(eq(offers.isDefault, true)))[0];
const defaultCatalog = async () => (await t.db.select().from(catalogs).where(eq(catalogs.isDefault, true)))[0];
const makeOffer = async (body: object = {}) => {
  const res = await call('POST', '/offers', { name: `Offer ${newId()}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string } & Record<string, unknown>;
};

const EVERY_FIELD = {
  name: 'Business Voice',
  description: 'Voice for teams',
  technicalDescription: 'SIP trunking, 1 licence per user',
  profileId: 'profile-business',
  profileName: 'Business',
  canBeSold: true,
  isDemo: false,
  businessModel: 'nb_users',
  isExclusive: true,
  isPrepaid: true,
  prepaidDuration: 24,
  autoSubscribe: false,
  isBundle: true,
  hasConference: true,
  hasVoice: true,
  provisioningNeeded: [
    { providerType: 'media', mediaType: 'webrtc' },
    { providerType: 'conference', bridgeEnterpriseId: 'bridge-42' },
  ],
  billingOfferId: 'bo-1',
  billingProductRatePlanId: 'rp-1',
  billingProductRatePlanChargeId: 'rpc-1',
  erpReference: 'ERP-1',
  offerReference: 'REF-1',
  groupName: 'voice',
  prices: [
    { currency: 'EUR', amount: '9.90' },
    { currency: 'USD', amount: '10.5' },
    { currency: 'JPY', amount: '1200' },
  ],
  features: [
    {
      featureUniqueRef: 'conference.participants',
      featureName: 'Conference participants',
      featureType: 'number',
      limitMax: 50,
    },
    { featureUniqueRef: 'voice.recording', featureName: 'Call recording', featureType: 'boolean', isEnabled: true },
  ],
};

describe('issue 10, point 1: offers (superadmin)', () => {
  it('doc 1, Offer: superadmin creates an offer with every field of the Offer table, its provisioning entries and prices; the answer is the whole offer', async () => {
    const res = await call('POST', '/offers', { ...EVERY_FIELD, isDefault: true, unknown: 'dropped' });
    expect(res.statusCode, res.body).toBe(201);
    const { provisioningNeeded, ...rest } = EVERY_FIELD;
    expect(res.json().data).toEqual({
      ...rest,
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      isDefault: false,
      provisioningNeeded: provisioningNeeded.map((p) => ({ ...p, provisioningOngoing: false })),
      creationDate: '2026-11-21T08:00:00.000Z',
      lastUpdateDate: '2026-11-21T08:00:00.000Z',
    });
    const [row] = await t.db.select().from(offers).where(eq(offers.id, res.json().data.id));
    expect(row.prices).toEqual(EVERY_FIELD.prices);
  });

  it('issue 10, point 1: prices take ISO 4217 currencies and decimal amounts as text only; a refused offer is not stored', async () => {
    const before = await count(offers);
    const price = async (p: unknown) =>
      (await call('POST', '/offers', { name: 'Priced', prices: [p] })).json().errorDetailsCode;
    expect(await price({ currency: 'ABC', amount: '1' })).toBe(400600); // not in ISO 4217
    expect(await price({ currency: 'XXX', amount: '1' })).toBe(400600); // "no currency"
    expect(await price({ currency: 'eur', amount: '1' })).toBe(400000);
    expect(await price({ currency: 'EURO', amount: '1' })).toBe(400000);
    for (const amount of ['1e3', '-1', '1.', '.5', '01', '1.1234567', '1,5', 'NaN', '', '1234567890123'])
      expect(await price({ currency: 'EUR', amount }), amount).toBe(400000);
    expect(await price({ currency: 'EUR' })).toBe(400000);
    const twice = await call('POST', '/offers', {
      name: 'Priced',
      prices: [
        { currency: 'EUR', amount: '1' },
        { currency: 'EUR', amount: '2' },
      ],
    });
    expect(twice.json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400601,
      errorDetails: { currencies: ['EUR'] },
    });
    expect(await count(offers)).toBe(before);
    // Six decimals (the billing system's precision), zero (a free offer) and the largest amount are taken.
    const ok = await makeOffer({
      prices: [
        { currency: 'EUR', amount: '0.000001' },
        { currency: 'USD', amount: '0' },
        { currency: 'GBP', amount: '999999999999.999999' },
      ],
    });
    expect(ok.prices).toEqual([
      { currency: 'EUR', amount: '0.000001' },
      { currency: 'USD', amount: '0' },
      { currency: 'GBP', amount: '999999999999.999999' },
    ]);
  });

  it('doc 1, Provisioning entry: a media entry has a mediaType, a conference entry a bridgeEnterpriseId, and not the other', async () => {
    for (const p of [
      { providerType: 'media' },
      { providerType: 'conference', mediaType: 'webrtc' },
      { providerType: 'media', mediaType: 'webrtc', bridgeEnterpriseId: 'b' },
    ]) {
      const res = await call('POST', '/offers', { name: 'Provisioned', provisioningNeeded: [p] });
      expect(res.json().errorDetailsCode, JSON.stringify(p)).toBe(400602);
    }
    expect(
      (await call('POST', '/offers', { name: 'Provisioned', provisioningNeeded: [{ providerType: 'gateway' }] })).json()
        .errorDetailsCode,
    ).toBe(400000);
  });

  it('issue 10, point 1: features are typed (number with limitMax, boolean with isEnabled), each featureUniqueRef once', async () => {
    const bad = [
      [{ featureUniqueRef: 'a', featureName: 'A', featureType: 'number' }],
      [{ featureUniqueRef: 'a', featureName: 'A', featureType: 'boolean', limitMax: 3 }],
      [
        { featureUniqueRef: 'a', featureName: 'A', featureType: 'boolean', isEnabled: true },
        { featureUniqueRef: 'a', featureName: 'B', featureType: 'boolean', isEnabled: false },
      ],
    ];
    for (const features of bad)
      expect((await call('POST', '/offers', { name: 'Featured', features })).json().errorDetailsCode).toBe(400603);
  });

  it('doc 1, Limits: a prepaid offer has a prepaidDuration of 12 to 60 months; other offers none', async () => {
    expect((await call('POST', '/offers', { name: 'Prepaid', isPrepaid: true })).json().errorDetailsCode).toBe(400604);
    expect((await call('POST', '/offers', { name: 'Monthly', prepaidDuration: 12 })).json().errorDetailsCode).toBe(
      400604,
    );
    expect(
      (await call('POST', '/offers', { name: 'Prepaid', isPrepaid: true, prepaidDuration: 6 })).json().errorDetailsCode,
    ).toBe(400000);
    expect(
      (await call('POST', '/offers', { name: 'Prepaid', isPrepaid: true, prepaidDuration: 61 })).json()
        .errorDetailsCode,
    ).toBe(400000);
    const o = await makeOffer({ isPrepaid: true, prepaidDuration: 60 });
    // The rule holds on the offer after the change.
    expect((await call('PUT', `/offers/${o.id}`, { isPrepaid: false })).json().errorDetailsCode).toBe(400604);
    expect(
      (await call('PUT', `/offers/${o.id}`, { isPrepaid: false, prepaidDuration: null })).json().data,
    ).toMatchObject({ isPrepaid: false, prepaidDuration: null });
  });

  it('issue 10, point 6: numbers and booleans sent as strings by the original clients are taken', async () => {
    const res = await call('POST', '/offers', {
      name: 'Strings',
      isPrepaid: 'true',
      prepaidDuration: '12',
      canBeSold: 'false',
      features: [{ featureUniqueRef: 'n', featureName: 'N', featureType: 'number', limitMax: '5' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      isPrepaid: true,
      prepaidDuration: 12,
      canBeSold: false,
      features: [{ limitMax: 5 }],
    });
  });

  it('route table, updateOffer (+): absent fields stay, null clears, an array replaces the list; lastUpdateDate moves', async () => {
    const o = await makeOffer({ description: 'Before', groupName: 'g', prices: [{ currency: 'EUR', amount: '1' }] });
    t.clock.advance(60_000);
    const res = await call('PUT', `/offers/${o.id}`, {
      description: null,
      prices: [{ currency: 'CHF', amount: '2.5' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: o.name,
      description: null,
      groupName: 'g',
      prices: [{ currency: 'CHF', amount: '2.5' }],
      lastUpdateDate: '2026-11-21T08:01:00.000Z',
      creationDate: o.creationDate,
    });
    // The default offer's fields may change (its prices, its name); it stays the default one.
    const d = await defaultOffer();
    expect(
      (await call('PUT', `/offers/${d.id}`, { name: 'Essential free', isDefault: false })).json().data,
    ).toMatchObject({ name: 'Essential free', isDefault: true });
    expect((await call('PUT', `/offers/${newId()}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('route table, deleteOffer (+): an offer nobody subscribed to is deleted and leaves its catalogs; the default offer and offers with subscriptions stay (409)', async () => {
    const o = await makeOffer();
    const cat = (await call('POST', '/catalogs', { name: `Holding ${o.id}`, offerIds: [o.id] })).json().data;
    const res = await call('DELETE', `/offers/${o.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: `Offer ${o.id} deleted`, data: [] });
    expect((await call('GET', `/catalogs/${cat.id}`)).json().data.offerIds).not.toContain(o.id);
    expect((await call('DELETE', `/offers/${o.id}`)).statusCode).toBe(404);
    const d = await defaultOffer();
    expect((await call('DELETE', `/offers/${d.id}`)).json().errorDetailsCode).toBe(409600);
    const held = await makeOffer();
    await t.db
      .insert(subscriptions)
      .values({ id: newId(), companyId: t.defaultCompanyId, offerId: held.id, status: 'terminated' });
    expect((await call('DELETE', `/offers/${held.id}`)).json().errorDetailsCode).toBe(409601);
  });

  it('route table, offers (+): superadmin manages offers, support lists them; others cannot know them (404) nor create one (403)', async () => {
    const o = await makeOffer();
    expect((await call('POST', '/offers', { name: 'By a BP' }, bpAdmin.token)).statusCode).toBe(403);
    expect((await call('PUT', `/offers/${o.id}`, { name: 'x' }, bpAdmin.token)).statusCode).toBe(404);
    expect((await call('PUT', `/offers/${o.id}`, { name: 'x' }, support.token)).statusCode).toBe(403);
    expect((await call('GET', '/offers', undefined, bpAdmin.token)).statusCode).toBe(403);
    const list = await call('GET', `/offers?limit=1000`, undefined, support.token);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((x: { id: string }) => x.id)).toContain(o.id);
  });

  it('route table, listAllOffers (+): the filters of document 1, a catalog filter, sort and page', async () => {
    const tag = newId();
    const a = await makeOffer({ name: `Alpha ${tag}`, erpReference: `erp-${tag}` });
    const b = await makeOffer({ name: `beta ${tag}`, canBeSold: true });
    const cat = (await call('POST', '/catalogs', { name: `Filter ${tag}`, offerIds: [b.id] })).json().data;
    const ids = async (qs: string) => (await call('GET', `/offers?${qs}`)).json().data.map((x: { id: string }) => x.id);
    expect(await ids(`name=${tag}`)).toEqual([a.id, b.id]);
    expect(await ids(`name=${tag}&sortOrder=-1`)).toEqual([b.id, a.id]);
    expect(await ids(`name=${tag}&erpReference=erp-${tag}`)).toEqual([a.id]);
    expect(await ids(`name=${tag}&canBeSold=true`)).toEqual([b.id]);
    expect(await ids(`catalogId=${cat.id}&format=full`)).toEqual(
      expect.arrayContaining([b.id, (await defaultOffer()).id]),
    );
    const page = (await call('GET', `/offers?name=${tag}&limit=1&offset=1`)).json();
    expect({
      ids: page.data.map((x: { id: string }) => x.id),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    }).toEqual({ ids: [b.id], total: 2, limit: 1, offset: 1 });
  });
});

describe('issue 10, point 1: catalogs (superadmin)', () => {
  it('issue 10, point 1: the first start makes the default catalog, holding the default offer; later starts make no other', async () => {
    const d = await defaultCatalog();
    expect(d).toBeDefined();
    const res = await call('GET', `/catalogs/${d.id}`, undefined, support.token);
    expect(res.json().data).toMatchObject({
      id: d.id,
      isDefault: true,
      offerIds: expect.arrayContaining([(await defaultOffer()).id]),
    });
    await ensureSystemCompanies(t.db);
    await ensureSystemCompanies(t.db);
    expect((await t.db.select().from(catalogs).where(eq(catalogs.isDefault, true))).length).toBe(1);
    expect((await t.db.select().from(offers).where(eq(offers.isDefault, true))).length).toBe(1);
  });

  it('route table, createCatalog (+): a catalog holds the offers given and the default offer; an unknown offer is refused (400) and nothing stored; names are unique', async () => {
    const o = await makeOffer();
    const res = await call('POST', '/catalogs', {
      name: 'Resellers 2027',
      description: 'For resellers',
      offerIds: [o.id, o.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Resellers 2027',
      description: 'For resellers',
      isDefault: false,
      offerIds: expect.arrayContaining([o.id, (await defaultOffer()).id]),
      creationDate: expect.any(String),
      lastUpdateDate: expect.any(String),
    });
    expect(res.json().data.offerIds).toHaveLength(2);
    const before = await count(catalogs);
    const missing = newId();
    expect((await call('POST', '/catalogs', { name: 'With a ghost', offerIds: [o.id, missing] })).json()).toMatchObject(
      { errorDetailsCode: 400005, errorDetails: { offerIds: [missing] } },
    );
    expect((await call('POST', '/catalogs', { name: 'resellers 2027' })).statusCode).toBe(409);
    expect(await count(catalogs)).toBe(before);
  });

  it('route table, updateCatalog (+): another catalog becomes the default one; the default catalog cannot stop being it (409)', async () => {
    const old = await defaultCatalog();
    expect((await call('PUT', `/catalogs/${old.id}`, { isDefault: false })).json().errorDetailsCode).toBe(409602);
    const c = (await call('POST', '/catalogs', { name: `Next default ${newId()}` })).json().data;
    const res = await call('PUT', `/catalogs/${c.id}`, { isDefault: true, description: 'Now the default' });
    expect(res.json().data).toMatchObject({ isDefault: true, description: 'Now the default' });
    expect((await defaultCatalog()).id).toBe(c.id);
    expect((await call('GET', `/catalogs/${old.id}`)).json().data.isDefault).toBe(false);
    // Back as it was, for the other tests.
    expect((await call('PUT', `/catalogs/${old.id}`, { isDefault: true })).json().data.isDefault).toBe(true);
  });

  it('route table, deleteCatalog (+): never the default catalog, nor one companies are assigned to (409); otherwise gone', async () => {
    expect((await call('DELETE', `/catalogs/${(await defaultCatalog()).id}`)).json().errorDetailsCode).toBe(409602);
    const used = (await call('POST', '/catalogs', { name: `Used ${newId()}` })).json().data;
    const company = await makeCompany(t);
    await t.db.update(companies).set({ catalogId: used.id }).where(eq(companies.id, company));
    expect((await call('DELETE', `/catalogs/${used.id}`)).json()).toMatchObject({
      errorDetailsCode: 409603,
      errorDetails: { companies: 1 },
    });
    await t.db.update(companies).set({ catalogId: null }).where(eq(companies.id, company));
    const res = await call('DELETE', `/catalogs/${used.id}`);
    expect(res.json()).toEqual({ status: `Catalog ${used.id} deleted`, data: [] });
    expect((await call('GET', `/catalogs/${used.id}`)).statusCode).toBe(404);
    expect((await t.db.select().from(catalogOffers).where(eq(catalogOffers.catalogId, used.id))).length).toBe(0);
  });

  it('route table, add and remove an offer (+): adding twice changes nothing, an unknown offer is 400, removing one not held is 404, the default offer stays (409)', async () => {
    const c = (await call('POST', '/catalogs', { name: `Filled ${newId()}` })).json().data;
    const o = await makeOffer();
    const added = await call('POST', `/catalogs/${c.id}/offers`, { offerId: o.id });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data.offerIds).toContain(o.id);
    expect((await call('POST', `/catalogs/${c.id}/offers`, { offerId: o.id })).json().data.offerIds).toHaveLength(2);
    expect((await call('POST', `/catalogs/${c.id}/offers`, { offerId: newId() })).json().errorDetailsCode).toBe(400005);
    const removed = await call('DELETE', `/catalogs/${c.id}/offers/${o.id}`);
    expect(removed.json()).toEqual({ status: `Offer ${o.id} removed from catalog ${c.id}`, data: [] });
    expect((await call('DELETE', `/catalogs/${c.id}/offers/${o.id}`)).statusCode).toBe(404);
    expect(
      (await call('DELETE', `/catalogs/${c.id}/offers/${(await defaultOffer()).id}`)).json().errorDetailsCode,
    ).toBe(409600);
    expect((await call('POST', `/catalogs/${newId()}/offers`, { offerId: o.id })).statusCode).toBe(404);
  });

  it('route table, listCatalogs (+): support lists them, at full with their offers; others get 403', async () => {
    const res = await call('GET', '/catalogs?format=full&limit=1000', undefined, support.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.find((c: { isDefault: boolean }) => c.isDefault).offerIds).toContain(
      (await defaultOffer()).id,
    );
    expect((await call('GET', '/catalogs?format=small', undefined, support.token)).json().data[0]).not.toHaveProperty(
      'offerIds',
    );
    expect((await call('GET', '/catalogs', undefined, bpAdmin.token)).statusCode).toBe(403);
  });
});
