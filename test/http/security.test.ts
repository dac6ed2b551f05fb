// Issue 6, point 10: security headers come from helmet (computed once, src/http/security-headers.ts; OWASP's set for API answers,
// helmet's for the documentation's pages). The general request limit beside the failed-login limit:
// test/http/request-limits.test.ts.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';

const USERS = '/api/svc/admin/v1.0/users';

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
