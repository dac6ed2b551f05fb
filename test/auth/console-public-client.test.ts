// Issue 28, point 1: the web console signs in through the OAuth 2.0 code grant with PKCE "as a
// registered application (the console is an application of the service, created at first start)".
// It runs in the browser and cannot keep a secret: the built-in application `console` is a public
// client (RFC 6749 2.1), PKCE S256 is required of it (OAuth 2.1, RFC 7636), it names itself with
// client_id at the token endpoint, and its redirect path /console/oauth/callback is accepted on the
// origin the authorize request came to. Confidential clients are unchanged (test/auth/oauth.test.ts).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { createTestApp, basic, bearer, type TestApp } from '../support/harness.ts';
import { makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { ensureSystemCompanies } from '../../src/bootstrap.ts';
import { applications } from '../../src/modules/applications/applications.tables.ts';
import { oauthCodes } from '../../src/modules/authentication/oauth/oauth.tables.ts';

const AU = '/api/svc/authentication/v1.0';
const AUTHORIZE = `${AU}/oauth/authorize`;
const TOKEN = `${AU}/oauth/token`;
const APPS = '/api/svc/applications/v1.0/applications';
const FORM = 'application/x-www-form-urlencoded';
const CONSOLE = 'console';
const PATH = '/console/oauth/callback';
// The service answers on a port of its own: the origin is the request's, whatever it is.
const HOST = 'svc.example:8443';
const ORIGIN = `http://${HOST}`;
const CB = `${ORIGIN}${PATH}`;

let t: TestApp;
let user: MadeUser;

beforeAll(async () => {
  t = await createTestApp({ config: { jwtTtlSeconds: 600 } });
  user = await makeUser(t, t.defaultCompanyId);
});
afterAll(() => t.close());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorize(
  o: {
    on?: TestApp;
    clientId?: string;
    redirectUri?: string;
    challenge?: string;
    method?: string;
    state?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const q: Record<string, string> = {
    response_type: 'code',
    client_id: o.clientId ?? CONSOLE,
    redirect_uri: o.redirectUri ?? CB,
    state: o.state ?? 'st-1',
  };
  if (o.challenge) q.code_challenge = o.challenge;
  if (o.method ?? (o.challenge ? 'S256' : undefined)) q.code_challenge_method = o.method ?? 'S256';
  return (o.on ?? t).inject({
    method: 'GET',
    url: `${AUTHORIZE}?${new URLSearchParams(q).toString()}`,
    headers: { host: HOST, authorization: basic(user.email, PASSWORD), ...o.headers },
  });
}

/** Signs in on authorize (Basic e-mail:password, as the console's sign-in form does) and returns the code. */
async function getCode(challenge: string, redirectUri = CB): Promise<string> {
  const res = await authorize({ challenge, redirectUri });
  expect(res.statusCode).toBe(302);
  const code = new URL(res.headers.location as string).searchParams.get('code');
  expect(code).toBeTruthy();
  return code!;
}

function token(form: Record<string, string>, headers: Record<string, string> = {}) {
  return t.inject({
    method: 'POST',
    url: TOKEN,
    headers: { 'content-type': FORM, ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
  token({
    grant_type: 'authorization_code',
    client_id: CONSOLE,
    code,
    redirect_uri: CB,
    code_verifier: verifier,
    ...extra,
  });

const getOwnUser = (accessToken: string) =>
  t.inject({ method: 'GET', url: `/api/svc/admin/v1.0/users/${user.id}`, headers: bearer(accessToken) });

async function consoleTokens() {
  const { verifier, challenge } = pkce();
  const res = await exchange(await getCode(challenge), verifier);
  expect(res.statusCode).toBe(200);
  return res.json() as { access_token: string; refresh_token: string };
}

describe('issue 28, point 1: the console signs in as a public client with PKCE', () => {
  it('authorize with Basic e-mail:password -> 302 to the same-origin callback with code and state -> tokens with client_id and code_verifier -> the API accepts the token -> refresh with client_id alone', async () => {
    const { verifier, challenge } = pkce();
    const res = await authorize({ challenge, state: 'st-42' });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(CB);
    expect(location.searchParams.get('state')).toBe('st-42');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const tok = await exchange(code, verifier);
    expect(tok.statusCode).toBe(200);
    const body = tok.json();
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(600);
    expect((await getOwnUser(body.access_token)).statusCode).toBe(200);

    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: CONSOLE,
      refresh_token: body.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);
    const renewed = refreshed.json();
    expect(renewed.refresh_token).not.toBe(body.refresh_token);
    expect((await getOwnUser(renewed.access_token)).statusCode).toBe(200);
    // Refresh tokens rotate: the first one is spent.
    const again = await token({ grant_type: 'refresh_token', client_id: CONSOLE, refresh_token: body.refresh_token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
  });

  it('a code is single use and bound to its redirect_uri: the exchange must repeat the one given to authorize', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const other = await exchange(code, verifier, { redirect_uri: `http://other.example${PATH}` });
    expect(other.statusCode).toBe(400);
    expect(other.json().error).toBe('invalid_request');
    const { verifier: v2, challenge: c2 } = pkce();
    const code2 = await getCode(c2);
    expect((await exchange(code2, v2)).statusCode).toBe(200);
    expect((await exchange(code2, v2)).statusCode).toBe(400);
  });

  it('a session ended elsewhere ends the console: after a password change made with another session, its token is refused and its refresh token too', async () => {
    const tokens = await consoleTokens();
    const changed = await t.inject({
      method: 'PUT',
      url: `/api/svc/admin/v1.0/users/${user.id}`,
      headers: bearer(user.token),
      payload: { password: PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    expect((await getOwnUser(tokens.access_token)).statusCode).toBe(401);
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: CONSOLE,
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json().error).toBe('invalid_grant');
  });
});

describe('issue 28, point 1: what the console client is refused', () => {
  it('authorize without code_challenge: redirected with invalid_request and state, and no code is made', async () => {
    const before = (await t.db.select().from(oauthCodes).where(eq(oauthCodes.appId, CONSOLE))).length;
    const res = await authorize({ state: 'st-7' });
    expect(res.statusCode).toBe(302);
    const loc = new URL(res.headers.location as string);
    expect(`${loc.origin}${loc.pathname}`).toBe(CB);
    expect(loc.searchParams.get('error')).toBe('invalid_request');
    expect(loc.searchParams.get('state')).toBe('st-7');
    expect(loc.searchParams.get('code')).toBeNull();
    expect(await t.db.select().from(oauthCodes).where(eq(oauthCodes.appId, CONSOLE))).toHaveLength(before);
  });

  it('authorize with the plain method: redirected with invalid_request, no code', async () => {
    const res = await authorize({ challenge: 'x'.repeat(43), method: 'plain' });
    expect(res.statusCode).toBe(302);
    const loc = new URL(res.headers.location as string);
    expect(loc.searchParams.get('error')).toBe('invalid_request');
    expect(loc.searchParams.get('code')).toBeNull();
  });

  it('a wrong code_verifier, or none, is invalid_grant', async () => {
    const { challenge } = pkce();
    const wrong = await exchange(await getCode(challenge), pkce().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
    const none = await token({
      grant_type: 'authorization_code',
      client_id: CONSOLE,
      code: await getCode(challenge),
      redirect_uri: CB,
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toBe('invalid_grant');
  });

  for (const [what, uri] of [
    ['another origin', `http://evil.example${PATH}`],
    ['another port', `http://svc.example:9443${PATH}`],
    ['another scheme', `https://${HOST}${PATH}`],
    ['another path', `${ORIGIN}/console/other`],
    ['a query added', `${CB}?next=https://evil.example`],
    ['a fragment', `${CB}#x`],
    ['the bare path', PATH],
  ] as const) {
    it(`a redirect_uri with ${what} is refused with 400, never redirected`, async () => {
      const res = await authorize({ challenge: pkce().challenge, redirectUri: uri });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
    });
  }

  it('X-Forwarded-Host and X-Forwarded-Proto are not the origin unless TRUST_PROXY is on', async () => {
    const res = await authorize({
      challenge: pkce().challenge,
      redirectUri: `https://public.example${PATH}`,
      headers: { 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('the console sending a secret, made up since it has none, is a failed client authentication (401 invalid_client)', async () => {
    const { verifier, challenge } = pkce();
    const code = await getCode(challenge);
    const form = { grant_type: 'authorization_code', code, redirect_uri: CB, code_verifier: verifier };
    const viaBasic = await token(form, { authorization: basic(CONSOLE, 'made-up-secret') });
    expect(viaBasic.statusCode).toBe(401);
    expect(viaBasic.json().error).toBe('invalid_client');
    const inBody = await token({ ...form, client_id: CONSOLE, client_secret: 'made-up-secret' });
    expect(inBody.statusCode).toBe(401);
    expect(inBody.json().error).toBe('invalid_client');
    // Neither attempt spent the code: the right request still gets the tokens.
    expect((await exchange(code, verifier)).statusCode).toBe(200);
  });

  it('a confidential client sending client_id alone stays refused with 401 invalid_client, on both grants', async () => {
    const created = await t.inject({
      method: 'POST',
      url: APPS,
      headers: bearer(user.token),
      payload: { name: 'Confidential', redirectUris: ['https://client.example/cb'] },
    });
    expect(created.statusCode).toBe(201);
    const appId = created.json().data.appId as string;
    const { verifier, challenge } = pkce();
    const r = await t.inject({
      method: 'GET',
      url: `${AUTHORIZE}?${new URLSearchParams({ response_type: 'code', client_id: appId, redirect_uri: 'https://client.example/cb', state: 's', code_challenge: challenge, code_challenge_method: 'S256' }).toString()}`,
      headers: bearer(user.token),
    });
    expect(r.statusCode).toBe(302);
    const code = new URL(r.headers.location as string).searchParams.get('code')!;
    const byCode = await token({
      grant_type: 'authorization_code',
      client_id: appId,
      code,
      redirect_uri: 'https://client.example/cb',
      code_verifier: verifier,
    });
    expect(byCode.statusCode).toBe(401);
    expect(byCode.json().error).toBe('invalid_client');
    const byRefresh = await token({ grant_type: 'refresh_token', client_id: appId, refresh_token: 'x' });
    expect(byRefresh.statusCode).toBe(401);
    expect(byRefresh.json().error).toBe('invalid_client');
  });

  it("the console cannot use another client's refresh token, nor another client the console's", async () => {
    const created = await t.inject({
      method: 'POST',
      url: APPS,
      headers: bearer(user.token),
      payload: { name: 'Other', redirectUris: ['https://client.example/cb'] },
    });
    expect(created.statusCode).toBe(201);
    const other = created.json().data as { appId: string; appSecret: string };
    const otherAuth = { authorization: basic(other.appId, other.appSecret) };

    const consoles = await consoleTokens();
    const byOther = await token({ grant_type: 'refresh_token', refresh_token: consoles.refresh_token }, otherAuth);
    expect(byOther.statusCode).toBe(400);
    expect(byOther.json().error).toBe('invalid_grant');

    const { verifier, challenge } = pkce();
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: other.appId,
      redirect_uri: 'https://client.example/cb',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const r = await t.inject({ method: 'GET', url: `${AUTHORIZE}?${q.toString()}`, headers: bearer(user.token) });
    const code = new URL(r.headers.location as string).searchParams.get('code')!;
    const others = await token(
      { grant_type: 'authorization_code', code, redirect_uri: 'https://client.example/cb', code_verifier: verifier },
      otherAuth,
    );
    expect(others.statusCode).toBe(200);
    const byConsole = await token({
      grant_type: 'refresh_token',
      client_id: CONSOLE,
      refresh_token: others.json().refresh_token,
    });
    expect(byConsole.statusCode).toBe(400);
    expect(byConsole.json().error).toBe('invalid_grant');
  });

  it('the console has no secret for the x-svc-app-auth proof of login', async () => {
    const proof = createHash('sha256').update(PASSWORD).digest('hex');
    const res = await t.inject({
      method: 'GET',
      url: `${AU}/login`,
      headers: { authorization: basic(user.email, PASSWORD), 'x-svc-app-auth': basic(CONSOLE, proof) },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('issue 28, point 1: the console application is created at first start and kept as the service defines it', () => {
  it('two starts, one console application: public, built in, no owner, in the Default company, with no secret nor API key', async () => {
    await ensureSystemCompanies(t.db);
    await ensureSystemCompanies(t.db);
    const rows = await t.db.select().from(applications).where(eq(applications.builtIn, true));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: CONSOLE,
      clientType: 'public',
      redirectUris: [PATH],
      ownerId: null,
      companyId: t.defaultCompanyId,
      isActive: true,
      secretHash: null,
      secretSealed: null,
      apiKeyHash: null,
    });
  });

  it('a start puts back a console changed in the database', async () => {
    await t.db
      .update(applications)
      .set({ isActive: false, redirectUris: ['https://evil.example/cb'] })
      .where(eq(applications.id, CONSOLE));
    await ensureSystemCompanies(t.db);
    const [row] = await t.db.select().from(applications).where(eq(applications.id, CONSOLE));
    expect(row).toMatchObject({ isActive: true, redirectUris: [PATH] });
  });

  it('superadmin reads it like other applications, without any secret; it cannot be changed, disabled, given a secret or deleted (403 403010)', async () => {
    const got = await t.inject({ method: 'GET', url: `${APPS}/${CONSOLE}`, headers: bearer(t.superToken) });
    expect(got.statusCode).toBe(200);
    const app = got.json().data;
    expect(app).toMatchObject({
      appId: CONSOLE,
      clientType: 'public',
      builtIn: true,
      ownerId: null,
      redirectUris: [PATH],
    });
    expect(app.appSecret).toBeUndefined();
    expect(app.apiKey).toBeUndefined();
    const listed = await t.inject({ method: 'GET', url: `${APPS}?limit=100`, headers: bearer(t.superToken) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.some((a: { appId: string }) => a.appId === CONSOLE)).toBe(true);

    for (const req of [
      { method: 'PUT', url: `${APPS}/${CONSOLE}`, payload: { isActive: false } },
      { method: 'PUT', url: `${APPS}/${CONSOLE}`, payload: { redirectUris: ['https://evil.example/cb'] } },
      { method: 'POST', url: `${APPS}/${CONSOLE}/secret` },
      { method: 'DELETE', url: `${APPS}/${CONSOLE}` },
    ] as const) {
      const res = await t.inject({ ...req, headers: bearer(t.superToken) });
      expect(res.statusCode).toBe(403);
      expect(res.json().errorDetailsCode).toBe(403010);
    }
    // And the console still signs in.
    await consoleTokens();
  });
});

describe('issue 28, point 1: behind a proxy (TRUST_PROXY on) the origin is the forwarded one', () => {
  let p: TestApp;
  let proxied: MadeUser;
  beforeAll(async () => {
    p = await createTestApp({ config: { trustProxy: true } });
    proxied = await makeUser(p, p.defaultCompanyId);
  });
  afterAll(() => p.close());

  it('X-Forwarded-Proto and X-Forwarded-Host make the origin; the Host header behind the proxy does not', async () => {
    const forwarded = { 'x-forwarded-host': 'public.example', 'x-forwarded-proto': 'https' };
    const send = (redirectUri: string) =>
      p.inject({
        method: 'GET',
        url: `${AUTHORIZE}?${new URLSearchParams({ response_type: 'code', client_id: CONSOLE, redirect_uri: redirectUri, state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' }).toString()}`,
        headers: { host: 'internal:8080', authorization: basic(proxied.email, PASSWORD), ...forwarded },
      });
    const ok = await send(`https://public.example${PATH}`);
    expect(ok.statusCode).toBe(302);
    expect((ok.headers.location as string).startsWith(`https://public.example${PATH}?`)).toBe(true);
    const internal = await send(`http://internal:8080${PATH}`);
    expect(internal.statusCode).toBe(400);
    expect(internal.headers.location).toBeUndefined();
  });
});
