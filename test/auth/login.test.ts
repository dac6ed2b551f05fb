// Issue 2, point 4: the authentication module (route table, Authentication; doc 1, Authentication).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, basic, bearer, SUPERADMIN, type TestApp } from '../support/harness.ts';
import { makeUser, PASSWORD } from '../support/factories.ts';

const AU = '/api/svc/authentication/v1.0';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { jwtTtlSeconds: 600, loginMaxFailures: 3, loginWindowSeconds: 60 } });
});
afterAll(() => t.close());

describe('login', () => {
  it('returns {token, loggedInUser, loggedInApplication} for Basic credentials, and no secret', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${AU}/login`,
      headers: { authorization: basic(SUPERADMIN.email, SUPERADMIN.password) },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['loggedInApplication', 'loggedInUser', 'token']);
    expect(body.loggedInUser.loginEmail).toBe(SUPERADMIN.email);
    expect(body.loggedInApplication).toBeNull();
    expect(res.body).not.toMatch(/argon2|passwordHash/);
  });

  it('refuses a wrong password with 401 in the error shape', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${AU}/login`,
      headers: { authorization: basic(SUPERADMIN.email, 'Wrong-pass-1') },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ errorCode: 401, errorDetailsCode: 401501 });
  });

  it('refuses a request without credentials with 401', async () => {
    const res = await t.inject({ method: 'GET', url: `${AU}/login` });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorDetailsCode).toBe(401500);
  });

  it('limits failed logins per account and address: 429 with Retry-After, then works after the window', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const bad = { authorization: basic(u.email, 'Wrong-pass-1') };
    for (let i = 0; i < 3; i++)
      expect((await t.inject({ method: 'GET', url: `${AU}/login`, headers: bad })).statusCode).toBe(401);
    const limited = await t.inject({
      method: 'GET',
      url: `${AU}/login`,
      headers: { authorization: basic(u.email, PASSWORD) },
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not limited by this one's failures.
    const other = await t.inject({
      method: 'GET',
      url: `${AU}/login`,
      remoteAddress: '10.9.9.9',
      headers: { authorization: basic(u.email, PASSWORD) },
    });
    expect(other.statusCode).toBe(200);
    t.clock.advance(61_000);
    const after = await t.inject({
      method: 'GET',
      url: `${AU}/login`,
      headers: { authorization: basic(u.email, PASSWORD) },
    });
    expect(after.statusCode).toBe(200);
  });
});

describe('tokens', () => {
  it('validator accepts a fresh token', async () => {
    const res = await t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(t.superToken) });
    expect(res.statusCode).toBe(200);
  });

  it('an expired token gives 401 with errorDetailsCode 401523 and the details of document 1', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    t.clock.advance(601_000);
    const res = await t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(u.token) });
    expect(res.statusCode).toBe(401);
    const body = res.json();
    expect(body.errorDetailsCode).toBe(401523);
    expect(Object.keys(body.errorDetails).sort()).toEqual([
      'creationDate',
      'currentDate',
      'errorMsg',
      'expirationDate',
      'timeToLive',
    ]);
    expect(body.errorDetails.timeToLive).toBe(600);
  });

  it('logout: the token is refused afterwards, also by another instance on the same database', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const other = await createTestApp({ database: t.deps.database });
    expect((await other.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(u.token) })).statusCode).toBe(
      200,
    );
    expect((await t.inject({ method: 'GET', url: `${AU}/logout`, headers: bearer(u.token) })).statusCode).toBe(200);
    const res = await other.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(u.token) });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorDetailsCode).toBe(401521);
    await other.app.close();
  });

  it('renew gives a working token and revokes the old one', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const res = await t.inject({ method: 'GET', url: `${AU}/renew`, headers: bearer(u.token) });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token;
    expect((await t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(fresh) })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(u.token) })).statusCode).toBe(401);
  });

  it('a forged or malformed token gives 401, never 500', async () => {
    for (const tok of ['abc', `${t.superToken.slice(0, -3)}xyz`, 'a.b.c']) {
      const res = await t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(tok) });
      expect(res.statusCode).toBe(401);
    }
  });
});
