// Issue 2, point 2: TLS. With a certificate the service serves HTTPS with HSTS; without one it
// serves plain HTTP only on loopback or behind a declared TLS-terminating proxy.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { transportProblem } from '../../src/transport.ts';
import { loadConfig } from '../../src/config.ts';

let t: TestApp;
let cert: Buffer;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'));
  t = await createTestApp({ build: { https: { cert, key: readFileSync(join(dir, 'key.pem')) } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('HTTPS', () => {
  it('an HTTPS request works and carries Strict-Transport-Security', async () => {
    const port = (t.app.server.address() as AddressInfo).port;
    const res = await new Promise<{ status: number; hsts: unknown; body: string }>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: '/api/svc/authentication/v1.0/validator', ca: cert }, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode!, hsts: r.headers['strict-transport-security'], body }));
        })
        .on('error', reject);
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).errorCode).toBe(401);
    expect(String(res.hsts)).toMatch(/max-age=\d+/);
  });
});

describe('plain HTTP', () => {
  const cfg = (env: Record<string, string>) => loadConfig(env);
  it('is allowed on a loopback address', () => {
    expect(transportProblem(cfg({ HOST: '127.0.0.1' }))).toBeUndefined();
    expect(transportProblem(cfg({ HOST: '::1' }))).toBeUndefined();
  });
  it('is refused on any other address with a clear message', () => {
    expect(transportProblem(cfg({ HOST: '0.0.0.0' }))).toMatch(/TLS_CERT_FILE.*TRUST_PROXY/);
  });
  it('is allowed on any address when TRUST_PROXY=true', () => {
    expect(transportProblem(cfg({ HOST: '0.0.0.0', TRUST_PROXY: 'true' }))).toBeUndefined();
  });
  it('a certificate without its key is refused', () => {
    // Checked with the other settings, before anything opens (issue 13, point 2).
    expect(() => cfg({ HOST: '0.0.0.0', TLS_CERT_FILE: '/x.pem' })).toThrow(/together/);
  });
});
