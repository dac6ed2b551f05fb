// The general request limit (@fastify/rate-limit, src/http/request-limit.ts), beside the
// failed-login limit: a request with a valid token counts against its caller, the token's user,
// whatever its address (RATE_LIMIT_MAX); any other request (no token, a forged or expired one)
// counts against its client address (RATE_LIMIT_ANONYMOUS_MAX). Past either, 429 429001 in the
// error shape of document 1 with Retry-After (docs/decisions.md, General request limit).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { createSigner } from 'fast-jwt';
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { newId } from '../../src/shared/ids.ts';
import { ISSUER } from '../../src/shared/tokens.ts';

const COUNTRIES = '/api/svc/enduser/v1.0/countries';
const USERS = '/api/svc/admin/v1.0/users';
const PER_CALLER = 5;
const PER_ADDRESS = 10;
// An hour: no window ends during the file, however slow the machine.
const WINDOW_SECONDS = 3600;

let t: TestApp;
let companyId: string;

beforeAll(async () => {
  t = await createTestApp({
    config: { rateLimitMax: PER_CALLER, rateLimitAnonymousMax: PER_ADDRESS, rateLimitWindowSeconds: WINDOW_SECONDS },
  });
  companyId = await makeCompany(t);
});
afterAll(() => t.close());

/** The user reading their own record, from `address`. */
const asUser = (u: MadeUser, address: string) =>
  t.inject({ method: 'GET', url: `${USERS}/${u.id}`, remoteAddress: address, headers: bearer(u.token) });
const anonymous = (address: string) => t.inject({ method: 'GET', url: COUNTRIES, remoteAddress: address });

/** 429 429001 in the error shape of document 1, with Retry-After within the window. */
function expectLimited(res: LightMyRequestResponse, limit: number) {
  expect(res.statusCode, res.body).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(res.json()).toEqual({
    errorCode: 429,
    errorMsg: expect.stringContaining('Too Many Requests'),
    errorDetailsCode: 429001,
    errorDetails: { limit, windowSeconds: WINDOW_SECONDS, retryAfterSeconds: expect.any(Number) },
  });
}

describe('general request limit: per caller with a valid token, per address without', () => {
  it('anonymous requests count per client address: past RATE_LIMIT_ANONYMOUS_MAX, 429 in the error shape of document 1, with Retry-After; another address keeps its own count', async () => {
    for (let i = 0; i < PER_ADDRESS; i++) expect((await anonymous('10.1.0.1')).statusCode).toBe(200);
    expectLimited(await anonymous('10.1.0.1'), PER_ADDRESS);
    expect((await anonymous('10.1.0.2')).statusCode).toBe(200);
    // /health is never limited.
    for (let i = 0; i < PER_ADDRESS + 2; i++)
      expect((await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.1.0.1' })).statusCode).toBe(200);
  });

  it('two users behind one address each have their own budget (RATE_LIMIT_MAX), and neither spends the address of anonymous requests', async () => {
    const [a, b] = [await makeUser(t, companyId), await makeUser(t, companyId)];
    const nat = '10.2.0.1';
    for (let i = 0; i < PER_CALLER; i++) expect((await asUser(a, nat)).statusCode).toBe(200);
    expectLimited(await asUser(a, nat), PER_CALLER);
    for (let i = 0; i < PER_CALLER; i++) expect((await asUser(b, nat)).statusCode).toBe(200);
    expectLimited(await asUser(b, nat), PER_CALLER);
    expect((await anonymous(nat)).statusCode).toBe(200);
  });

  it('one user from several addresses has one budget', async () => {
    const c = await makeUser(t, companyId);
    for (let i = 0; i < PER_CALLER; i++) expect((await asUser(c, `10.3.0.${1 + (i % 2)}`)).statusCode).toBe(200);
    expectLimited(await asUser(c, '10.3.0.3'), PER_CALLER);
  });

  it("a forged or malformed token counts against its address, never against the user it names: it neither spends that user's budget nor escapes the limit", async () => {
    const victim = await makeUser(t, companyId);
    const claims = { sub: victim.id, jti: newId(), iss: ISSUER, expiresIn: 3_600_000 };
    const forged = [
      // The victim's claims, signed with another key.
      createSigner({ key: randomBytes(32), algorithm: 'HS256', ...claims })({ kind: 'login' }),
      // The victim's claims, unsigned.
      createSigner({ algorithm: 'none', ...claims })({ kind: 'login' }),
      // The victim's own token with its signature cut off.
      victim.token.slice(0, victim.token.lastIndexOf('.') + 1),
      'not-a-token',
    ];
    const from = '10.4.0.1';
    for (let i = 0; i < PER_ADDRESS; i++) {
      const res = await t.inject({
        method: 'GET',
        url: `${USERS}/${victim.id}`,
        remoteAddress: from,
        headers: bearer(forged[i % forged.length]),
      });
      expect(res.statusCode, res.body).toBe(401);
    }
    // Counted against the address: its 11th request is refused, with the address's limit.
    expectLimited(
      await t.inject({ method: 'GET', url: COUNTRIES, remoteAddress: from, headers: bearer(forged[0]) }),
      PER_ADDRESS,
    );
    // The user it names still has the whole of their budget.
    for (let i = 0; i < PER_CALLER; i++) expect((await asUser(victim, '10.4.0.2')).statusCode).toBe(200);
  });

  it('an expired token counts against its address, like no token', async () => {
    const d = await makeUser(t, companyId);
    t.clock.advance((t.deps.config.jwtTtlSeconds + 1) * 1000);
    const from = '10.5.0.1';
    // Past the user's budget and up to the address's: 401 (expired), not 429.
    for (let i = 0; i < PER_ADDRESS; i++) expect((await asUser(d, from)).statusCode).toBe(401);
    expectLimited(await asUser(d, from), PER_ADDRESS);
  });
});
