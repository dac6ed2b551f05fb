// Issue 28, point 7: the console's files are served by the service itself at /console, with
// caching headers: hashed assets for a year (immutable), the page never cached (a new build is
// seen at once), precompressed copies for browsers that accept them, every page path answered by
// the page (the console routes itself), a missing asset a plain 404, and a CSP that loads nothing
// from another origin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { installConsole } from '../../src/http/console.ts';
import { installAnswerHeaders } from '../../src/http/security-headers.ts';

let app: FastifyInstance;
let dir: string;
const PAGE = '<!doctype html><title>console</title><script type="module" src="/console/assets/index-abc.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'assets/index-abc.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/index-abc.js.br'), brotliCompressSync(SCRIPT));
  app = Fastify();
  installAnswerHeaders(app, { https: false });
  await installConsole(app, dir);
  await app.ready();
});
after(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

test('issue 28, point 7: /console redirects to /console/, which answers the page, never cached', async () => {
  const r = await app.inject({ url: '/console' });
  assert.equal(r.statusCode, 301);
  assert.equal(r.headers.location, '/console/');
  const page = await app.inject({ url: '/console/' });
  assert.equal(page.statusCode, 200);
  assert.equal(page.body, PAGE);
  assert.equal(page.headers['cache-control'], 'no-cache');
  assert.match(String(page.headers['content-type']), /^text\/html/);
});

test('issue 28, point 7: every page path of the console answers the page (the console routes itself)', async () => {
  for (const url of [
    '/console/companies',
    '/console/cloudpbxs/abc/greetings',
    '/console/oauth/callback?code=x&state=y',
  ]) {
    const r = await app.inject({ url });
    assert.equal(r.statusCode, 200, url);
    assert.equal(r.body, PAGE, url);
  }
});

test('issue 28, point 7: hashed assets are cached for a year, and sent precompressed when accepted', async () => {
  const plain = await app.inject({ url: '/console/assets/index-abc.js' });
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.body, SCRIPT);
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  const br = await app.inject({ url: '/console/assets/index-abc.js', headers: { 'accept-encoding': 'br, gzip' } });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.rawPayload.length < SCRIPT.length / 4);
});

test('issue 28, point 7: a missing asset or top-level file is 404, not the page', async () => {
  for (const url of ['/console/assets/nope.js', '/console/nope.png']) {
    const r = await app.inject({ url });
    assert.equal(r.statusCode, 404, url);
  }
  const icon = await app.inject({ url: '/console/favicon.svg' });
  assert.equal(icon.statusCode, 200);
});

test('issue 28, point 7: the console CSP allows this origin only, and no file outside the build is reachable', async () => {
  const r = await app.inject({ url: '/console/' });
  const csp = String(r.headers['content-security-policy']);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /https?:/);
  for (const url of ['/console/assets/../../../etc/passwd', '/console/assets/%2e%2e/%2e%2e/etc/passwd']) {
    const t = await app.inject({ url });
    assert.notEqual(t.statusCode, 200, url);
  }
});

test('issue 28, point 7: without a build, /console is not served (and the service still starts)', async () => {
  const bare = Fastify();
  await installConsole(bare, join(dir, 'missing'));
  await bare.ready();
  const r = await bare.inject({ url: '/console/' });
  assert.equal(r.statusCode, 404);
  await bare.close();
});
