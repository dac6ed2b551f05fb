// Issue 8, point 7: errorDetails is always an object (document 1, Errors: `errorDetails: object`),
// whatever failed: a body that does not match its Content-Length, a value the database refuses
// (a data exception), or an error Fastify raises itself before any operation runs.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';

const COMPANIES = '/api/svc/admin/v1.0/companies';
const USERS = '/api/svc/admin/v1.0/users';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The error body of document 1, with errorDetails an object (not a string, not an array, not null). */
function expectErrorBody(res: LightMyRequestResponse, status: number): Record<string, unknown> {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['errorCode', 'errorDetails', 'errorDetailsCode', 'errorMsg']);
  expect(body.errorCode).toBe(status);
  expect(typeof body.errorDetails, res.body).toBe('object');
  expect(body.errorDetails).not.toBeNull();
  expect(Array.isArray(body.errorDetails)).toBe(false);
  return body.errorDetails;
}

describe('issue 8, point 7: errorDetails is always an object (doc 1, Errors)', () => {
  it('issue 8, point 7: a body shorter than its Content-Length gives 400 with errorDetails an object', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: COMPANIES,
      headers: { ...bearer(t.superToken), 'content-type': 'application/json', 'content-length': '100' },
      payload: '{"name":"Short body"}',
    });
    expect(expectErrorBody(res, 400)).toMatchObject({ reason: expect.stringContaining('Content-Length') });
  });

  it('issue 8, point 7: a database data exception (a NUL character the database refuses) gives 400 with errorDetails an object', async () => {
    // The schema accepts any string; PostgreSQL (and PGlite) refuse U+0000 in text: SQLSTATE 22021.
    const res = await t.inject({
      method: 'POST',
      url: COMPANIES,
      headers: bearer(t.superToken),
      payload: { name: 'Nul\u0000Company' },
    });
    expectErrorBody(res, 400);
    expect(res.json().errorDetailsCode).toBe(400000);
  });

  it('issue 8, point 7: a path with broken percent-encoding (Fastify FST_ERR_BAD_URL) gives 400 in the error body, errorDetails an object', async () => {
    const res = await t.inject({ method: 'GET', url: `${USERS}/%E0%A4%A`, headers: bearer(t.superToken) });
    expect(expectErrorBody(res, 400)).toMatchObject({ code: 'FST_ERR_BAD_URL' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('issue 8, point 7 and issue 9, point 2: a path parameter beyond the router limit (Fastify FST_ERR_MAX_PARAM_LENGTH) gives 414 in the error body, errorDetails an object', async () => {
    const res = await t.inject({ method: 'GET', url: `${USERS}/${'a'.repeat(600)}`, headers: bearer(t.superToken) });
    expect(expectErrorBody(res, 414)).toMatchObject({ code: 'FST_ERR_MAX_PARAM_LENGTH' });
  });

  it('issue 8, point 7: an empty JSON body, a body of an unsupported type and an unknown route give errorDetails objects', async () => {
    const empty = await t.inject({
      method: 'POST',
      url: COMPANIES,
      headers: { ...bearer(t.superToken), 'content-type': 'application/json' },
      payload: '',
    });
    expectErrorBody(empty, 400);
    const xml = await t.inject({
      method: 'POST',
      url: COMPANIES,
      headers: { ...bearer(t.superToken), 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expectErrorBody(xml, 415);
    const none = await t.inject({
      method: 'GET',
      url: '/api/svc/admin/v1.0/no-such-route',
      headers: bearer(t.superToken),
    });
    expectErrorBody(none, 404);
  });

  it('issue 8, point 7: the OpenAPI document declares errorDetails as an object only', async () => {
    const spec = t.app.swagger() as {
      components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    };
    const details = spec.components.schemas.Error.properties.errorDetails;
    expect(details.type).toBe('object');
    expect(details.anyOf).toBeUndefined();
  });
});
