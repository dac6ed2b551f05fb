// Document 3, Organisations (and routes.md, Organisations); roles in docs/decisions.md.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, basic, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const A = '/api/svc/admin/v1.0';
const ORGS = `${A}/organisations`;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function makeOrganisation(name = `Org ${newId()}`): Promise<string> {
  const id = newId();
  await t.db.insert(organisations).values({ id, name });
  return id;
}

/** An organization_admin in a company of a new organisation. */
async function orgAdminOf(orgId: string): Promise<{ admin: MadeUser; companyId: string }> {
  const companyId = await makeCompany(t, { organisationId: orgId });
  return { admin: await makeUser(t, companyId, ['organization_admin']), companyId };
}

const countOrganisations = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(organisations))[0].n;
const organisationOf = async (companyId: string) =>
  (await t.db.select({ o: companies.organisationId }).from(companies).where(eq(companies.id, companyId)))[0]?.o;
const get = (url: string, token: string) => t.inject({ method: 'GET', url, headers: bearer(token) });

describe('doc 3, organisations: create (superadmin)', () => {
  it('doc 3, Organisation: a superadmin creates one; visibility defaults to private; the answer is the full Organisation', async () => {
    const res = await t.inject({
      method: 'POST',
      url: ORGS,
      headers: bearer(t.superToken),
      payload: { name: 'Acme group', extra: 'dropped' },
    });
    expect(res.statusCode).toBe(201);
    const o = res.json().data;
    expect(o).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Acme group',
      visibility: 'private',
      creationDate: '2026-11-21T08:00:00.000Z',
    });
    const pub = await t.inject({
      method: 'POST',
      url: ORGS,
      headers: bearer(t.superToken),
      payload: { name: 'Open group', visibility: 'public' },
    });
    expect(pub.json().data.visibility).toBe('public');
  });

  it('doc 3, Organisation: name 1 to 255 characters and visibility public|private, else 400 and nothing stored', async () => {
    const before = await countOrganisations();
    for (const payload of [
      { name: '' },
      { name: 'x'.repeat(256) },
      { name: 'ok', visibility: 'secret' },
      {},
      { name: ['a', 'b'] },
    ]) {
      const res = await t.inject({ method: 'POST', url: ORGS, headers: bearer(t.superToken), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await countOrganisations()).toBe(before);
  });

  it('only a superadmin creates organisations (403 for support, organization_admin, company_admin)', async () => {
    const { admin } = await orgAdminOf(await makeOrganisation());
    const support = await makeUser(t, t.defaultCompanyId, ['support']);
    const ca = await makeUser(t, await makeCompany(t), ['company_admin']);
    for (const u of [admin, support, ca]) {
      const res = await t.inject({ method: 'POST', url: ORGS, headers: bearer(u.token), payload: { name: 'Mine' } });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('doc 3, organisations: list and get', () => {
  it('doc 3, list organisations: {data: [{name, id}], limit, offset, total}, sorted by name by default, paged', async () => {
    for (const n of ['Zeta list', 'Alpha list', 'Mu list']) await makeOrganisation(n);
    const res = await get(`${ORGS}?limit=1000`, t.superToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'offset', 'total']);
    for (const o of body.data) expect(Object.keys(o).sort()).toEqual(['id', 'name']);
    const names = body.data.map((o: { name: string }) => o.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const page = (await get(`${ORGS}?limit=2&offset=1&sortOrder=-1`, t.superToken)).json();
    expect(page).toMatchObject({ limit: 2, offset: 1, total: body.total });
    expect(page.data.map((o: { id: string }) => o.id)).toEqual(
      [...body.data]
        .reverse()
        .slice(1, 3)
        .map((o: { id: string }) => o.id),
    );
    const medium = (await get(`${ORGS}?format=medium&limit=1`, t.superToken)).json().data[0];
    expect(Object.keys(medium).sort()).toEqual(['id', 'name', 'visibility']);
  });

  it('an organization_admin lists and reads only his own organisation; support reads all', async () => {
    const mine = await makeOrganisation('Mine org');
    const other = await makeOrganisation('Other org');
    const { admin } = await orgAdminOf(mine);
    const list = (await get(`${ORGS}?limit=1000`, admin.token)).json();
    expect(list.data.map((o: { id: string }) => o.id)).toEqual([mine]);
    expect(list.total).toBe(1);
    const res = await get(`${ORGS}/${mine}`, admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: mine,
      name: 'Mine org',
      visibility: 'private',
      creationDate: expect.any(String),
    });
    // Tenant isolation: another organisation is unknown to him.
    expect((await get(`${ORGS}/${other}`, admin.token)).statusCode).toBe(404);
    const support = await makeUser(t, t.defaultCompanyId, ['support']);
    expect((await get(`${ORGS}/${other}`, support.token)).statusCode).toBe(200);
    expect((await get(`${ORGS}?limit=1000`, support.token)).json().total).toBe(await countOrganisations());
  });

  it('a company_admin or plain user sees no organisation: get 404, list 403', async () => {
    const org = await makeOrganisation();
    const companyId = await makeCompany(t, { organisationId: org });
    const ca = await makeUser(t, companyId, ['company_admin']);
    expect((await get(`${ORGS}/${org}`, ca.token)).statusCode).toBe(404);
    expect((await get(ORGS, ca.token)).statusCode).toBe(403);
  });

  it('an unknown or malformed organisationId is 404, never 500', async () => {
    expect((await get(`${ORGS}/${newId()}`, t.superToken)).statusCode).toBe(404);
    expect((await get(`${ORGS}/${'x'.repeat(65)}`, t.superToken)).statusCode).toBe(400);
  });
});

describe('doc 3, organisations: update and delete (superadmin)', () => {
  it('update changes the given fields only; an empty body changes nothing', async () => {
    const org = await makeOrganisation('Before');
    const res = await t.inject({
      method: 'PUT',
      url: `${ORGS}/${org}`,
      headers: bearer(t.superToken),
      payload: { visibility: 'public' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: org, name: 'Before', visibility: 'public' });
    const same = await t.inject({ method: 'PUT', url: `${ORGS}/${org}`, headers: bearer(t.superToken), payload: {} });
    expect(same.json().data).toMatchObject({ name: 'Before', visibility: 'public' });
  });

  it('bad input gives 400 and the stored organisation is unchanged', async () => {
    const org = await makeOrganisation('Stable');
    for (const payload of [{ name: '' }, { name: 'y'.repeat(256) }, { visibility: 'hidden' }]) {
      expect(
        (await t.inject({ method: 'PUT', url: `${ORGS}/${org}`, headers: bearer(t.superToken), payload })).statusCode,
      ).toBe(400);
    }
    const [row] = await t.db.select().from(organisations).where(eq(organisations.id, org));
    expect(row).toMatchObject({ name: 'Stable', visibility: 'private' });
  });

  it('an organization_admin may not change or delete his organisation (403), nor another (404)', async () => {
    const mine = await makeOrganisation();
    const other = await makeOrganisation();
    const { admin } = await orgAdminOf(mine);
    expect(
      (await t.inject({ method: 'PUT', url: `${ORGS}/${mine}`, headers: bearer(admin.token), payload: { name: 'X' } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.inject({ method: 'DELETE', url: `${ORGS}/${mine}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(403);
    expect(
      (await t.inject({ method: 'PUT', url: `${ORGS}/${other}`, headers: bearer(admin.token), payload: { name: 'X' } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'DELETE', url: `${ORGS}/${other}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(404);
  });

  it('doc 3: deleting an organisation unlinks its companies (they stay, without organisation)', async () => {
    const org = await makeOrganisation();
    const c1 = await makeCompany(t, { organisationId: org });
    const c2 = await makeCompany(t, { organisationId: org });
    const res = await t.inject({ method: 'DELETE', url: `${ORGS}/${org}`, headers: bearer(t.superToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
    expect(await organisationOf(c1)).toBeNull();
    expect(await organisationOf(c2)).toBeNull();
    expect((await get(`${ORGS}/${org}`, t.superToken)).statusCode).toBe(404);
  });
});

describe('doc 3, organisations: companies of an organisation', () => {
  const link = (org: string, companyId: unknown, token = t.superToken) =>
    t.inject({ method: 'POST', url: `${ORGS}/${org}/companies`, headers: bearer(token), payload: { companyId } });
  const unlink = (org: string, companyId: string, token = t.superToken) =>
    t.inject({ method: 'DELETE', url: `${ORGS}/${org}/companies/${companyId}`, headers: bearer(token) });

  it('doc 3, link: POST .../companies {companyId} links the company; response {data: Company} (issue 8, point 5: the whole Company, as getCompany at full)', async () => {
    const org = await makeOrganisation();
    const companyId = await makeCompany(t, { name: 'Linked Co' });
    const res = await link(org, companyId);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: companyId,
      name: 'Linked Co',
      organisationId: org,
      latin_name: 'Linked Co',
      status: 'active',
      country: 'FRA',
      numberUsers: 0,
    });
    expect(data.dataLocation).toEqual({ name: 'Europe', location: 'Paris', country: 'FRA' });
    const read = await t.inject({
      method: 'GET',
      url: `/api/svc/admin/v1.0/companies/${companyId}?format=full`,
      headers: bearer(t.superToken),
    });
    expect(data).toEqual(read.json().data);
    // format works as on getCompany.
    const small = await t.inject({
      method: 'POST',
      url: `${ORGS}/${org}/companies?format=small`,
      headers: bearer(t.superToken),
      payload: { companyId },
    });
    expect(small.json().data).toEqual({ name: 'Linked Co', id: companyId });
    expect(await organisationOf(companyId)).toBe(org);
  });

  it('doc 3, link: linking it again to the same organisation is no error', async () => {
    const org = await makeOrganisation();
    const companyId = await makeCompany(t, { organisationId: org });
    const res = await link(org, companyId);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.organisationId).toBe(org);
  });

  it('doc 3, link: a company belongs to at most one organisation: linking one of another organisation is 409, nothing changes', async () => {
    const first = await makeOrganisation();
    const second = await makeOrganisation();
    const companyId = await makeCompany(t, { organisationId: first });
    const res = await link(second, companyId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ errorDetailsCode: 409200, errorDetails: { companyId, organisationId: first } });
    expect(res.json().errorMsg).toMatch(/another organisation/);
    expect(await organisationOf(companyId)).toBe(first);
  });

  it('link: an unknown company is 404, a missing or malformed companyId 400, the Default company 403; nothing changes', async () => {
    const org = await makeOrganisation();
    expect((await link(org, newId())).statusCode).toBe(404);
    expect((await link(org, undefined)).statusCode).toBe(400);
    expect((await link(org, { id: 1 })).statusCode).toBe(400);
    const res = await link(org, t.defaultCompanyId);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403200);
    expect(await organisationOf(t.defaultCompanyId)).toBeNull();
  });

  it('doc 3, link: its users are attached automatically: the organisation admin reaches them at once, and loses them on unlink (404)', async () => {
    const org = await makeOrganisation();
    const { admin } = await orgAdminOf(org);
    const companyId = await makeCompany(t);
    const site = await makeSite(t, companyId);
    const worker = await makeUser(t, companyId);
    const reach = async () => ({
      user: (await get(`${A}/users/${worker.id}`, admin.token)).statusCode,
      sites: (await get(`${A}/companies/${companyId}/sites`, admin.token)).statusCode,
      site: (await get(`${A}/sites/${site}`, admin.token)).statusCode,
    });
    expect(await reach()).toEqual({ user: 404, sites: 404, site: 404 });
    expect((await link(org, companyId)).statusCode).toBe(201);
    expect(await reach()).toEqual({ user: 200, sites: 200, site: 200 });
    const res = await unlink(org, companyId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
    expect(await reach()).toEqual({ user: 404, sites: 404, site: 404 });
    expect(await organisationOf(companyId)).toBeNull();
  });

  it("the organisation of an organization_admin is his company's, read on every request: unlinking his company ends his reach at once", async () => {
    const org = await makeOrganisation();
    const { admin, companyId } = await orgAdminOf(org);
    expect((await get(`${ORGS}/${org}`, admin.token)).statusCode).toBe(200);
    await unlink(org, companyId);
    expect((await get(`${ORGS}/${org}`, admin.token)).statusCode).toBe(404);
  });

  it('doc 3, list companies of an organisation: {data: [{name, id}], limit, offset, total}; format medium adds organisationId', async () => {
    const org = await makeOrganisation();
    const { admin, companyId: own } = await orgAdminOf(org);
    const b = await makeCompany(t, { name: 'B company', organisationId: org });
    await makeCompany(t, { name: 'Outsider' });
    const res = await get(`${ORGS}/${org}/companies`, admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(body.data.map((c: { id: string }) => c.id).sort()).toEqual([own, b].sort());
    for (const c of body.data) expect(Object.keys(c).sort()).toEqual(['id', 'name']);
    expect(body.data[0].name).toBe('B company'); // sorted by name
    const medium = (await get(`${ORGS}/${org}/companies?format=medium&limit=1&offset=1`, t.superToken)).json();
    expect(medium).toMatchObject({ total: 2, limit: 1, offset: 1, data: [{ id: own, organisationId: org }] });
  });

  it('an organization_admin reads the companies of his organisation only (another: 404) and may not link or unlink (403)', async () => {
    const org = await makeOrganisation();
    const other = await makeOrganisation();
    const { admin, companyId } = await orgAdminOf(org);
    expect((await get(`${ORGS}/${other}/companies`, admin.token)).statusCode).toBe(404);
    const free = await makeCompany(t);
    expect((await link(org, free, admin.token)).statusCode).toBe(403);
    expect((await link(other, free, admin.token)).statusCode).toBe(404);
    expect((await unlink(org, companyId, admin.token)).statusCode).toBe(403);
    expect(await organisationOf(free)).toBeNull();
    expect(await organisationOf(companyId)).toBe(org);
  });

  it('unlink: a company that is not in the organisation is 404 and stays where it is', async () => {
    const org = await makeOrganisation();
    const other = await makeOrganisation();
    const companyId = await makeCompany(t, { organisationId: other });
    const res = await unlink(org, companyId);
    expect(res.statusCode).toBe(404);
    expect(await organisationOf(companyId)).toBe(other);
  });
});

describe("issue 8, point 5: a user shows organisationId, his company's, at full level (doc 3: a company's users are attached to its organisation)", () => {
  const USERS = `${A}/users`;

  it('issue 8, point 5: getUser (default full) shows the organisation of his company, null without one; small and medium leave it out', async () => {
    const org = await makeOrganisation();
    const inOrg = await makeUser(t, await makeCompany(t, { organisationId: org }));
    const outside = await makeUser(t, await makeCompany(t));
    expect((await get(`${USERS}/${inOrg.id}`, t.superToken)).json().data.organisationId).toBe(org);
    expect((await get(`${USERS}/${outside.id}`, t.superToken)).json().data.organisationId).toBeNull();
    for (const f of ['small', 'medium'])
      expect((await get(`${USERS}/${inOrg.id}?format=${f}`, t.superToken)).json().data).not.toHaveProperty(
        'organisationId',
      );
    // Read by someone of his own company (the caller's organisation is reused).
    const admin = await makeUser(t, (await get(`${USERS}/${inOrg.id}`, t.superToken)).json().data.companyId, [
      'company_admin',
    ]);
    expect((await get(`${USERS}/${inOrg.id}`, admin.token)).json().data.organisationId).toBe(org);
  });

  it('issue 8, point 5: the organisationId of his users follows the company when it is linked and unlinked, and when the organisation is deleted', async () => {
    const org = await makeOrganisation();
    const companyId = await makeCompany(t);
    const u = await makeUser(t, companyId);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${ORGS}/${org}/companies`,
          headers: bearer(t.superToken),
          payload: { companyId },
        })
      ).statusCode,
    ).toBe(201);
    expect((await get(`${USERS}/${u.id}`, t.superToken)).json().data.organisationId).toBe(org);
    expect(
      (
        await t.inject({
          method: 'DELETE',
          url: `${ORGS}/${org}/companies/${companyId}`,
          headers: bearer(t.superToken),
        })
      ).statusCode,
    ).toBe(200);
    expect((await get(`${USERS}/${u.id}`, t.superToken)).json().data.organisationId).toBeNull();
    await t.inject({
      method: 'POST',
      url: `${ORGS}/${org}/companies`,
      headers: bearer(t.superToken),
      payload: { companyId },
    });
    expect(
      (await t.inject({ method: 'DELETE', url: `${ORGS}/${org}`, headers: bearer(t.superToken) })).statusCode,
    ).toBe(200);
    expect((await get(`${USERS}/${u.id}`, t.superToken)).json().data.organisationId).toBeNull();
  });

  it('issue 8, point 5: the copy kept in the database cannot drift from the company: a user moved to another company takes its organisation, a direct write is overridden', async () => {
    const org = await makeOrganisation();
    const inOrg = await makeCompany(t, { organisationId: org });
    const u = await makeUser(t, await makeCompany(t));
    await t.db.update(users).set({ companyId: inOrg }).where(eq(users.id, u.id));
    expect((await t.db.select().from(users).where(eq(users.id, u.id)))[0].organisationId).toBe(org);
    await t.db
      .update(users)
      .set({ organisationId: await makeOrganisation() })
      .where(eq(users.id, u.id));
    expect((await t.db.select().from(users).where(eq(users.id, u.id)))[0].organisationId).toBe(org);
  });

  it('issue 8, point 5: login answers loggedInUser with his organisationId', async () => {
    const org = await makeOrganisation();
    const u = await makeUser(t, await makeCompany(t, { organisationId: org }));
    const res = await t.inject({
      method: 'GET',
      url: '/api/svc/authentication/v1.0/login',
      headers: { authorization: basic(u.email, PASSWORD) },
    });
    expect(res.json().loggedInUser.organisationId).toBe(org);
  });

  it('issue 8, point 5: listUsers at full, createUser and updateUser show it too', async () => {
    const org = await makeOrganisation();
    const companyId = await makeCompany(t, { organisationId: org });
    const created = await t.inject({
      method: 'POST',
      url: USERS,
      headers: bearer(t.superToken),
      payload: { loginEmail: `org-user-${newId()}@example.com`, password: 'Passw0rd!', companyId },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.organisationId).toBe(org);
    const id = created.json().data.id;
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${USERS}/${id}`,
          headers: bearer(t.superToken),
          payload: { firstName: 'Org' },
        })
      ).json().data.organisationId,
    ).toBe(org);
    const full = (await get(`${USERS}?companyId=${companyId}&format=full`, t.superToken)).json().data;
    expect(full.map((u: { organisationId: string }) => u.organisationId)).toEqual([org]);
    const small = (await get(`${USERS}?companyId=${companyId}`, t.superToken)).json().data;
    expect(small[0]).not.toHaveProperty('organisationId');
  });
});
