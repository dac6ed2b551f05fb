// Issue 9, point 5: sessions follow the account. A password change ends the account's other
// sessions (tokens and refresh tokens) and keeps the current one; deleting a user ends his
// sessions and refresh tokens; a role change or a terminated company counts on the next request.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, basic, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { oauthRefreshTokens } from '../../src/modules/authentication/oauth/oauth.tables.ts';

const AU = '/api/svc/authentication/v1.0';
const USERS = '/api/svc/admin/v1.0/users';
const CB = 'https://client.example/cb';
const NEW_PASSWORD = 'Changed-pass-9!';

let t: TestApp;
let client: { appId: string; appSecret: string };

beforeAll(async () => {
  t = await createTestApp({ config: { jwtTtlSeconds: 600 } });
  const owner = await makeUser(t, t.defaultCompanyId);
  const res = await t.inject({
    method: 'POST',
    url: '/api/svc/applications/v1.0/applications',
    headers: bearer(owner.token),
    payload: { name: 'Client', redirectUris: [CB] },
  });
  expect(res.statusCode).toBe(201);
  client = res.json().data;
});
afterAll(() => t.close());

const validator = (token: string) => t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(token) });
const setPassword = (token: string, userId: string, password = NEW_PASSWORD) =>
  t.inject({ method: 'PUT', url: `${USERS}/${userId}`, headers: bearer(token), payload: { password } });

function tokenRequest(form: Record<string, string>) {
  return t.inject({
    method: 'POST',
    url: `${AU}/oauth/token`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(client.appId, client.appSecret),
    },
    payload: new URLSearchParams(form).toString(),
  });
}

/** An OAuth session of the user: an access token and the refresh token bound to it. */
async function oauthSession(u: MadeUser): Promise<{ access: string; refresh: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: client.appId,
    redirect_uri: CB,
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const auth = await t.inject({
    method: 'GET',
    url: `${AU}/oauth/authorize?${q}`,
    headers: { authorization: basic(u.email, PASSWORD) },
  });
  expect(auth.statusCode).toBe(302);
  const code = new URL(auth.headers.location as string).searchParams.get('code')!;
  const tok = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: CB, code_verifier: verifier });
  expect(tok.statusCode).toBe(200);
  return { access: tok.json().access_token, refresh: tok.json().refresh_token };
}

const refresh = (refreshToken: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });

describe('issue 9, point 5: sessions follow the account', () => {
  it('issue 9, point 5: a password change by the user ends his other sessions and refresh tokens, and keeps the current one', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const other = await t.login(u.email, PASSWORD);
    const oauth = await oauthSession(u);
    expect((await validator(other)).statusCode).toBe(200);

    expect((await setPassword(u.token, u.id)).statusCode).toBe(200);

    // The current session goes on, and renews.
    expect((await validator(u.token)).statusCode).toBe(200);
    const renewed = await t.inject({ method: 'GET', url: `${AU}/renew`, headers: bearer(u.token) });
    expect(renewed.statusCode).toBe(200);
    expect((await validator(renewed.json().token)).statusCode).toBe(200);
    // Every other one has ended: the other login, the OAuth access token and its refresh token.
    const refused = await validator(other);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errorDetailsCode).toBe(401521);
    expect((await validator(oauth.access)).statusCode).toBe(401);
    const r = await refresh(oauth.refresh);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('invalid_grant');
    // The new password signs in; the old one no longer does.
    expect(
      (await t.inject({ method: 'GET', url: `${AU}/login`, headers: { authorization: basic(u.email, NEW_PASSWORD) } }))
        .statusCode,
    ).toBe(200);
  });

  it('issue 9, point 5: a password change from an OAuth session keeps that session and its refresh token', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const oauth = await oauthSession(u);
    expect((await setPassword(oauth.access, u.id)).statusCode).toBe(200);
    expect((await validator(oauth.access)).statusCode).toBe(200);
    expect((await validator(u.token)).statusCode).toBe(401);
    expect((await refresh(oauth.refresh)).statusCode).toBe(200);
  });

  it('issue 9, point 5: a password change by an administrator ends every session of the account, not his own', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const oauth = await oauthSession(u);
    expect((await setPassword(t.superToken, u.id)).statusCode).toBe(200);
    expect((await validator(u.token)).statusCode).toBe(401);
    expect((await validator(oauth.access)).statusCode).toBe(401);
    expect((await refresh(oauth.refresh)).statusCode).toBe(400);
    expect((await validator(t.superToken)).statusCode).toBe(200);
  });

  it('issue 9, point 5: a change without a new password ends no session', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const other = await t.login(u.email, PASSWORD);
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${USERS}/${u.id}`,
          headers: bearer(t.superToken),
          payload: { firstName: 'Renamed' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await validator(u.token)).statusCode).toBe(200);
    expect((await validator(other)).statusCode).toBe(200);
  });

  it('issue 9, point 5: deleting a user ends his sessions and his refresh tokens', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const oauth = await oauthSession(u);
    expect(
      (await t.inject({ method: 'DELETE', url: `${USERS}/${u.id}`, headers: bearer(t.superToken) })).statusCode,
    ).toBe(200);
    expect((await validator(u.token)).statusCode).toBe(401);
    expect((await validator(oauth.access)).statusCode).toBe(401);
    expect(await t.db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.userId, u.id))).toHaveLength(0);
    expect((await refresh(oauth.refresh)).statusCode).toBe(400);
  });

  it('issue 9, point 5: a role taken away counts on the next request of the same token', async () => {
    const company = await makeCompany(t);
    const admin = await makeUser(t, company, ['company_admin']);
    const create = (n: number) =>
      t.inject({
        method: 'POST',
        url: USERS,
        headers: bearer(admin.token),
        payload: { companyId: company, loginEmail: `new${n}-${admin.id}@example.com`, password: NEW_PASSWORD },
      });
    expect((await create(1)).statusCode).toBe(201);
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${USERS}/${admin.id}`,
          headers: bearer(t.superToken),
          payload: { roles: ['user'] },
        })
      ).statusCode,
    ).toBe(200);
    // A plain user may not create users in his company (404: createUser is not visible to him).
    expect((await create(2)).statusCode).toBe(404);
  });

  it("issue 9, point 5: a terminated company ends its users' sessions on the next request", async () => {
    const company = await makeCompany(t);
    const u = await makeUser(t, company, ['company_admin']);
    expect((await validator(u.token)).statusCode).toBe(200);
    expect(
      (
        await t.inject({
          method: 'DELETE',
          url: `/api/svc/admin/v1.0/companies/${company}`,
          headers: bearer(t.superToken),
        })
      ).statusCode,
    ).toBe(200);
    expect((await validator(u.token)).statusCode).toBe(401);
  });
});
