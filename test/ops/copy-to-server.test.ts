// Issue 13, point 8: moving from the embedded database to a server. The real process writes a
// data folder, is stopped, `npm run copy-to-server` copies it into a fresh PostgreSQL database,
// and the service started on that server serves the same data (PostgreSQL pass of CI only).
import { after as afterAll, describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from '../support/expect.ts';
import { freePort } from '../support/ports.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const NODE = [process.execPath, '--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
const SERVER = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'svc-copy-'));
const dbName = `svc_copy_${process.pid}_${Date.now()}`;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!SERVER) return;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => undefined);
  await admin.end();
});

const children: import('node:child_process').ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

function run(args: string[], env: Record<string, string>) {
  const proc = spawn(NODE[0], [...NODE.slice(1), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(proc);
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r(c)));
  const listening = async () => {
    for (let i = 0; i < 600 && !out.includes('svc-admin on '); i++) {
      if (proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!out.includes('svc-admin on ')) throw new Error(`did not start:\n${out}`);
  };
  return { proc, out: () => out, exited, listening };
}

const ADMIN = { SUPERADMIN_EMAIL: 'ops@example.com', SUPERADMIN_PASSWORD: 'Copy-pass-1' };
const basic = `Basic ${Buffer.from('ops@example.com:Copy-pass-1').toString('base64')}`;

async function call(port: number, path: string, init: RequestInit = {}, token?: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/svc${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      authorization: token ? `Bearer ${token}` : basic,
      ...(init.headers ?? {}),
    },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe(
  'issue 13, point 8: from the embedded database to a server',
  { skip: SERVER ? false : 'needs TEST_DATABASE_URL (the PostgreSQL pass)' },
  () => {
    it('npm run copy-to-server copies every row; the service on the server serves the same data and logins', async () => {
      const dataDir = join(dir, 'data');
      let port = await freePort();
      const embedded = run(['src/main.ts'], { PORT: String(port), DATA_DIR: dataDir, ...ADMIN });
      await embedded.listening();
      const token = (await call(port, '/authentication/v1.0/login')).body.token as string;
      const company = await call(
        port,
        '/admin/v1.0/companies',
        { method: 'POST', body: JSON.stringify({ name: 'Moved Company', country: 'FRA' }) },
        token,
      );
      expect(company.status, JSON.stringify(company.body)).toBe(201);
      embedded.proc.kill('SIGTERM');
      expect(await embedded.exited).toBe(0);

      const admin = new pg.Client({ connectionString: SERVER });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      await admin.end();
      const url = new URL(SERVER!);
      url.pathname = `/${dbName}`;
      const copy = run(['scripts/copy-to-server.ts'], { DATA_DIR: dataDir, DATABASE_URL: url.toString() });
      expect(await copy.exited, copy.out()).toBe(0);
      expect(copy.out()).toMatch(/^copied \d+ rows of \d+ tables/);

      port = await freePort();
      const server = run(['src/main.ts'], { PORT: String(port), DATABASE_URL: url.toString(), ...ADMIN });
      await server.listening();
      const again = (await call(port, '/authentication/v1.0/login')).body.token as string;
      const read = await call(port, `/admin/v1.0/companies/${company.body.data.id as string}`, {}, again);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: company.body.data.id, name: 'Moved Company' });
      // The token signed before the move still verifies: the signing keys moved with the data.
      expect((await call(port, '/admin/v1.0/companies?limit=1', {}, token)).status).toBe(200);
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    });
  },
);
