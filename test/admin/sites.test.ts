// Document 3, Sites (and routes.md, Sites); decisions in docs/decisions.md.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { sites } from '../../src/modules/admin/sites/sites.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { latinName } from '../../src/modules/admin/sites/sites.service.ts';

const A = '/api/svc/admin/v1.0';
const SITES = `${A}/sites`;
const companySites = (companyId: string) => `${A}/companies/${companyId}/sites`;
let t: TestApp;

// A BP with two End Customers, an organisation of two companies, and an unrelated company.
let bp: string, ec1: string, ec2: string, orgC1: string, orgC2: string, unrelated: string;
let bpAdmin: MadeUser, bpFinance: MadeUser, orgAdmin: MadeUser, ec1Admin: MadeUser, support: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { bpId: bp });
  ec2 = await makeCompany(t, { bpId: bp });
  const org = newId();
  await t.db.insert(organisations).values({ id: org, name: 'Sites org' });
  orgC1 = await makeCompany(t, { organisationId: org });
  orgC2 = await makeCompany(t, { organisationId: org });
  unrelated = await makeCompany(t);
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  bpFinance = await makeUser(t, bp, ['bp_finance']);
  orgAdmin = await makeUser(t, orgC1, ['organization_admin']);
  ec1Admin = await makeUser(t, ec1, ['company_admin']);
  support = await makeUser(t, t.defaultCompanyId, ['support']);
});
afterAll(() => t.close());

const get = (url: string, token: string) => t.inject({ method: 'GET', url, headers: bearer(token) });
const create = (token: string, payload: object) =>
  t.inject({ method: 'POST', url: SITES, headers: bearer(token), payload });
const update = (id: string, token: string, payload: object) =>
  t.inject({ method: 'PUT', url: `${SITES}/${id}`, headers: bearer(token), payload });
const del = (id: string, token: string) =>
  t.inject({ method: 'DELETE', url: `${SITES}/${id}`, headers: bearer(token) });
const siteRow = async (id: string) => (await t.db.select().from(sites).where(eq(sites.id, id)))[0];
const countSites = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(sites))[0].n;

describe('doc 3, sites: create', () => {
  it('doc 3, Site: a company admin creates a site in his company; the answer is the full Site', async () => {
    const res = await create(ec1Admin.token, { companyId: ec1, name: 'Zürich Straße', unknown: 'dropped' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Zürich Straße',
      latin_name: 'Zurich Strasse',
      companyId: ec1,
      creationDate: '2026-11-21T08:00:00.000Z',
      statusUpdatedDate: '2026-11-21T08:00:00.000Z',
      settings: { iceServers: [] },
      status: 'active',
    });
  });

  it('the administrators of the company create sites: bp_admin for his End Customers, organization_admin in his organisation, superadmin anywhere', async () => {
    expect((await create(bpAdmin.token, { companyId: ec2, name: 'By BP' })).statusCode).toBe(201);
    expect((await create(orgAdmin.token, { companyId: orgC2, name: 'By org' })).statusCode).toBe(201);
    expect((await create(t.superToken, { companyId: unrelated, name: 'By root' })).statusCode).toBe(201);
  });

  it('tenant isolation: a company admin cannot create a site in another company (404); support and site_admin may not (403)', async () => {
    const before = await countSites();
    expect((await create(ec1Admin.token, { companyId: ec2, name: 'Nope' })).statusCode).toBe(404);
    expect((await create(support.token, { companyId: ec1, name: 'Nope' })).statusCode).toBe(403);
    const siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: await makeSite(t, ec1) });
    expect((await create(siteAdmin.token, { companyId: ec1, name: 'Nope' })).statusCode).toBe(403);
    expect(await countSites()).toBe(before + 1);
  });

  it('doc 3, Site: name 1 to 255, status among active|alerting|hold|terminated, companyId required: else 400 and nothing stored', async () => {
    const before = await countSites();
    for (const payload of [
      { companyId: ec1, name: '' },
      { companyId: ec1, name: 'n'.repeat(256) },
      { companyId: ec1, name: 'ok', status: 'closed' },
      { name: 'no company' },
      { companyId: ec1 },
    ]) {
      expect((await create(ec1Admin.token, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await create(t.superToken, { companyId: newId(), name: 'Unknown company' })).statusCode).toBe(404);
    expect(await countSites()).toBe(before);
  });
});

describe('doc 3, sites: list sites of a company', () => {
  let company: string;
  beforeAll(async () => {
    company = await makeCompany(t, { bpId: bp });
    for (const name of ['Charlie', 'Alpha', 'Bravo']) await create(t.superToken, { companyId: company, name });
  });

  it('doc 3, list company sites: {data: [Site], total, limit, offset}, sorted by name by default; limit, offset, sortOrder and format apply', async () => {
    const res = await get(companySites(company), t.superToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 3, limit: 100, offset: 0 });
    expect(body.data.map((s: { name: string }) => s.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(Object.keys(body.data[0]).sort()).toEqual(['companyId', 'id', 'name', 'status']);
    const page = (await get(`${companySites(company)}?limit=1&offset=1&sortOrder=-1&format=full`, t.superToken)).json();
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ name: 'Bravo', latin_name: 'Bravo', settings: { iceServers: [] } });
  });

  it('doc 3, list company sites: superadmin and support any company; bp_admin and bp_finance End Customers of their company', async () => {
    for (const token of [t.superToken, support.token, bpAdmin.token, bpFinance.token]) {
      expect((await get(companySites(company), token)).json().total).toBe(3);
    }
    expect((await get(companySites(unrelated), bpAdmin.token)).statusCode).toBe(404);
    expect((await get(companySites(unrelated), bpFinance.token)).statusCode).toBe(404);
  });

  it('doc 3, list company sites: organization_admin the companies of his organisation; company_admin his own company only', async () => {
    expect((await get(companySites(orgC2), orgAdmin.token)).statusCode).toBe(200);
    expect((await get(companySites(ec1), orgAdmin.token)).statusCode).toBe(404);
    expect((await get(companySites(ec1), ec1Admin.token)).statusCode).toBe(200);
    expect((await get(companySites(company), ec1Admin.token)).statusCode).toBe(404);
  });

  it('doc 3, list company sites: site_admin is denied (403 on his own company, 404 elsewhere)', async () => {
    const site = await makeSite(t, company);
    const siteAdmin = await makeUser(t, company, ['site_admin'], { siteId: site });
    const res = await get(companySites(company), siteAdmin.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403001);
    expect((await get(companySites(ec1), siteAdmin.token)).statusCode).toBe(404);
  });

  it('an unknown company is 404', async () => {
    expect((await get(companySites(newId()), t.superToken)).statusCode).toBe(404);
  });
});

describe('doc 3, sites: get a site', () => {
  it('doc 3, get site: superadmin, support, bp_admin (End Customers), organization_admin, company_admin read it; {data: Site}', async () => {
    const site = await makeSite(t, ec1);
    for (const token of [t.superToken, support.token, bpAdmin.token, ec1Admin.token]) {
      const res = await get(`${SITES}/${site}?format=full`, token);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json().data).sort()).toEqual([
        'companyId',
        'creationDate',
        'id',
        'latin_name',
        'name',
        'settings',
        'status',
        'statusUpdatedDate',
      ]);
    }
    expect((await get(`${SITES}/${await makeSite(t, orgC2)}`, orgAdmin.token)).statusCode).toBe(200);
  });

  it('doc 3, get site: site_admin reads his own site only (another site of his company: 404)', async () => {
    const own = await makeSite(t, ec1);
    const other = await makeSite(t, ec1);
    const siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: own });
    expect((await get(`${SITES}/${own}`, siteAdmin.token)).statusCode).toBe(200);
    expect((await get(`${SITES}/${other}`, siteAdmin.token)).statusCode).toBe(404);
    const list = (await get(`${SITES}?limit=1000`, siteAdmin.token)).json();
    expect(list.data.map((s: { id: string }) => s.id)).toEqual([own]);
  });

  it('tenant isolation: sites of other companies are 404 and absent from listAllSites', async () => {
    const foreign = await makeSite(t, unrelated);
    expect((await get(`${SITES}/${foreign}`, ec1Admin.token)).statusCode).toBe(404);
    expect((await get(`${SITES}/${foreign}`, orgAdmin.token)).statusCode).toBe(404);
    expect((await get(`${SITES}/${foreign}`, bpAdmin.token)).statusCode).toBe(404);
    const list = (await get(`${SITES}?limit=1000`, ec1Admin.token)).json();
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((s: { companyId: string }) => s.companyId === ec1)).toBe(true);
    expect((await get(`${SITES}?companyId=${unrelated}`, ec1Admin.token)).json()).toMatchObject({ data: [], total: 0 });
  });

  it('document 3 names no bp_finance for get site: he lists the sites of his End Customers but reading one is 404', async () => {
    const site = await makeSite(t, ec1);
    expect((await get(`${SITES}/${site}`, bpFinance.token)).statusCode).toBe(404);
  });

  it('listAllSites: superadmin sees every site; a plain user is refused (403)', async () => {
    expect((await get(`${SITES}?limit=1000`, t.superToken)).json().total).toBe(await countSites());
    const plain = await makeUser(t, ec1);
    expect((await get(SITES, plain.token)).statusCode).toBe(403);
  });
});

describe('doc 3, sites: update', () => {
  it('doc 3, update site: a company admin renames his site and changes its status; statusUpdatedDate follows the status', async () => {
    const site = await makeSite(t, ec1);
    t.clock.advance(60_000);
    const res = await update(site, ec1Admin.token, { companyId: ec1, name: 'Renamed', status: 'hold' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: site,
      name: 'Renamed',
      companyId: ec1,
      status: 'hold',
      statusUpdatedDate: '2026-11-21T08:01:00.000Z',
    });
    const rename = await update(site, ec1Admin.token, { companyId: ec1, name: 'Again' });
    expect(rename.json().data).toMatchObject({
      name: 'Again',
      status: 'hold',
      statusUpdatedDate: '2026-11-21T08:01:00.000Z',
    });
  });

  it('doc 3, update site: companyId is required, name 1 to 255, status in the list: else 400 and the site is unchanged', async () => {
    const site = await makeSite(t, ec1);
    const before = await siteRow(site);
    for (const payload of [
      { name: 'No company' },
      { companyId: ec1, name: '' },
      { companyId: ec1, name: 'm'.repeat(256) },
      { companyId: ec1, status: 'closed' },
    ]) {
      expect((await update(site, ec1Admin.token, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await siteRow(site)).toEqual(before);
  });

  it('doc 3, update site: a company admin may not move a site to another company (403), the site stays', async () => {
    const site = await makeSite(t, ec1);
    const res = await update(site, ec1Admin.token, { companyId: ec2, name: 'Moved?' });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403250);
    expect(await siteRow(site)).toMatchObject({ companyId: ec1 });
  });

  it('doc 3, update site: a bp admin moves a site between companies he administers', async () => {
    const site = await makeSite(t, ec1);
    const res = await update(site, bpAdmin.token, { companyId: ec2 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.companyId).toBe(ec2);
    expect((await get(`${SITES}/${site}`, ec1Admin.token)).statusCode).toBe(404);
  });

  it("doc 3, update site: an admin of the site's organisation moves it within his organisation", async () => {
    const site = await makeSite(t, orgC1);
    const res = await update(site, orgAdmin.token, { companyId: orgC2 });
    expect(res.statusCode).toBe(200);
    expect(await siteRow(site)).toMatchObject({ companyId: orgC2 });
  });

  it("doc 3, update site: the destination must be in the mover's scope too (404), the site stays", async () => {
    const site = await makeSite(t, ec1);
    expect((await update(site, bpAdmin.token, { companyId: unrelated })).statusCode).toBe(404);
    const orgSite = await makeSite(t, orgC1);
    expect((await update(orgSite, orgAdmin.token, { companyId: ec1 })).statusCode).toBe(404);
    expect((await update(site, t.superToken, { companyId: newId() })).statusCode).toBe(404);
    expect(await siteRow(site)).toMatchObject({ companyId: ec1 });
    expect(await siteRow(orgSite)).toMatchObject({ companyId: orgC1 });
  });

  it('moving a site: its plain users stay in their company without a site; a site_admin of it blocks the move (409)', async () => {
    const site = await makeSite(t, ec1);
    const plain = await makeUser(t, ec1, [], { siteId: site });
    const res = await update(site, bpAdmin.token, { companyId: ec2 });
    expect(res.statusCode).toBe(200);
    const [u] = await t.db.select().from(users).where(eq(users.id, plain.id));
    expect(u).toMatchObject({ companyId: ec1, siteId: null });
    const guarded = await makeSite(t, ec1);
    await makeUser(t, ec1, ['site_admin'], { siteId: guarded });
    const refused = await update(guarded, bpAdmin.token, { companyId: ec2 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorDetailsCode).toBe(409251);
    expect(await siteRow(guarded)).toMatchObject({ companyId: ec1 });
  });

  it('a site_admin may not update his site (403); other roles out of scope get 404', async () => {
    const site = await makeSite(t, ec1);
    const siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site });
    expect((await update(site, siteAdmin.token, { companyId: ec1, name: 'Mine' })).statusCode).toBe(403);
    expect((await update(site, orgAdmin.token, { companyId: ec1, name: 'Theirs' })).statusCode).toBe(404);
    expect((await update(site, support.token, { companyId: ec1, name: 'Read only' })).statusCode).toBe(403);
    expect(await siteRow(site)).toMatchObject({ name: expect.stringMatching(/^Site /) });
  });
});

describe('doc 3, sites: delete', () => {
  it('the company admin deletes a site: {status, data: []}; its plain users stay in the company without a site', async () => {
    const site = await makeSite(t, ec1);
    const plain = await makeUser(t, ec1, [], { siteId: site });
    const res = await del(site, ec1Admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
    expect(await siteRow(site)).toBeUndefined();
    const [u] = await t.db.select().from(users).where(eq(users.id, plain.id));
    expect(u).toMatchObject({ companyId: ec1, siteId: null });
  });

  it('a site with site administrators cannot be deleted (409), the site stays', async () => {
    const site = await makeSite(t, ec1);
    await makeUser(t, ec1, ['site_admin'], { siteId: site });
    const res = await del(site, ec1Admin.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409251);
    expect(await siteRow(site)).toBeDefined();
  });

  it('a site_admin may not delete his site (403); out of scope: 404', async () => {
    const site = await makeSite(t, ec2);
    const siteAdmin = await makeUser(t, ec2, ['site_admin'], { siteId: site });
    expect((await del(site, siteAdmin.token)).statusCode).toBe(403);
    expect((await del(site, ec1Admin.token)).statusCode).toBe(404);
    expect((await del(newId(), t.superToken)).statusCode).toBe(404);
    expect(await siteRow(site)).toBeDefined();
  });
});

describe('latin_name', () => {
  it('is the name without diacritics', () => {
    expect(latinName('Île-de-France')).toBe('Ile-de-France');
    expect(latinName('Kraków Łódź')).toBe('Krakow Lodz');
    expect(latinName('Plain')).toBe('Plain');
  });
});
