// The service as a child process, started as `npm start` starts it (its environment and flags
// read from package.json), for the benchmark (scripts/bench.ts) and the end-to-end tests that kill
// it or run two of it (test/e2e/service-process.ts). Every child and temporary database registers
// how to undo itself in `cleanups`; `cleanup()` undoes them all.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const SUPERADMIN_EMAIL = 'bench-superadmin@bench.example';
export const SUPERADMIN_PASSWORD = 'Bench-superadmin-1!';

export const cleanups: Array<() => Promise<void>> = [];
let cleaning: Promise<void> | undefined;

export function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length) {
      const undo = cleanups.pop()!;
      await undo().catch((err) => console.error('cleanup:', err instanceof Error ? err.message : err));
    }
  })();
  return cleaning;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  proc: ChildProcess;
  base: string;
  /** Milliseconds from spawning to the first answer of /health. */
  startMs: number;
  rssMb(): number;
  /** CPU time (user + system) the process has used so far, in ms; NaN where /proc is absent. */
  cpuMs(): number;
  output(): string;
  stop(): Promise<void>;
}

/** The environment and node flags of `npm start` (package.json), so that the bench runs the service as it is run. */
function npmStartCommand(): { env: Record<string, string>; flags: string[] } {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  const at = words.indexOf('node');
  const env = Object.fromEntries(words.slice(0, at).map((w) => w.split('=') as [string, string]));
  const flags = words.slice(at + 1).filter((w) => w.startsWith('--'));
  return { env, flags };
}

export async function startChild(
  name: string,
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<Child> {
  const port = await freePort();
  const t0 = Date.now();
  const proc = spawn(process.execPath, [...nodeArgs, script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-8000);
  };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  const stop = async () => {
    if (exited) return;
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(t);
  };
  cleanups.push(stop);

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exited) throw new Error(`${name} exited before it was ready:\n${out}`);
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} not ready after 180 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startMs = Date.now() - t0;
  const rssMb = () => {
    try {
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))![1]) / 1024;
    } catch {
      return Number.NaN;
    }
  };
  const cpuMs = () => {
    try {
      // /proc/PID/stat: utime and stime are fields 14 and 15, in clock ticks (100 per second on Linux).
      const fields = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      return Number.NaN;
    }
  };
  return { name, proc, base, startMs, rssMb, cpuMs, output: () => out, stop };
}

export function startService(dbEnv: Record<string, string>): Promise<Child> {
  const start = npmStartCommand();
  return startChild(
    'service',
    'src/main.ts',
    // The general rate limit is off: the load comes from one address.
    // The default log level (info: one line per request), as a user runs it.
    { ...start.env, ...dbEnv, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD, RATE_LIMIT_MAX: '0' },
    [...start.flags, ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean)],
  );
}

export async function login(base: string, email: string, password: string): Promise<string> {
  const r = await fetch(`${base}/api/svc/authentication/v1.0/login`, {
    headers: { authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` },
  });
  if (!r.ok) throw new Error(`login ${email}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

/** A fresh database on the PostgreSQL server (BENCH_PG_URL), dropped by cleanup() unless BENCH_KEEP_DB=1 (for profiling). */
export async function createPgDatabase(): Promise<string> {
  const name = `svc_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  if (process.env.BENCH_KEEP_DB === '1') console.log(`  database ${name} kept (BENCH_KEEP_DB=1)`);
  else
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * CPU time (ms) of each of the PostgreSQL server's processes so far, by process id: the
 * database's side of an answer on a server, which shares the machine's cores with the service
 * (the ratio to the ceiling depends on both). Every process named `postgres` on the machine
 * counts; nothing else queries it while a slice runs.
 */
export function postgresCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1].split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}

/**
 * The PostgreSQL server's CPU (ms) since `before` (postgresCpu): what each process still running
 * spent since then, a process started since counted whole. A backend that ended meanwhile (a pool
 * closing an idle connection) takes its time since `before` with it: a slight undercount, where a
 * difference of sums went negative.
 */
export function postgresCpuSince(before: ReadonlyMap<string, number>): number {
  let ms = 0;
  for (const [pid, now] of postgresCpu()) ms += now - (before.get(pid) ?? 0);
  return ms;
}
