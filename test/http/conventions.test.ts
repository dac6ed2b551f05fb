// Issue 2, point 3: the conventions of document 1 hold for every operation (envelopes, paging,
// format, the error body, bad input answered 4xx, unknown fields ignored), and point 6's APIKey.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';

const USERS = '/api/svc/admin/v1.0/users';
let t: TestApp;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp({ config: { bodyLimitBytes: 4096 } });
  companyId = await makeCompany(t, { name: 'Paging Co' });
  for (let i = 0; i < 12; i++) {
    const res = await t.inject({
      method: 'POST',
      url: USERS,
      headers: bearer(t.superToken),
      payload: {
        loginEmail: `p${i}@paging.example`,
        password: 'Passw0rd!',
        companyId,
        lastName: `L${String(i).padStart(2, '0')}`,
      },
    });
    expect(res.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

const list = (qs: string) =>
  t.inject({ method: 'GET', url: `${USERS}?companyId=${companyId}&${qs}`, headers: bearer(t.superToken) });

describe('envelopes (doc 1, rule 7)', () => {
  it('a single object is {data}', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${USERS}?companyId=${companyId}&limit=1`,
      headers: bearer(t.superToken),
    });
    const id = res.json().data[0].id;
    const one = await t.inject({ method: 'GET', url: `${USERS}/${id}`, headers: bearer(t.superToken) });
    expect(Object.keys(one.json())).toEqual(['data']);
  });

  it('a list is {data, total, limit, offset}', async () => {
    const body = (await list('')).json();
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'offset', 'total']);
    expect(body).toMatchObject({ total: 12, limit: 100, offset: 0 });
  });

  it('an action is {status, data}', async () => {
    const u = await makeUser(t, companyId);
    const res = await t.inject({ method: 'DELETE', url: `${USERS}/${u.id}`, headers: bearer(t.superToken) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
  });
});

describe('paging (doc 1, Limits; route table conventions)', () => {
  it('limit and offset page through the list in sort order', async () => {
    const body = (await list('limit=5&offset=5&sortField=lastName')).json();
    expect(body.data.map((u: { lastName: string }) => u.lastName)).toEqual(['L05', 'L06', 'L07', 'L08', 'L09']);
    expect(body).toMatchObject({ limit: 5, offset: 5, total: 12 });
  });

  it('sortOrder -1 reverses the order', async () => {
    const body = (await list('limit=2&sortField=lastName&sortOrder=-1')).json();
    expect(body.data.map((u: { lastName: string }) => u.lastName)).toEqual(['L11', 'L10']);
  });

  it('non-numeric limit, offset and sortOrder fall back to their defaults', async () => {
    const body = (await list('limit=abc&offset=x&sortOrder=up')).json();
    expect(body).toMatchObject({ limit: 100, offset: 0, total: 12 });
    expect(body.data[0].lastName).toBe('L00');
  });

  it('limit is capped at 1000', async () => {
    expect((await list('limit=5000')).json().limit).toBe(1000);
  });

  it('an offset beyond the total gives no results', async () => {
    const body = (await list('offset=50')).json();
    expect(body.data).toEqual([]);
    expect(body.total).toBe(12);
  });

  it('numbers sent as strings are accepted ("5")', async () => {
    expect((await list('limit=%225%22'.replace(/%22/g, ''))).json().data).toHaveLength(5);
  });
});

describe('format (doc 1, Endpoints conventions)', () => {
  it('small, medium and full return growing sets of fields', async () => {
    const keys = async (f: string) => Object.keys((await list(`limit=1&format=${f}`)).json().data[0]).length;
    const [s, m, f] = [await keys('small'), await keys('medium'), await keys('full')];
    expect(s).toBeLessThan(m);
    expect(m).toBeLessThan(f);
    expect(await keys('bogus')).toBe(s);
  });
});

describe('bad input: 400 or 413 in the error shape, never 500', () => {
  const post = (payload: string, extra: Record<string, string> = {}) =>
    t.inject({
      method: 'POST',
      url: USERS,
      headers: { ...bearer(t.superToken), 'content-type': 'application/json', ...extra },
      payload,
    });

  it('malformed JSON gives 400 MALFORMED_JSON', async () => {
    const res = await post('{"loginEmail": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errorCode: 400,
      errorMsg: expect.any(String),
      errorDetails: {},
      errorDetailsCode: 400001,
    });
  });

  it('a wrong type gives 400 with the failing field', async () => {
    const res = await post(JSON.stringify({ loginEmail: 'x@y.example', password: 'Passw0rd!', firstName: { a: 1 } }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400000);
  });

  it('an out-of-range value gives 400', async () => {
    const res = await post(
      JSON.stringify({ loginEmail: 'x@y.example', password: 'Passw0rd!', firstName: 'x'.repeat(256) }),
    );
    expect(res.statusCode).toBe(400);
  });

  it('an unknown role name gives 400', async () => {
    const res = await post(JSON.stringify({ loginEmail: 'x@y.example', password: 'Passw0rd!', roles: ['emperor'] }));
    expect(res.statusCode).toBe(400);
  });

  it('an oversized body gives 413', async () => {
    const res = await post(
      JSON.stringify({ loginEmail: 'x@y.example', password: 'Passw0rd!', lastName: 'x'.repeat(5000) }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().errorDetailsCode).toBe(413000);
  });

  it('a body of an unsupported content type gives 415 in the error shape', async () => {
    const res = await post('<a/>', { 'content-type': 'application/xml' });
    expect(res.statusCode).toBe(415);
    expect(res.json().errorCode).toBe(415);
  });

  it('an unknown route gives 404 in the error shape', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/api/svc/admin/v1.0/nothing-here',
      headers: bearer(t.superToken),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 404, errorDetailsCode: 404001 });
  });

  it('an id of the wrong shape gives 404 or 400, never 500', async () => {
    for (const id of ['%00', 'x'.repeat(300), "' OR 1=1 --"]) {
      const res = await t.inject({
        method: 'GET',
        url: `${USERS}/${encodeURIComponent(id)}`,
        headers: bearer(t.superToken),
      });
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});

describe('unknown body fields are ignored, never stored, never echoed', () => {
  it('extra fields of an original-interface client do not fail and do not come back', async () => {
    const res = await t.inject({
      method: 'POST',
      url: USERS,
      headers: bearer(t.superToken),
      payload: {
        loginEmail: 'extra@fields.example',
        password: 'Passw0rd!',
        companyId,
        isInDefaultCompany: true,
        customField: { a: 1 },
        guestMode: true,
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toMatch(/isInDefaultCompany|customField|guestMode/);
    const again = await t.inject({
      method: 'GET',
      url: `${USERS}/${res.json().data.id}?format=full`,
      headers: bearer(t.superToken),
    });
    expect(again.body).not.toMatch(/isInDefaultCompany|customField|guestMode/);
  });
});

describe('APIKey header (doc 1, Authentication 4)', () => {
  const APPS = '/api/svc/applications/v1.0/applications';

  it('is optional', async () => {
    expect((await list('limit=1')).statusCode).toBe(200);
  });

  it('a key that matches no application gives 403 Not Allowed', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${USERS}?limit=1`,
      headers: { ...bearer(t.superToken), apikey: 'nope' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ errorCode: 403, errorMsg: 'Not Allowed' });
  });

  it('the key of an active application passes; once the application is disabled it gives 403', async () => {
    const app = (
      await t.inject({ method: 'POST', url: APPS, headers: bearer(t.superToken), payload: { name: 'client' } })
    ).json().data;
    const withKey = { ...bearer(t.superToken), apikey: app.apiKey };
    expect((await t.inject({ method: 'GET', url: `${USERS}?limit=1`, headers: withKey })).statusCode).toBe(200);
    await t.inject({
      method: 'PUT',
      url: `${APPS}/${app.id}`,
      headers: bearer(t.superToken),
      payload: { isActive: false },
    });
    expect((await t.inject({ method: 'GET', url: `${USERS}?limit=1`, headers: withKey })).statusCode).toBe(403);
  });
});
