// Issue 13, points 1 to 5, on the real process: signals, configuration checked first, bounded
// waits for the database, the embedded data folder's lock, and the first superadmin's password.
// The services it starts are given no DATABASE_URL: whatever the pass, they run on the embedded
// database (or stop before opening one), so the file runs on the embedded pass only (SKIP_ENGINE_FREE).
import { after as afterAll, describe, it } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '../support/expect.ts';
import { freePort } from '../support/ports.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const NODE_ARGS = ['--experimental-strip-types', '--disable-warning=ExperimentalWarning'];
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-ops-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Run {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function run(command: string, args: string[], env: Record<string, string>): Run {
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  return { proc, out: () => out, exited };
}

const service = (env: Record<string, string>) => run(process.execPath, [...NODE_ARGS, 'src/main.ts'], env);

/** Waits until the service has printed `text` (it fails should the service end first). */
async function printed(r: Run, text: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!r.out().includes(text)) {
    if (r.proc.exitCode !== null || Date.now() > end) throw new Error(`the service did not print ${text}:\n${r.out()}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

const listening = (r: Run, timeoutMs?: number) => printed(r, 'svc-admin on ', timeoutMs);

const PASSWORD = 'First-pass-1';

describe(
  'issue 13, point 2: a wrong setting stops the start before anything is opened',
  { skip: SKIP_ENGINE_FREE },
  () => {
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      [
        'LOG_LEVEL=verbose',
        { LOG_LEVEL: 'verbose' },
        /^svc-admin: LOG_LEVEL="verbose" is not valid: expected one of fatal, error/,
      ],
      ['PORT=70000', { PORT: '70000' }, /^svc-admin: PORT="70000" is not valid: expected an integer from 1 to 65535/],
      [
        'a missing TLS file',
        { TLS_CERT_FILE: '/nonexistent/c.pem', TLS_KEY_FILE: '/nonexistent/k.pem' },
        /^svc-admin: TLS_CERT_FILE="\/nonexistent\/c.pem" is not a readable file/,
      ],
      ['a weak SUPERADMIN_PASSWORD', { SUPERADMIN_PASSWORD: 'weak' }, /^svc-admin: SUPERADMIN_PASSWORD is too weak/],
      [
        'DATABASE_URL=not-a-url',
        { DATABASE_URL: 'not-a-url' },
        /^svc-admin: DATABASE_URL="not-a-url" is not valid: expected a postgres:\/\/ or postgresql:\/\/ URL/,
      ],
    ];
    for (const [what, env, message] of cases) {
      it(`${what}: exit code 2, one line naming the variable, no stack trace, no data folder`, async () => {
        const dataDir = join(tmp(), 'data');
        const r = service({ ...env, DATA_DIR: dataDir });
        expect(await r.exited).toBe(2);
        expect(r.out()).toMatch(message);
        expect(r.out().trim().split('\n')).toHaveLength(1);
        expect(r.out()).not.toMatch(/\n\s+at /);
        expect(existsSync(dataDir)).toBe(false);
      });
    }
  },
);

describe('issue 13, point 1: signals', { skip: SKIP_ENGINE_FREE }, () => {
  it('SIGTERM to the process `npm start` launched lets a request in flight finish, then exits 0', async () => {
    const port = await freePort();
    const r = run('npm', ['start', '--silent'], {
      PORT: String(port),
      DATA_DIR: join(tmp(), 'data'),
      SUPERADMIN_PASSWORD: PASSWORD,
    });
    await listening(r);
    // Log lines are written in blocks (src/http/log-destination.ts), yet a quiet service's line
    // shows within moments, not when a block fills.
    expect((await fetch(`http://127.0.0.1:${port}/api/svc/admin/v1.0/companies?quiet=1`)).status).toBe(401);
    const seen = Date.now() + 2000;
    while (!r.out().includes('companies?quiet=1') && Date.now() < seen) await new Promise((res) => setTimeout(res, 50));
    expect(r.out()).toMatch(/"url":"\/api\/svc\/admin\/v1.0\/companies\?quiet=1"[^}]*\},"res":\{"statusCode":401\}/);
    // A request whose body is still arriving when the signal comes.
    const answer = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          port,
          host: '127.0.0.1',
          method: 'POST',
          path: '/api/svc/admin/v1.0/companies',
          headers: { 'content-type': 'application/json', 'content-length': 12 },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.write('{"name":');
      setTimeout(() => {
        r.proc.kill('SIGTERM');
        setTimeout(() => req.end('"x"}'), 500);
      }, 200);
    });
    expect(await answer).toBe(401); // answered (no token), not cut off
    expect(await r.exited).toBe(0);
    expect(r.out()).toContain('"msg":"stopped"');
    // Nothing answers any more: no orphan kept the port.
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });

  it('SIGINT stops it too, and the grace period bounds a request that never completes', async () => {
    const port = await freePort();
    const r = service({
      PORT: String(port),
      DATA_DIR: join(tmp(), 'data'),
      SUPERADMIN_PASSWORD: PASSWORD,
      SHUTDOWN_GRACE_SECONDS: '1',
    });
    await listening(r);
    const stuck = httpRequest({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/api/svc/admin/v1.0/companies',
      headers: { 'content-type': 'application/json', 'content-length': 100 },
    });
    stuck.on('error', () => undefined);
    stuck.write('{');
    await new Promise((res) => setTimeout(res, 200));
    const t0 = Date.now();
    r.proc.kill('SIGINT');
    expect(await r.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(6000);
    stuck.destroy();
  });
});

describe('issue 13, point 3: bounded waits', { skip: SKIP_ENGINE_FREE }, () => {
  let silent: ReturnType<typeof createTcpServer> | undefined;
  afterAll(() => silent?.close());
  it('a database server that accepts connections and never answers ends the start with a clear message', async () => {
    const held: import('node:net').Socket[] = [];
    silent = createTcpServer((s) => held.push(s)); // accepts, reads, never writes
    await new Promise<void>((r) => silent!.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    const t0 = Date.now();
    const r = service({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/svc`,
      DATABASE_CONNECT_TIMEOUT_SECONDS: '1',
      PORT: String(await freePort()),
    });
    expect(await r.exited).toBe(1);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.out()).toMatch(
      new RegExp(
        `^svc-admin: the database server of DATABASE_URL \\(127.0.0.1:${port}\\) (did not answer within 1 s|cannot be reached)`,
      ),
    );
    held.forEach((s) => s.destroy());
  });
});

describe(
  "issue 13, points 4 and 5: the data folder is locked; the first superadmin's password",
  { skip: SKIP_ENGINE_FREE },
  () => {
    it('a second process refuses the folder naming the holder; a changed SUPERADMIN_PASSWORD warns and the reset command applies it', async () => {
      const dataDir = join(tmp(), 'data');
      const first = service({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        SUPERADMIN_EMAIL: 'ops@example.com',
        SUPERADMIN_PASSWORD: PASSWORD,
      });
      await listening(first);

      const second = service({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        SUPERADMIN_EMAIL: 'ops@example.com',
        SUPERADMIN_PASSWORD: PASSWORD,
      });
      expect(await second.exited).toBe(1);
      expect(second.out()).toContain(`svc-admin: the data folder ${dataDir} is in use by process ${first.proc.pid}`);
      // The reset command refuses it too while the service runs.
      const busy = run(process.execPath, [...NODE_ARGS, 'scripts/reset-superadmin-password.ts'], {
        DATA_DIR: dataDir,
        SUPERADMIN_EMAIL: 'ops@example.com',
        SUPERADMIN_PASSWORD: 'Second-pass-2',
      });
      expect(await busy.exited).toBe(1);
      expect(busy.out()).toContain('is in use by process');
      first.proc.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      // Started again with another password: the stored one stays, and the log says so and how to change it.
      const port = await freePort();
      const changed = service({
        PORT: String(port),
        DATA_DIR: dataDir,
        SUPERADMIN_EMAIL: 'ops@example.com',
        SUPERADMIN_PASSWORD: 'Second-pass-2',
      });
      await listening(changed);
      // Looked for a second after listening (src/serve.ts), so that its hash's check leaves the start alone.
      await printed(
        changed,
        'SUPERADMIN_PASSWORD differs from the password of ops@example.com: it applies at first start only',
      );
      expect(changed.out()).toContain('npm run reset-superadmin-password');
      changed.proc.kill('SIGTERM');
      expect(await changed.exited).toBe(0);

      // With the service down, the command sets it; the next start logs in with it, without warning.
      const reset = run(process.execPath, [...NODE_ARGS, 'scripts/reset-superadmin-password.ts'], {
        DATA_DIR: dataDir,
        SUPERADMIN_EMAIL: 'ops@example.com',
        SUPERADMIN_PASSWORD: 'Second-pass-2',
      });
      expect(await reset.exited).toBe(0);
      const again = service({
        PORT: String(port),
        DATA_DIR: dataDir,
        SUPERADMIN_EMAIL: 'ops@example.com',
        SUPERADMIN_PASSWORD: 'Second-pass-2',
        LOG_LEVEL: 'debug',
      });
      await listening(again);
      // The check ran (said at debug level) and found the same password.
      await printed(again, 'SUPERADMIN_PASSWORD is the password of ops@example.com');
      expect(again.out()).not.toContain('differs');
      const login = await fetch(`http://127.0.0.1:${port}/api/svc/authentication/v1.0/login`, {
        headers: { authorization: `Basic ${Buffer.from('ops@example.com:Second-pass-2').toString('base64')}` },
      });
      expect(login.status).toBe(200);
      again.proc.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    });
  },
);
