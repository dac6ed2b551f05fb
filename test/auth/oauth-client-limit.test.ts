// Issue 9, point 7: failed client authentications at the OAuth token endpoint are limited like
// failed logins (429 with Retry-After), per client id and address, in the login-failure table.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { createHash, randomBytes } from 'node:crypto';
import { expect } from '../support/expect.ts';
import { createTestApp, basic, bearer, type TestApp } from '../support/harness.ts';
import { makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';

const AU = '/api/svc/authentication/v1.0';
const CB = 'https://client.example/cb';

let t: TestApp;
let user: MadeUser;

beforeAll(async () => {
  t = await createTestApp({ config: { jwtTtlSeconds: 600, loginMaxFailures: 3, loginWindowSeconds: 60 } });
  user = await makeUser(t, t.defaultCompanyId);
});
afterAll(() => t.close());

async function newClient() {
  const res = await t.inject({
    method: 'POST',
    url: '/api/svc/applications/v1.0/applications',
    headers: bearer(user.token),
    payload: { name: 'Client', redirectUris: [CB] },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { appId: string; appSecret: string };
}

/** A code for the client, and its PKCE verifier. */
async function code(appId: string) {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: appId,
    redirect_uri: CB,
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const res = await t.inject({
    method: 'GET',
    url: `${AU}/oauth/authorize?${q}`,
    headers: { authorization: basic(user.email, PASSWORD) },
  });
  expect(res.statusCode).toBe(302);
  return { code: new URL(res.headers.location as string).searchParams.get('code')!, verifier };
}

function token(auth: string | undefined, form: Record<string, string>, remoteAddress?: string) {
  return t.inject({
    method: 'POST',
    url: `${AU}/oauth/token`,
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
    payload: new URLSearchParams(form).toString(),
  });
}

const exchange = (auth: string, c: { code: string; verifier: string }, remoteAddress?: string) =>
  token(
    auth,
    { grant_type: 'authorization_code', code: c.code, redirect_uri: CB, code_verifier: c.verifier },
    remoteAddress,
  );

describe('issue 9, point 7: client authentication is limited', () => {
  it('issue 9, point 7: past the failure limit a client gets 429 with Retry-After, even with its right secret, until the window ends', async () => {
    const client = await newClient();
    const wrong = basic(client.appId, 'not-the-secret');
    for (let i = 0; i < 3; i++) {
      const res = await token(wrong, { grant_type: 'refresh_token', refresh_token: 'x' });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('invalid_client');
    }
    const c = await code(client.appId);
    const limited = await exchange(basic(client.appId, client.appSecret), c);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ errorCode: 429, errorDetailsCode: 429002 });
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // The limit is per address: the client elsewhere is not held by these failures.
    expect((await exchange(basic(client.appId, client.appSecret), c, '10.7.7.7')).statusCode).toBe(200);
    t.clock.advance(61_000);
    const c2 = await code(client.appId);
    expect((await exchange(basic(client.appId, client.appSecret), c2)).statusCode).toBe(200);
  });

  it('issue 9, point 7: the limit is per client id: another client from the same address is not held', async () => {
    const a = await newClient();
    const b = await newClient();
    for (let i = 0; i < 3; i++)
      expect(
        (await token(basic(a.appId, 'wrong'), { grant_type: 'refresh_token', refresh_token: 'x' })).statusCode,
      ).toBe(401);
    expect((await token(basic(a.appId, 'wrong'), { grant_type: 'refresh_token', refresh_token: 'x' })).statusCode).toBe(
      429,
    );
    expect((await exchange(basic(b.appId, b.appSecret), await code(b.appId))).statusCode).toBe(200);
  });

  it('issue 9, point 7: requests without client credentials and unknown client ids count as failures too', async () => {
    const addr = '10.8.8.8';
    for (let i = 0; i < 3; i++)
      expect((await token(undefined, { grant_type: 'refresh_token', refresh_token: 'x' }, addr)).statusCode).toBe(401);
    expect((await token(undefined, { grant_type: 'refresh_token', refresh_token: 'x' }, addr)).statusCode).toBe(429);
    const unknown = basic('unknown-client', 'secret');
    for (let i = 0; i < 3; i++)
      expect((await token(unknown, { grant_type: 'refresh_token', refresh_token: 'x' }, addr)).statusCode).toBe(401);
    expect((await token(unknown, { grant_type: 'refresh_token', refresh_token: 'x' }, addr)).statusCode).toBe(429);
  });

  it('issue 9, point 7: a failed grant of an authenticated client is not a failed client authentication, and a success clears the count', async () => {
    const client = await newClient();
    const good = basic(client.appId, client.appSecret);
    for (let i = 0; i < 5; i++)
      expect((await token(good, { grant_type: 'refresh_token', refresh_token: 'not-a-token' })).statusCode).toBe(400);
    for (let i = 0; i < 2; i++)
      expect(
        (await token(basic(client.appId, 'wrong'), { grant_type: 'refresh_token', refresh_token: 'x' })).statusCode,
      ).toBe(401);
    expect((await exchange(good, await code(client.appId))).statusCode).toBe(200);
    for (let i = 0; i < 2; i++)
      expect(
        (await token(basic(client.appId, 'wrong'), { grant_type: 'refresh_token', refresh_token: 'x' })).statusCode,
      ).toBe(401);
    expect((await exchange(good, await code(client.appId))).statusCode).toBe(200);
  });
});
