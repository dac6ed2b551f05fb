// Issue 3, point 2: join-company links (document 3, Join-company links) and self-registration
// through a link (route table, selfRegister). Decisions in docs/decisions.md, section Join.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq } from 'drizzle-orm';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { joinCompanyLinks } from '../../src/modules/admin/join/join.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';

const A = '/api/svc/admin/v1.0';
const REGISTER = '/api/svc/enduser/v1.0/users/self-register';
let t: TestApp;
let companyId: string;
let otherCompanyId: string;
let admin: MadeUser;
let otherAdmin: MadeUser;

const links = (c: string) => `${A}/companies/${c}/join-companies/links`;
const DAY = 24 * 3600 * 1000;
const future = (days = 30) => new Date(t.clock.now().getTime() + days * DAY).toISOString();
let n = 0;
const email = (domain = 'example.com') => `joiner${++n}@${domain}`;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
  otherCompanyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
  otherAdmin = await makeUser(t, otherCompanyId, ['company_admin']);
});
afterAll(() => t.close());

async function createLink(payload: object = {}, token = admin.token, c = companyId) {
  const res = await t.inject({ method: 'POST', url: links(c), headers: bearer(token), payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as {
    id: string;
    nbUsersRegistered: number;
    isEnabled: boolean;
    maxNumberUsers: number | null;
  };
}

const register = (joinCompanyLinkId: string, o: { loginEmail?: string; password?: string } = {}) =>
  t.inject({
    method: 'POST',
    url: REGISTER,
    payload: {
      loginEmail: o.loginEmail ?? email(),
      password: o.password ?? PASSWORD,
      joinCompanyLinkId,
      firstName: 'Self',
      lastName: 'Registered',
    },
  });

async function linkRow(id: string) {
  const [row] = await t.db.select().from(joinCompanyLinks).where(eq(joinCompanyLinks.id, id));
  return row;
}

describe('doc 3, join-company links: create, get, update, list', () => {
  it('doc 3, create link: the body fields are stored; isEnabled defaults to true; the response is {data: link} with every field', async () => {
    const expirationDate = future(10);
    const res = await t.inject({
      method: 'POST',
      url: links(companyId),
      headers: bearer(admin.token),
      payload: { description: 'Welcome', expirationDate, maxNumberUsers: 5, unknownField: 'x' },
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      companyId,
      createdByAdminId: admin.id,
      creationDate: t.clock.now().toISOString(),
      expirationDate,
      description: 'Welcome',
      isEnabled: true,
      maxNumberUsers: 5,
      nbUsersRegistered: 0,
    });
    expect(res.body).not.toContain('unknownField');
  });

  it('doc 3, get link: GET on the link path returns it', async () => {
    const l = await createLink({ description: 'get me' });
    const res = await t.inject({
      method: 'GET',
      url: `${links(companyId)}/${l.id}?format=full`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: l.id, description: 'get me', isEnabled: true, nbUsersRegistered: 0 });
  });

  it('doc 3, update link: PUT takes the same body fields; absent fields are unchanged', async () => {
    const l = await createLink({ description: 'before', maxNumberUsers: 3 });
    const res = await t.inject({
      method: 'PUT',
      url: `${links(companyId)}/${l.id}`,
      headers: bearer(admin.token),
      payload: { isEnabled: false },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ description: 'before', maxNumberUsers: 3, isEnabled: false });
    const res2 = await t.inject({
      method: 'PUT',
      url: `${links(companyId)}/${l.id}`,
      headers: bearer(admin.token),
      payload: { description: 'after', maxNumberUsers: null },
    });
    expect(res2.json().data).toMatchObject({ description: 'after', maxNumberUsers: null, isEnabled: false });
  });

  it('bad input gets a 4xx and leaves the link unchanged (negative maxNumberUsers, bad date, past expiration)', async () => {
    const l = await createLink({ description: 'stable', maxNumberUsers: 2 });
    const before = await linkRow(l.id);
    for (const payload of [
      { maxNumberUsers: -1 },
      { maxNumberUsers: 'many' },
      { expirationDate: 'tomorrow' },
      { expirationDate: new Date(t.clock.now().getTime() - DAY).toISOString() },
      { isEnabled: 'perhaps' },
    ]) {
      const res = await t.inject({
        method: 'PUT',
        url: `${links(companyId)}/${l.id}`,
        headers: bearer(admin.token),
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await linkRow(l.id)).toEqual(before);
    const past = await t.inject({
      method: 'POST',
      url: links(companyId),
      headers: bearer(admin.token),
      payload: { expirationDate: new Date(t.clock.now().getTime() - DAY).toISOString() },
    });
    expect(past.json().errorDetailsCode).toBe(400300);
  });

  it('doc 3, list links: filters isEnabled, createdByAdminId, expiration and nbUsersRegistered bounds (inclusive), paging', async () => {
    const c = await makeCompany(t);
    const a1 = await makeUser(t, c, ['company_admin']);
    const a2 = await makeUser(t, c, ['company_admin']);
    const l1 = await createLink({ expirationDate: future(5) }, a1.token, c);
    const l2 = await createLink({ expirationDate: future(20), isEnabled: false }, a1.token, c);
    const l3 = await createLink({}, a2.token, c);
    await t.db.update(joinCompanyLinks).set({ nbUsersRegistered: 2 }).where(eq(joinCompanyLinks.id, l2.id));
    await t.db.update(joinCompanyLinks).set({ nbUsersRegistered: 4 }).where(eq(joinCompanyLinks.id, l3.id));
    const list = async (q: string) => {
      const res = await t.inject({ method: 'GET', url: `${links(c)}?${q}`, headers: bearer(a1.token) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: { id: string }[]; total: number; limit: number; offset: number };
    };
    const ids = async (q: string) => (await list(q)).data.map((l) => l.id).sort();
    expect(await ids('')).toEqual([l1.id, l2.id, l3.id].sort());
    expect(await ids('isEnabled=false')).toEqual([l2.id]);
    expect(await ids(`createdByAdminId=${a2.id}`)).toEqual([l3.id]);
    expect(await ids(`fromExpirationDate=${encodeURIComponent(future(10))}`)).toEqual([l2.id]);
    expect(await ids(`toExpirationDate=${encodeURIComponent(future(10))}`)).toEqual([l1.id]);
    expect(await ids('fromNbUsersRegistered=2&toNbUsersRegistered=4')).toEqual([l2.id, l3.id].sort());
    expect(await ids('fromNbUsersRegistered=0&toNbUsersRegistered=2')).toEqual([l1.id, l2.id].sort());
    expect(await ids('toNbUsersRegistered=0')).toEqual([l1.id]);
    const page = await list('limit=2&offset=1&sortField=nbUsersRegistered&sortOrder=-1');
    expect({ total: page.total, limit: page.limit, offset: page.offset }).toEqual({ total: 3, limit: 2, offset: 1 });
    expect(page.data.map((l) => l.id)).toEqual([l2.id, l1.id]);
    expect(
      (await t.inject({ method: 'GET', url: `${links(c)}?fromNbUsersRegistered=lots`, headers: bearer(a1.token) }))
        .statusCode,
    ).toBe(400);
  });
});

describe('doc 3, delete link', () => {
  it('doc 3, delete link: an unused link is deleted; the answer is {status, data: link}', async () => {
    const l = await createLink();
    const res = await t.inject({ method: 'DELETE', url: `${links(companyId)}/${l.id}`, headers: bearer(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: expect.any(String), data: { id: l.id } });
    expect(await linkRow(l.id)).toBeUndefined();
  });

  it('doc 3, delete link: a link already used by registered users is not deleted but disabled (isEnabled false)', async () => {
    const l = await createLink();
    expect((await register(l.id)).statusCode).toBe(201);
    const res = await t.inject({ method: 'DELETE', url: `${links(companyId)}/${l.id}`, headers: bearer(admin.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: l.id, isEnabled: false, nbUsersRegistered: 1 });
    expect(await linkRow(l.id)).toMatchObject({ isEnabled: false, nbUsersRegistered: 1 });
  });
});

describe('doc 3, join-company links: roles and tenant isolation', () => {
  it("tenant isolation: another company's link is 404 through its path and through ours", async () => {
    const theirs = await createLink({}, otherAdmin.token, otherCompanyId);
    for (const [method, url] of [
      ['GET', `${links(otherCompanyId)}/${theirs.id}`],
      ['PUT', `${links(otherCompanyId)}/${theirs.id}`],
      ['DELETE', `${links(otherCompanyId)}/${theirs.id}`],
      ['GET', `${links(companyId)}/${theirs.id}`],
      ['PUT', `${links(companyId)}/${theirs.id}`],
      ['DELETE', `${links(companyId)}/${theirs.id}`],
      ['GET', links(otherCompanyId)],
      ['POST', links(otherCompanyId)],
    ] as const) {
      const res = await t.inject({
        method,
        url,
        headers: bearer(admin.token),
        ...(method === 'PUT' || method === 'POST' ? { payload: { description: 'hijack' } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await linkRow(theirs.id)).toMatchObject({ description: null, isEnabled: true });
  });

  it('doc 3, roles: company admin of the company; a plain user of the company gets 404, superadmin may act on any company', async () => {
    const plain = await makeUser(t, companyId);
    expect(
      (await t.inject({ method: 'POST', url: links(companyId), headers: bearer(plain.token), payload: {} })).statusCode,
    ).toBe(404);
    expect((await t.inject({ method: 'GET', url: links(companyId), headers: bearer(plain.token) })).statusCode).toBe(
      404,
    );
    await createLink({}, t.superToken, companyId);
  });

  it('issue 6, point 3: the bp_admin of the End Customer, not in the list of document 3, sees the company: 403, not 404; a bp_admin of another BP gets 404', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const ec = await makeCompany(t, { bpId: bp });
    const bpAdmin = await makeUser(t, bp, ['bp_admin']);
    const res = await t.inject({ method: 'POST', url: links(ec), headers: bearer(bpAdmin.token), payload: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403001);
    const otherBp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const stranger = await makeUser(t, otherBp, ['bp_admin']);
    expect(
      (await t.inject({ method: 'POST', url: links(ec), headers: bearer(stranger.token), payload: {} })).statusCode,
    ).toBe(404);
  });

  it('issue 6, point 1: a link read under another company than its own gives 404, even to a superadmin', async () => {
    const a = await makeCompany(t);
    const b = await makeCompany(t);
    const made = await t.inject({ method: 'POST', url: links(a), headers: bearer(t.superToken), payload: {} });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.id as string;
    expect(
      (await t.inject({ method: 'GET', url: `${links(a)}/${id}`, headers: bearer(t.superToken) })).statusCode,
    ).toBe(200);
    const wrong = await t.inject({ method: 'GET', url: `${links(b)}/${id}`, headers: bearer(t.superToken) });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().errorDetails).toMatchObject({ target: 'joinLink' });
    expect(
      (await t.inject({ method: 'DELETE', url: `${links(b)}/${id}`, headers: bearer(t.superToken) })).statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'GET', url: `${links(a)}/${id}`, headers: bearer(t.superToken) })).statusCode,
    ).toBe(200);
  });
});

describe('selfRegister (route table; doc 3, join-company links)', () => {
  it("doc 3, join-company links: a user creates his account through the link id, with no token; he lands in the link's company with role user; nbUsersRegistered counts him", async () => {
    const l = await createLink({ maxNumberUsers: 10 });
    const loginEmail = email();
    const res = await register(l.id, { loginEmail });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      loginEmail,
      companyId,
      roles: ['user'],
      firstName: 'Self',
      lastName: 'Registered',
    });
    expect(res.body).not.toMatch(/password/i);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(1);
    await t.login(loginEmail, PASSWORD);
  });

  it('an unknown link gives 404', async () => {
    const res = await register('0123456789abcdef01234567');
    expect(res.statusCode).toBe(404);
    expect(res.json().errorDetailsCode).toBe(404300);
  });

  it('issue 3: a disabled link refuses with its own error (403300); nothing is created', async () => {
    const l = await createLink({ isEnabled: false });
    const loginEmail = email();
    const res = await register(l.id, { loginEmail });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403300);
    expect(await t.db.select().from(users).where(eq(users.loginEmail, loginEmail))).toEqual([]);
  });

  it('issue 3: an expired link refuses with its own error (403301)', async () => {
    const l = await createLink({ expirationDate: future(1) });
    // Its expiration date passed (moving the clock would expire the test's tokens too).
    await t.db
      .update(joinCompanyLinks)
      .set({ expirationDate: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(joinCompanyLinks.id, l.id));
    const res = await register(l.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403301);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(0);
  });

  it('issue 3: a full link (nbUsersRegistered = maxNumberUsers) refuses with its own error (403302)', async () => {
    const l = await createLink({ maxNumberUsers: 1 });
    expect((await register(l.id)).statusCode).toBe(201);
    const res = await register(l.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403302);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(1);
  });

  it('concurrent registrations never pass maxNumberUsers', async () => {
    const l = await createLink({ maxNumberUsers: 3 });
    const results = await Promise.all(Array.from({ length: 8 }, () => register(l.id)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c !== 201).every((c) => c === 403)).toBe(true);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(3);
    expect(
      await t.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.companyId, companyId))
        .then((r) => r.length),
    ).toBeGreaterThanOrEqual(3);
  });

  it('doc 3, userSelfRegisterEnabled false: the company refuses self-registration (403303)', async () => {
    const c = await makeCompany(t);
    const a = await makeUser(t, c, ['company_admin']);
    const l = await createLink({}, a.token, c);
    await t.db.update(companies).set({ userSelfRegisterEnabled: false }).where(eq(companies.id, c));
    const res = await register(l.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403303);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(0);
  });

  it('doc 3, userSelfRegisterAllowedDomains: when set, only those e-mail domains register (403304 otherwise)', async () => {
    const c = await makeCompany(t);
    const a = await makeUser(t, c, ['company_admin']);
    const l = await createLink({}, a.token, c);
    await t.db
      .update(companies)
      .set({ userSelfRegisterAllowedDomains: ['corp.example', '@Other.Example'] })
      .where(eq(companies.id, c));
    const refused = await register(l.id, { loginEmail: email('elsewhere.example') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorDetailsCode).toBe(403304);
    expect((await register(l.id, { loginEmail: email('corp.example') })).statusCode).toBe(201);
    expect((await register(l.id, { loginEmail: email('other.example') })).statusCode).toBe(201);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(2);
  });

  it('password policy and unique login email as createUser; bad input leaves the count unchanged', async () => {
    const l = await createLink();
    const weak = await register(l.id, { password: 'weak' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errorDetailsCode).toBe(400002);
    const taken = await register(l.id, { loginEmail: admin.email.toUpperCase() });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().errorDetailsCode).toBe(409001);
    const bad = await t.inject({
      method: 'POST',
      url: REGISTER,
      payload: { loginEmail: 'not-an-email', password: PASSWORD, joinCompanyLinkId: l.id },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.inject({
      method: 'POST',
      url: REGISTER,
      payload: { loginEmail: email(), password: PASSWORD },
    });
    expect(missing.statusCode).toBe(400);
    expect((await linkRow(l.id)).nbUsersRegistered).toBe(0);
  });
});
