// Issue 6, point 10: security headers come from helmet (computed once, src/http/security-headers.ts; OWASP's set for API answers,
// helmet's for the documentation's pages), and a general per-client request
// limit (@fastify/rate-limit) stands beside the failed-login limit, answering in the error shape
// of document 1 with Retry-After.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';

const USERS = '/api/svc/admin/v1.0/users';
const COUNTRIES = '/api/svc/enduser/v1.0/countries';

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every API answer, success or error, carries the headers OWASP asks of API responses (nosniff, framing refused, no-store, nothing to run) and none meant for pages; no HSTS over plain HTTP', async () => {
    for (const res of [
      await t.inject({ method: 'GET', url: `${USERS}?limit=1`, headers: bearer(t.superToken) }),
      await t.inject({ method: 'GET', url: `${USERS}/000000000000000000000000`, headers: bearer(t.superToken) }),
      await t.inject({ method: 'GET', url: `${USERS}?limit=1` }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['strict-transport-security']).toBeUndefined();
      for (const pageOnly of [
        'referrer-policy',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-xss-protection',
        'origin-agent-cluster',
        'cross-origin-opener-policy',
      ])
        expect(res.headers[pageOnly]).toBeUndefined();
    }
  });

  it("the HTML pages of the documentation carry helmet's set for pages, with a CSP that lets them run their own scripts", async () => {
    const res = await t.inject({ method: 'GET', url: '/api/svc/docs' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('general request limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimitMax: 3, rateLimitWindowSeconds: 60 } });
  });
  afterAll(() => t.close());

  it('past RATE_LIMIT_MAX requests of one address in the window: 429 in the error shape of document 1, with Retry-After', async () => {
    const from = '10.1.1.1';
    for (let i = 0; i < 3; i++)
      expect((await t.inject({ method: 'GET', url: COUNTRIES, remoteAddress: from })).statusCode).toBe(200);
    const limited = await t.inject({ method: 'GET', url: COUNTRIES, remoteAddress: from });
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({
      errorCode: 429,
      errorMsg: expect.stringContaining('Too Many Requests'),
      errorDetailsCode: 429001,
      errorDetails: { limit: 3, windowSeconds: 60, retryAfterSeconds: expect.any(Number) },
    });
    // An authenticated operation is limited the same way: the limit is per address, before authentication.
    expect(
      (await t.inject({ method: 'GET', url: `${USERS}?limit=1`, remoteAddress: from, headers: bearer(t.superToken) }))
        .statusCode,
    ).toBe(429);
  });

  it('another address keeps its own count, and /health is never limited', async () => {
    expect((await t.inject({ method: 'GET', url: COUNTRIES, remoteAddress: '10.2.2.2' })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await t.app.inject({ method: 'GET', url: '/health', remoteAddress: '10.3.3.3' })).statusCode).toBe(200);
  });
});
