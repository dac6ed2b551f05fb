// OAuth 2.0 authorization code grant with PKCE and refresh tokens (route table, Authentication;
// doc 1, Authentication 3).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { createTestApp, basic, bearer, type TestApp } from '../support/harness.ts';
import { makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { loginFailures } from '../../src/modules/authentication/authentication.tables.ts';
import { oauthCodes, oauthRefreshTokens } from '../../src/modules/authentication/oauth/oauth.tables.ts';
import { sha256hex } from '../../src/shared/ids.ts';

const AU = '/api/svc/authentication/v1.0';
const AUTHORIZE = `${AU}/oauth/authorize`;
const TOKEN = `${AU}/oauth/token`;
const CB = 'https://client.example/cb';
const FORM = 'application/x-www-form-urlencoded';

let t: TestApp;
let user: MadeUser;
let app: { appId: string; appSecret: string };

beforeAll(async () => {
  t = await createTestApp({ config: { jwtTtlSeconds: 600 } });
  user = await makeUser(t, t.defaultCompanyId);
  app = await createApp(user.token);
});
afterAll(() => t.close());

async function createApp(token: string, redirectUris = [CB]) {
  const res = await t.inject({
    method: 'POST',
    url: '/api/svc/applications/v1.0/applications',
    headers: bearer(token),
    payload: { name: 'Client', redirectUris },
  });
  expect(res.statusCode).toBe(201);
  const { appId, appSecret } = res.json().data;
  return { appId: appId as string, appSecret: appSecret as string };
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(p: Record<string, string | undefined>) {
  const q = new URLSearchParams(Object.entries(p).filter((e): e is [string, string] => e[1] !== undefined));
  return `${AUTHORIZE}?${q.toString()}`;
}

async function authorize(
  o: { auth?: string; redirectUri?: string; challenge?: string; clientId?: string; state?: string } = {},
) {
  return t.inject({
    method: 'GET',
    url: authorizeUrl({
      response_type: 'code',
      client_id: o.clientId ?? app.appId,
      redirect_uri: o.redirectUri ?? CB,
      scope: 'profile',
      state: o.state ?? 'st-123',
      code_challenge: o.challenge,
      code_challenge_method: o.challenge ? 'S256' : undefined,
    }),
    headers: o.auth ? { authorization: o.auth } : {},
  });
}

/** Signs the user in on authorize and returns the code of the redirect. */
async function getCode(challenge: string, auth = basic(user.email, PASSWORD)): Promise<string> {
  const res = await authorize({ auth, challenge });
  expect(res.statusCode).toBe(302);
  const code = new URL(res.headers.location as string).searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

/**
 * The token endpoint writes its reply itself (envelope 'raw'), and src/http/operation.ts does not
 * yet put the success response of such operations in the OpenAPI document. Until it does, its
 * 200 is checked here against the declared TokenResponse; every other status goes through the
 * same document check as t.inject.
 */
// Every answer, 200 included, is checked against the documented schema by the harness.
const postToken = (on: TestApp, opts: InjectOptions) => on.inject(opts);

function token(
  form: Record<string, string>,
  client: { appId: string; appSecret: string } | null = app,
  on: TestApp = t,
) {
  return postToken(on, {
    method: 'POST',
    url: TOKEN,
    headers: { 'content-type': FORM, ...(client ? { authorization: basic(client.appId, client.appSecret) } : {}) },
    payload: new URLSearchParams(form).toString(),
  });
}

const exchange = (code: string, verifier: string, client = app, on: TestApp = t) =>
  token({ grant_type: 'authorization_code', code, redirect_uri: CB, code_verifier: verifier }, client, on);

const getOwnUser = (accessToken: string) =>
  t.inject({ method: 'GET', url: `/api/svc/admin/v1.0/users/${user.id}`, headers: bearer(accessToken) });

describe('authorization code grant with PKCE', () => {
  it('the whole dance: authorize -> 302 with code and state -> tokens -> the access token works on the API -> refresh rotates the refresh token', async () => {
    const { verifier, challenge } = pkce();
    const res = await authorize({ auth: `Bearer ${user.token}`, challenge, state: 'xyz-42' });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(CB);
    expect(location.searchParams.get('state')).toBe('xyz-42');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const tok = await exchange(code, verifier);
    expect(tok.statusCode).toBe(200);
    expect(tok.headers['cache-control']).toBe('no-store');
    const body = tok.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'profile' });
    expect(typeof body.access_token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');

    const me = await getOwnUser(body.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data.id).toBe(user.id);

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json();
    expect(next.refresh_token).not.toBe(body.refresh_token);
    expect(next.access_token).not.toBe(body.access_token);
    expect((await getOwnUser(next.access_token)).statusCode).toBe(200);

    const again = await token({ grant_type: 'refresh_token', refresh_token: body.refresh_token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('the user may sign in on authorize with Basic loginEmail:password', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge, basic(user.email, PASSWORD));
    const tok = await exchange(code, verifier);
    expect(tok.statusCode).toBe(200);
    expect((await getOwnUser(tok.json().access_token)).statusCode).toBe(200);
  });

  it('codes and refresh tokens are stored only as SHA-256', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    expect(await t.db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, code))).toHaveLength(0);
    expect(
      await t.db
        .select()
        .from(oauthCodes)
        .where(eq(oauthCodes.codeHash, sha256hex(code))),
    ).toHaveLength(1);
    const { refresh_token } = (await exchange(code, verifier)).json();
    expect(
      await t.db
        .select()
        .from(oauthRefreshTokens)
        .where(eq(oauthRefreshTokens.tokenHash, sha256hex(refresh_token))),
    ).toHaveLength(1);
    expect(
      await t.db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, refresh_token)),
    ).toHaveLength(0);
  });

  it('a wrong code_verifier is refused, and it spends the code', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const bad = await exchange(code, pkce().verifier);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange(code, verifier)).statusCode).toBe(400);
  });

  it('a code without its code_verifier is refused', async () => {
    const { challenge } = pkce();
    const code = await getCode(challenge);
    const res = await token({ grant_type: 'authorization_code', code, redirect_uri: CB });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('a code is single use: the second exchange is refused', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    expect((await exchange(code, verifier)).statusCode).toBe(200);
    const second = await exchange(code, verifier);
    expect(second.statusCode).toBe(400);
    expect(second.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('two concurrent exchanges of one code: exactly one gets tokens', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const results = await Promise.all([exchange(code, verifier), exchange(code, verifier), exchange(code, verifier)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('a code expires after 60 seconds of the service clock', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    t.clock.advance(61_000);
    const res = await exchange(code, verifier);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('the redirect_uri of the exchange must be the one of authorize', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const res = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'https://client.example/other',
      code_verifier: verifier,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });

  it('a code issued to one application cannot be exchanged by another', async () => {
    const other = await createApp(user.token);
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const res = await exchange(code, verifier, other);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('all state is in the database: a code from one instance is exchanged on another', async () => {
    const other = await createTestApp({ database: t.deps.database, config: { jwtTtlSeconds: 600 } });
    other.clock.advance(t.clock.now().getTime() - other.clock.now().getTime());
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const res = await exchange(code, verifier, app, other);
    expect(res.statusCode).toBe(200);
    expect((await getOwnUser(res.json().access_token)).statusCode).toBe(200);
    await other.app.close();
  });
});

describe('client authentication at the token endpoint', () => {
  it('a wrong client secret is refused with 401 invalid_client and WWW-Authenticate, and does not spend the code', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const res = await exchange(code, verifier, { appId: app.appId, appSecret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_client' });
    expect(res.headers['www-authenticate']).toBe('Basic realm="svc"');
    expect((await exchange(code, verifier)).statusCode).toBe(200);
  });

  it('a request without Basic client credentials is refused with 401 invalid_client, even with client_id in the body', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const res = await token(
      { grant_type: 'authorization_code', code, redirect_uri: CB, code_verifier: verifier, client_id: app.appId },
      null,
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
    expect(res.headers['www-authenticate']).toBe('Basic realm="svc"');
  });

  it('token errors carry the RFC 6749 fields error and error_description, and the error fields of document 1', async () => {
    const res = await token({ grant_type: 'password', username: user.email, password: PASSWORD });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ error: 'unauthorized_client', errorCode: 400, errorDetailsCode: 400007 });
    expect(typeof body.error_description).toBe('string');
  });

  it('an Idempotency-Key does not make the token response replayable', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: CB,
      code_verifier: verifier,
    }).toString();
    const send = () =>
      postToken(t, {
        method: 'POST',
        url: TOKEN,
        headers: { 'content-type': FORM, authorization: basic(app.appId, app.appSecret), 'idempotency-key': 'k-1' },
        payload: form,
      });
    expect((await send()).statusCode).toBe(200);
    const replay = await send();
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('authorize refusals', () => {
  it('without credentials: 401 in the error shape with WWW-Authenticate Basic', async () => {
    const res = await authorize({ challenge: pkce().challenge });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="svc"');
    expect(res.json()).toMatchObject({ errorCode: 401, errorDetailsCode: 401500 });
  });

  it('a wrong password: 401, and it counts as a failed login (authorize is no way round the login limit)', async () => {
    const res = await authorize({ auth: basic(user.email, 'Wrong-pass-1'), challenge: pkce().challenge });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorDetailsCode).toBe(401501);
    const [row] = await t.db.select().from(loginFailures).where(eq(loginFailures.account, user.email.toLowerCase()));
    expect(row?.count).toBe(1);
    await getCode(pkce().challenge); // a successful sign-in clears the count, as login does
    expect(
      await t.db.select().from(loginFailures).where(eq(loginFailures.account, user.email.toLowerCase())),
    ).toHaveLength(0);
  });

  it('a redirect_uri not registered for the application is refused without redirect', async () => {
    const res = await authorize({
      auth: `Bearer ${user.token}`,
      redirectUri: 'https://evil.example/cb',
      challenge: pkce().challenge,
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.json()).toMatchObject({ errorCode: 400, errorDetailsCode: 400008 });
  });

  it('a missing redirect_uri is refused without redirect', async () => {
    const res = await t.inject({
      method: 'GET',
      url: authorizeUrl({ response_type: 'code', client_id: app.appId, state: 's' }),
      headers: bearer(user.token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.json().errorDetailsCode).toBe(400007);
  });

  it('an unknown client is refused without redirect', async () => {
    const res = await authorize({ auth: `Bearer ${user.token}`, clientId: 'ffffffffffffffffffffffff' });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.json().errorDetailsCode).toBe(400008);
  });

  it('an inactive application can neither get codes nor exchange them', async () => {
    const mine = await createApp(user.token);
    const { verifier, challenge } = pkce();
    const r = await authorize({ auth: `Bearer ${user.token}`, clientId: mine.appId, challenge });
    const code = new URL(r.headers.location as string).searchParams.get('code')!;
    const off = await t.inject({
      method: 'PUT',
      url: `/api/svc/applications/v1.0/applications/${mine.appId}`,
      headers: bearer(user.token),
      payload: { isActive: false },
    });
    expect(off.statusCode).toBe(200);
    expect((await authorize({ auth: `Bearer ${user.token}`, clientId: mine.appId, challenge })).statusCode).toBe(400);
    expect((await exchange(code, verifier, mine)).statusCode).toBe(401);
  });

  it('once the redirect target is trusted, request errors redirect with error and state (plain PKCE is refused)', async () => {
    const res = await t.inject({
      method: 'GET',
      url: authorizeUrl({
        response_type: 'code',
        client_id: app.appId,
        redirect_uri: CB,
        state: 's-9',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'plain',
      }),
      headers: bearer(user.token),
    });
    expect(res.statusCode).toBe(302);
    const loc = new URL(res.headers.location as string);
    expect(loc.searchParams.get('error')).toBe('invalid_request');
    expect(loc.searchParams.get('state')).toBe('s-9');
    expect(loc.searchParams.get('code')).toBeNull();
  });
});

describe('OAuth access tokens are tokens like those of login', () => {
  it('logout with an OAuth access token revokes it, and its refresh token with it', async () => {
    const { verifier, challenge } = pkce();
    const tok = (await exchange(await getCode(challenge), verifier)).json();
    expect((await t.inject({ method: 'GET', url: `${AU}/logout`, headers: bearer(tok.access_token) })).statusCode).toBe(
      200,
    );
    const after = await t.inject({ method: 'GET', url: `${AU}/validator`, headers: bearer(tok.access_token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().errorDetailsCode).toBe(401521);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tok.refresh_token });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json().error).toBe('invalid_grant');
  });

  it('a refresh token outlives the access token: it works after the access token expired', async () => {
    const { verifier, challenge } = pkce();
    const tok = (await exchange(await getCode(challenge), verifier)).json();
    t.clock.advance(601_000);
    expect((await getOwnUser(tok.access_token)).statusCode).toBe(401);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tok.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    expect((await getOwnUser(refreshed.json().access_token)).statusCode).toBe(200);
  });

  it('a refresh token expires after 30 days of the service clock', async () => {
    const { verifier, challenge } = pkce();
    const tok = (await exchange(await getCode(challenge), verifier)).json();
    t.clock.advance(30 * 24 * 3600 * 1000 + 1000);
    const res = await token({ grant_type: 'refresh_token', refresh_token: tok.refresh_token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });
});
