// Issue 2, point 7: users and roles. Rules of the supporting users operations (docs/decisions.md).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';

const USERS = '/api/svc/admin/v1.0/users';
let t: TestApp;
let companyId: string;
let admin: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
});
afterAll(() => t.close());

const create = (token: string, payload: object) =>
  t.inject({ method: 'POST', url: USERS, headers: bearer(token), payload });

describe('passwords', () => {
  for (const password of ['short1!', 'alllowercase1!', 'ALLUPPERCASE1!', 'NoDigits!!', 'NoSpecial12'])
    it(`a weak password (${password}) gives 400`, async () => {
      const res = await create(admin.token, {
        loginEmail: `weak-${password.length}-${Math.random()}@x.example`,
        password,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorDetailsCode).toBe(400002);
    });

  it('passwords are stored as argon2id and never appear in a response', async () => {
    const res = await create(admin.token, { loginEmail: 'strong@x.example', password: 'Str0ng-pass' });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toMatch(/Str0ng-pass|argon2|password/i);
    const [row] = await t.db.select().from(users).where(eq(users.id, res.json().data.id));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
  });
});

describe('roles', () => {
  it('every user holds `user`, and may hold several roles', async () => {
    const res = await create(admin.token, {
      loginEmail: 'two@x.example',
      password: PASSWORD,
      roles: ['company_admin'],
    });
    expect(res.json().data.roles.sort()).toEqual(['company_admin', 'user']);
  });

  it('an administrator cannot give a role above his own (403)', async () => {
    const res = await create(admin.token, { loginEmail: 'boss@x.example', password: PASSWORD, roles: ['superadmin'] });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403002);
  });

  it('bp_admin and bp_finance belong to users of BP companies (400 elsewhere)', async () => {
    const res = await create(t.superToken, {
      loginEmail: 'bp@x.example',
      password: PASSWORD,
      companyId,
      roles: ['bp_admin'],
    });
    expect(res.statusCode).toBe(400);
  });

  it('a site_admin needs a site of his company', async () => {
    expect(
      (await create(admin.token, { loginEmail: 'sa1@x.example', password: PASSWORD, roles: ['site_admin'] }))
        .statusCode,
    ).toBe(400);
    const otherSite = await makeSite(t, await makeCompany(t));
    expect(
      (
        await create(admin.token, {
          loginEmail: 'sa2@x.example',
          password: PASSWORD,
          roles: ['site_admin'],
          siteId: otherSite,
        })
      ).statusCode,
    ).toBe(400);
    const site = await makeSite(t, companyId);
    const ok = await create(admin.token, {
      loginEmail: 'sa3@x.example',
      password: PASSWORD,
      roles: ['site_admin'],
      siteId: site,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.siteId).toBe(site);
  });

  it('a site_admin sees the users of his site only', async () => {
    const site = await makeSite(t, companyId);
    const sa = await makeUser(t, companyId, ['site_admin'], { siteId: site });
    const mate = await makeUser(t, companyId, [], { siteId: site });
    const res = await t.inject({ method: 'GET', url: `${USERS}?format=medium`, headers: bearer(sa.token) });
    const ids = res.json().data.map((u: { id: string }) => u.id);
    expect(ids.sort()).toEqual([sa.id, mate.id].sort());
    expect((await t.inject({ method: 'GET', url: `${USERS}/${admin.id}`, headers: bearer(sa.token) })).statusCode).toBe(
      404,
    );
  });
});

describe('login emails', () => {
  it('are unique, case-insensitively (409)', async () => {
    await create(admin.token, { loginEmail: 'Dup@x.example', password: PASSWORD });
    const res = await create(admin.token, { loginEmail: 'dup@X.example', password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409001);
  });
});

describe('scope between tenants', () => {
  it("a company_admin never sees another company's users: 404, and they are absent from lists", async () => {
    const other = await makeUser(t, await makeCompany(t), ['company_admin']);
    expect(
      (await t.inject({ method: 'GET', url: `${USERS}/${other.id}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(404);
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${USERS}/${other.id}`,
          headers: bearer(admin.token),
          payload: { firstName: 'X' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'DELETE', url: `${USERS}/${other.id}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(404);
    const list = await t.inject({
      method: 'GET',
      url: `${USERS}?limit=1000&companyId=${other.id}`,
      headers: bearer(admin.token),
    });
    expect(list.json().total).toBe(0);
  });

  it('a company_admin cannot create users in another company (404, the company is unknown to him)', async () => {
    const res = await create(admin.token, {
      loginEmail: 'cross@x.example',
      password: PASSWORD,
      companyId: await makeCompany(t),
    });
    expect(res.statusCode).toBe(404);
  });

  it('the filter companyId of a caller who may not see that company gives an empty list', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${USERS}?companyId=${t.defaultCompanyId}`,
      headers: bearer(admin.token),
    });
    expect(res.json()).toMatchObject({ data: [], total: 0 });
  });
});

describe('self-service', () => {
  it('a user updates his own names, and is refused (403) a change of his roles', async () => {
    const u = await makeUser(t, companyId);
    const ok = await t.inject({
      method: 'PUT',
      url: `${USERS}/${u.id}`,
      headers: bearer(u.token),
      payload: { firstName: 'Me' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.firstName).toBe('Me');
    const res = await t.inject({
      method: 'PUT',
      url: `${USERS}/${u.id}`,
      headers: bearer(u.token),
      payload: { roles: ['company_admin'] },
    });
    expect(res.statusCode).toBe(403);
  });

  it('an empty PUT body changes nothing', async () => {
    const u = await makeUser(t, companyId);
    const before = (
      await t.inject({ method: 'GET', url: `${USERS}/${u.id}?format=full`, headers: bearer(u.token) })
    ).json().data;
    const res = await t.inject({ method: 'PUT', url: `${USERS}/${u.id}`, headers: bearer(u.token), payload: {} });
    expect(res.statusCode).toBe(200);
    const { lastUpdateDate: _a, ...after } = res.json().data;
    const { lastUpdateDate: _b, ...was } = before;
    expect(after).toEqual(was);
  });

  it('a changed password works at the next login and the old one no longer does', async () => {
    const u = await makeUser(t, companyId);
    await t.inject({
      method: 'PUT',
      url: `${USERS}/${u.id}`,
      headers: bearer(u.token),
      payload: { password: 'N3w-password' },
    });
    await expect(t.login(u.email, 'N3w-password')).resolves.toBeTruthy();
    await expect(t.login(u.email, PASSWORD)).rejects.toThrow();
  });
});

describe('deletion', () => {
  it('nobody deletes himself (403)', async () => {
    expect(
      (await t.inject({ method: 'DELETE', url: `${USERS}/${admin.id}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(403);
  });

  it('a company_admin cannot touch a superadmin of his company (403)', async () => {
    const sa = await makeUser(t, companyId, ['superadmin']);
    expect(
      (await t.inject({ method: 'DELETE', url: `${USERS}/${sa.id}`, headers: bearer(admin.token) })).statusCode,
    ).toBe(403);
  });

  it('the last superadmin cannot lose the role', async () => {
    const [root] = await t.db.select().from(users).where(eq(users.loginEmail, 'root@example.com'));
    // Leave root as the only superadmin: other tests made some.
    await t.db
      .update(users)
      .set({ roles: sql`array_remove(${users.roles}, 'superadmin')` })
      .where(sql`${users.id} <> ${root.id}`);
    const res = await t.inject({
      method: 'PUT',
      url: `${USERS}/${root.id}`,
      headers: bearer(t.superToken),
      payload: { roles: ['company_admin'] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403004);
  });

  it("a deleted user's token is refused", async () => {
    const u = await makeUser(t, companyId);
    await t.inject({ method: 'DELETE', url: `${USERS}/${u.id}`, headers: bearer(admin.token) });
    expect((await t.inject({ method: 'GET', url: `${USERS}/${u.id}`, headers: bearer(u.token) })).statusCode).toBe(401);
  });
});

describe("a user's profile (the fields of the bulk import's template: docs/decisions.md, Bulk import)", () => {
  it('createUser keeps nickName, title, jobTitle, department, country, emails and phoneNumbers; updateUser changes or clears them', async () => {
    const companyId = await makeCompany(t);
    const profile = {
      nickName: 'Jo',
      title: 'Dr',
      jobTitle: 'Engineer',
      department: 'R&D',
      country: 'FRA',
      emails: [{ email: 'jo.work@example.com', type: 'work' }],
      phoneNumbers: [{ number: '+33 6 12 34 56 78', type: 'work', deviceType: 'mobile' }],
    };
    const made = await t.inject({
      method: 'POST',
      url: USERS,
      headers: bearer(t.superToken),
      payload: { companyId, loginEmail: `profile-${companyId}@example.com`, password: PASSWORD, ...profile },
    });
    expect(made.statusCode).toBe(201);
    expect(made.json().data).toMatchObject(profile);
    const id = made.json().data.id;
    const changed = await t.inject({
      method: 'PUT',
      url: `${USERS}/${id}`,
      headers: bearer(t.superToken),
      payload: { department: null, emails: [] },
    });
    expect(changed.json().data).toMatchObject({ ...profile, department: null, emails: [] });
    const bad = await t.inject({
      method: 'PUT',
      url: `${USERS}/${id}`,
      headers: bearer(t.superToken),
      payload: { country: 'France' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
