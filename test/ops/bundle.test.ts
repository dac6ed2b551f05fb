// Issue 6, point 8 (cold start, memory): `npm start` runs the service bundled into one file
// (src/bundle.ts). What this protects: the bundle is rebuilt whenever a file it was made from
// changes (a stale bundle would run old code), and the bundled service is the same service: the
// same OpenAPI document as the sources, its migrations found, the packages left outside the
// bundle (PGlite, pdfkit and fontkit, swagger-ui) loaded.
import { after as afterAll, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '../support/expect.ts';
import { freePort } from '../support/ports.ts';
import { basic, bearer, createTestApp } from '../support/harness.ts';
import { BUILD_DIR, buildBundle, bundleFile, bundleIsFresh } from '../../src/bundle.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
// Inside the project: the packages left outside the bundle are found in its node_modules.
const DIR = join(BUILD_DIR, `test-${process.pid}`);
const tmp = mkdtempSync(join(tmpdir(), 'svc-bundle-'));
afterAll(() => {
  rmSync(DIR, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

/** Starts a script with the flags of `npm start`; resolves once it says it listens. */
async function start(script: string, env: Record<string, string>) {
  const proc = spawn(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', script],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const end = Date.now() + 90_000;
  while (!out.includes('svc-admin on ')) {
    if (proc.exitCode !== null || Date.now() > end) {
      proc.kill('SIGKILL');
      throw new Error(`${script} did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { out: () => out, stop: () => new Promise((r) => (proc.once('exit', r), proc.kill('SIGTERM'))) };
}

const manifestOf = () =>
  JSON.parse(readFileSync(join(DIR, 'service.json'), 'utf8')) as { inputs: Record<string, [number, number]> };

describe('the bundle is rebuilt when any file it was made from changes', { skip: SKIP_ENGINE_FREE }, () => {
  it('a new bundle is fresh and lists its sources and the packages inside it, not those left outside', async () => {
    await buildBundle(DIR);
    expect(bundleIsFresh(DIR)).toBe(true);
    const files = Object.keys(manifestOf().inputs);
    expect(files).toEqual(expect.arrayContaining(['src/serve.ts', 'src/app.ts', 'src/bundle.ts']));
    expect(files.some((f) => f.startsWith('node_modules/drizzle-orm/'))).toBe(true);
    expect(files.some((f) => f.startsWith('node_modules/@electric-sql/pglite/'))).toBe(false);
  });

  it('a source whose time or size is not the one recorded, or a missing bundle, makes it stale', () => {
    const saved = readFileSync(join(DIR, 'service.json'), 'utf8');
    const manifest = manifestOf();
    manifest.inputs['src/app.ts'][0] -= 1000; // as if src/app.ts had been saved since
    writeFileSync(join(DIR, 'service.json'), JSON.stringify(manifest));
    expect(bundleIsFresh(DIR)).toBe(false);
    const resized = manifestOf();
    resized.inputs['src/app.ts'] = [JSON.parse(saved).inputs['src/app.ts'][0], 1];
    writeFileSync(join(DIR, 'service.json'), JSON.stringify(resized));
    expect(bundleIsFresh(DIR)).toBe(false);
    writeFileSync(join(DIR, 'service.json'), saved);
    expect(bundleIsFresh(DIR)).toBe(true);
    // Moved aside and back: the next suite runs this bundle (a third build cost CI some 7 s).
    renameSync(bundleFile(DIR), `${bundleFile(DIR)}.aside`);
    expect(bundleIsFresh(DIR)).toBe(false);
    renameSync(`${bundleFile(DIR)}.aside`, bundleFile(DIR));
    expect(bundleIsFresh(DIR)).toBe(true);
  });
});

/**
 * GET /ready's answer once it is 200 (the job queue starts a second after listening: src/serve.ts,
 * QUEUE_START_AFTER_MS), or its last answer after 15 s.
 */
async function untilReady(base: string): Promise<unknown> {
  let body: unknown;
  for (let i = 0; i < 150; i++) {
    const res = await fetch(`${base}/ready`);
    body = await res.json();
    if (res.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return body;
}

describe('the bundled service is the service', { skip: SKIP_ENGINE_FREE }, () => {
  it('answers the OpenAPI document of the sources, is ready (its migrations found), and serves what the packages outside the bundle make', async () => {
    if (!bundleIsFresh(DIR)) await buildBundle(DIR);
    const port = await freePort();
    const password = 'Bundle-pass-1';
    const run = await start(bundleFile(DIR), {
      PORT: String(port),
      DATA_DIR: join(tmp, 'data'),
      SUPERADMIN_EMAIL: 'ops@example.com',
      SUPERADMIN_PASSWORD: password,
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      expect(run.out()).toContain('(embedded database, bundled)');
      expect(await untilReady(base)).toEqual({
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', queue: 'ok' },
      });

      const sources = await createTestApp();
      try {
        const expected = sources.app.swagger();
        expect(await (await fetch(`${base}/api/svc/openapi.json`)).json()).toEqual(
          JSON.parse(JSON.stringify(expected)),
        );
      } finally {
        await sources.close();
      }
      const docs = await fetch(`${base}/api/svc/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger-ui');

      const login = await fetch(`${base}/api/svc/authentication/v1.0/login`, {
        headers: { authorization: basic('ops@example.com', password) },
      });
      const token = ((await login.json()) as { token: string }).token;
      const created = await fetch(`${base}/api/svc/admin/v1.0/companies`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bundled Co' }),
      });
      expect(created.status).toBe(201);
      const companyId = ((await created.json()) as { data: { id: string } }).data.id;
      const pdf = await fetch(`${base}/api/svc/admin/v1.0/companies/${companyId}/service-description`, {
        headers: bearer(token),
      });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    } finally {
      await run.stop();
    }
  });

  it('`npm start` runs the bundle of .build/, building it first when it is missing or stale', async () => {
    const port = await freePort();
    const run = await start('src/main.ts', {
      PORT: String(port),
      DATA_DIR: join(tmp, 'data2'),
      SUPERADMIN_PASSWORD: 'Bundle-pass-1',
    });
    try {
      expect(run.out()).toContain(', bundled)');
      expect(bundleIsFresh()).toBe(true);
    } finally {
      await run.stop();
    }
  });
});

describe('the bundle is held in memory at one byte a character', { skip: SKIP_ENGINE_FREE }, () => {
  it('it is ASCII only (a single character above U+00FF would double the memory of its source text)', () => {
    const text = readFileSync(bundleFile(DIR), 'latin1');
    // eslint-disable-next-line no-control-regex
    expect(text.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
  });
});

describe('a start that cannot bundle runs from the sources', { skip: SKIP_ENGINE_FREE }, () => {
  it('`.build` unusable (here a plain file in a copy of the project): one line says why, and the service starts from its TypeScript sources', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'svc-bundle-copy-'));
    try {
      cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true });
      cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
      writeFileSync(join(copy, '.build'), 'not a folder');
      const port = await freePort();
      const run = await start(join(copy, 'src/main.ts'), {
        PORT: String(port),
        DATA_DIR: join(tmp, 'data3'),
        SUPERADMIN_PASSWORD: 'Bundle-pass-1',
      });
      try {
        expect(run.out()).toMatch(/^svc-admin: the bundle could not be built \(.+\); running from the sources$/m);
        expect(run.out()).toContain('(embedded database, from the sources)');
        expect(await untilReady(`http://127.0.0.1:${port}`)).toMatchObject({ status: 'ready' });
      } finally {
        await run.stop();
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
