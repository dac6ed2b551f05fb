// Issue 2, point 6: applications (appId, appSecret, apiKey; secrets stored hashed, shown once)
// and the optional x-svc-app-auth proof of login (route table, Authentication).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { createTestApp, basic, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { applications } from '../../src/modules/applications/applications.tables.ts';

const APPS = '/api/svc/applications/v1.0/applications';
const LOGIN = '/api/svc/authentication/v1.0/login';
let t: TestApp;
let dev: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  dev = await makeUser(t, await makeCompany(t));
});
afterAll(() => t.close());

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const createApp = async (
  token = dev.token,
  payload: object = { name: 'My app', redirectUris: ['https://app.example/cb'] },
) => t.inject({ method: 'POST', url: APPS, headers: bearer(token), payload });

describe('applications', () => {
  it('creation returns appId, appSecret and apiKey once; reads never show them', async () => {
    const res = await createApp();
    expect(res.statusCode).toBe(201);
    const app = res.json().data;
    expect(app).toMatchObject({ appId: app.id, name: 'My app', ownerId: dev.id });
    expect(app.appSecret).toMatch(/.{32,}/);
    expect(app.apiKey).toMatch(/.{32,}/);
    const read = await t.inject({ method: 'GET', url: `${APPS}/${app.id}`, headers: bearer(dev.token) });
    expect(read.body).not.toContain(app.appSecret);
    expect(read.json().data.appSecret).toBeUndefined();
    const list = await t.inject({ method: 'GET', url: APPS, headers: bearer(dev.token) });
    expect(list.body).not.toContain(app.apiKey);
  });

  it('stores the secrets hashed, never in clear', async () => {
    const app = (await createApp()).json().data;
    const [row] = await t.db.select().from(applications).where(eq(applications.id, app.id));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(app.appSecret);
    expect(stored).not.toContain(app.apiKey);
    expect(row.secretHash).toBe(sha(app.appSecret));
  });

  it('renewing the secret gives a new one, shown once', async () => {
    const app = (await createApp()).json().data;
    const res = await t.inject({ method: 'POST', url: `${APPS}/${app.id}/secret`, headers: bearer(dev.token) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.appSecret).not.toBe(app.appSecret);
  });

  it('refuses a redirect URI that is not https (http only on loopback)', async () => {
    expect((await createApp(dev.token, { name: 'x', redirectUris: ['http://evil.example/cb'] })).statusCode).toBe(400);
    expect((await createApp(dev.token, { name: 'x', redirectUris: ['not a url'] })).statusCode).toBe(400);
    expect((await createApp(dev.token, { name: 'x', redirectUris: ['http://127.0.0.1:9000/cb'] })).statusCode).toBe(
      201,
    );
  });

  it("another company's user does not see the application (404) and its list does not show it", async () => {
    const app = (await createApp()).json().data;
    const stranger = await makeUser(t, await makeCompany(t), ['company_admin']);
    expect(
      (await t.inject({ method: 'GET', url: `${APPS}/${app.id}`, headers: bearer(stranger.token) })).statusCode,
    ).toBe(404);
    expect(
      (await t.inject({ method: 'DELETE', url: `${APPS}/${app.id}`, headers: bearer(stranger.token) })).statusCode,
    ).toBe(404);
    const list = (await t.inject({ method: 'GET', url: APPS, headers: bearer(stranger.token) })).json();
    expect(list.data.map((a: { id: string }) => a.id)).not.toContain(app.id);
  });

  it('deletion removes the application', async () => {
    const app = (await createApp()).json().data;
    expect(
      (await t.inject({ method: 'DELETE', url: `${APPS}/${app.id}`, headers: bearer(dev.token) })).statusCode,
    ).toBe(200);
    expect((await t.inject({ method: 'GET', url: `${APPS}/${app.id}`, headers: bearer(dev.token) })).statusCode).toBe(
      404,
    );
  });
});

describe('login with the application proof x-svc-app-auth', () => {
  it('a correct proof signs in and returns loggedInApplication', async () => {
    const app = (await createApp()).json().data;
    const proof = basic(app.appId, sha(app.appSecret + PASSWORD));
    const res = await t.inject({
      method: 'GET',
      url: LOGIN,
      headers: { authorization: basic(dev.email, PASSWORD), 'x-svc-app-auth': proof },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().loggedInApplication).toMatchObject({ appId: app.appId, name: 'My app' });
    expect(res.body).not.toContain(app.appSecret);
  });

  it('a wrong proof, an unknown application or a disabled one gives 401', async () => {
    const app = (await createApp()).json().data;
    const headers = (proof: string) => ({ authorization: basic(dev.email, PASSWORD), 'x-svc-app-auth': proof });
    expect(
      (await t.inject({ method: 'GET', url: LOGIN, headers: headers(basic(app.appId, sha('wrong' + PASSWORD))) }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.inject({ method: 'GET', url: LOGIN, headers: headers(basic('nope', sha(app.appSecret + PASSWORD))) }))
        .statusCode,
    ).toBe(401);
    await t.inject({
      method: 'PUT',
      url: `${APPS}/${app.id}`,
      headers: bearer(dev.token),
      payload: { isActive: false },
    });
    const res = await t.inject({
      method: 'GET',
      url: LOGIN,
      headers: headers(basic(app.appId, sha(app.appSecret + PASSWORD))),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().errorDetailsCode).toBe(401530);
  });
});
