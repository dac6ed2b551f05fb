// `npm run bench` (after scripts/bench.ts), or `npm run bench:start` alone: the start of the
// service measured as a user starts it, and its resident memory after 10,000 requests.
//
// Each start is `npm start` itself (its environment and flags, npm's own start-up included),
// timed from the spawn to the first successful login (GET /api/svc/authentication/v1.0/login with
// Basic credentials of SUPERADMIN_EMAIL/SUPERADMIN_PASSWORD), polled every 20 ms. For each database:
//   - first start: a fresh data folder (embedded) or a fresh database (PostgreSQL), the bundle and
//     the made database present (as after `npm ci`: src/bundle.ts, src/db/empty-database.ts); on
//     the embedded database also once without the made database (initdb and the migrations), and
//     once with the bundle to build (its manifest removed first: the start builds it again);
//   - restarts: BENCH_START_RESTARTS (default 5) starts of the same database, median;
//   - memory: one more start, then 10,000 requests (getUser and getCompany with the
//     superadmin's token, autocannon, 10 connections), then VmRSS of the node process (`npm start`
//     execs node through env: the child of npm whose command line runs src/main.ts).
// The machine's load (/proc/loadavg) is printed before and after. The service's general request
// limit is off for the memory run only (the load comes from one address); the timed starts run
// with the settings a user has.
//
// Settings (environment): BENCH_PG_URL (an admin URL of the PostgreSQL server, default
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_ONLY (server|embedded), BENCH_START_RESTARTS,
// BENCH_START_REQUESTS (default 10,000); BENCH_NO_DOC=1 leaves docs/benchmarks.md as it is
// (otherwise a run of both databases writes its section there).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildBundle, bundleIsFresh } from '../src/bundle.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ONLY = process.env.BENCH_ONLY;
const RESTARTS = Number(process.env.BENCH_START_RESTARTS ?? 5);
const REQUESTS = Number(process.env.BENCH_START_REQUESTS ?? 10_000);
const EMAIL = 'bench-start@example.com';
const PASSWORD = 'Bench-start-passw0rd!';
const LOGIN = '/api/svc/authentication/v1.0/login';
const POLL_MS = 20;

/** Targets of issue 24, point 4. */
export const START_TARGETS = { firstMs: 5_000, restartMs: 2_000, rssMb: { embedded: 300, postgresql: 200 } };

type Engine = 'embedded' | 'postgresql';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const address = s.address();
  await new Promise((r) => s.close(r));
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return address.port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The children of a process (Linux). */
function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The service's node process under `npm start` (npm, then `sh -c`, which execs env, which execs node). */
function servicePid(npmPid: number): number | undefined {
  const queue = children(npmPid);
  while (queue.length) {
    const pid = queue.shift()!;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('src/main.ts')) return pid;
    } catch {
      continue;
    }
    queue.push(...children(pid));
  }
  return undefined;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

interface Started {
  ms: number;
  base: string;
  pid: number;
  login: { token: string; userId: string; companyId: string };
  output: () => string;
  stop(): Promise<void>;
}

const basic = `Basic ${Buffer.from(`${EMAIL}:${PASSWORD}`).toString('base64')}`;

/** Starts the service with `npm start` and waits for its first successful login. */
async function npmStart(env: Record<string, string>, extra: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The user's environment, less what would change the service's settings.
    if (v !== undefined && !/^(DATABASE_URL|DATA_DIR|LOG_LEVEL|PORT|HOST|NODE_OPTIONS|npm_.*)$/.test(k))
      childEnv[k] = v;
  }
  const t0 = performance.now();
  const proc: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...childEnv, ...env, ...extra, PORT: String(port), SUPERADMIN_EMAIL: EMAIL, SUPERADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => (out = (out + b.toString()).slice(-8000));
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  let ended = false;
  void exited.then(() => (ended = true));
  let ms = 0;
  let login: Started['login'] | undefined;
  const deadline = Date.now() + 180_000;
  while (!login) {
    if (ended) throw new Error(`npm start exited before its first login:\n${out}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`no login within 180 s:\n${out}`);
    }
    try {
      const r = await fetch(base + LOGIN, { headers: { authorization: basic } });
      if (r.status === 200) {
        ms = performance.now() - t0;
        const body: unknown = await r.json();
        login = readLogin(body);
      } else await r.arrayBuffer();
    } catch {
      // not listening yet
    }
    if (!login) await sleep(POLL_MS);
  }
  const pid = servicePid(proc.pid!);
  if (!pid) throw new Error('the node process of npm start was not found');
  const stop = async () => {
    if (ended) return;
    process.kill(pid, 'SIGTERM');
    const force = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(force);
  };
  return { ms, base, pid, login, output: () => out, stop };
}

function readLogin(body: unknown): Started['login'] {
  if (typeof body === 'object' && body !== null && 'token' in body && 'loggedInUser' in body) {
    const user = body.loggedInUser;
    if (typeof body.token === 'string' && typeof user === 'object' && user !== null && 'id' in user) {
      const companyId = 'companyId' in user ? user.companyId : undefined;
      if (typeof user.id === 'string' && typeof companyId === 'string')
        return { token: body.token, userId: user.id, companyId };
    }
  }
  throw new Error(`unexpected login answer: ${JSON.stringify(body).slice(0, 300)}`);
}

/** 10,000 requests (getUser, getCompany alternately) on keep-alive connections, then the node process's RSS. */
async function memoryAfterRequests(s: Started): Promise<number> {
  const headers = { authorization: `Bearer ${s.login.token}` };
  const result = await autocannon({
    url: s.base,
    connections: 10,
    amount: REQUESTS,
    requests: [
      { method: 'GET', path: `/api/svc/admin/v1.0/users/${s.login.userId}`, headers },
      { method: 'GET', path: `/api/svc/admin/v1.0/companies/${s.login.companyId}`, headers },
    ],
  });
  const ok = result['2xx'];
  if (ok < REQUESTS * 0.99)
    throw new Error(`only ${ok} of ${REQUESTS} requests answered 2xx (non-2xx ${result.non2xx})`);
  // The figure a user's monitoring reads a moment later, once the last answers are written.
  await sleep(500);
  return rssMb(s.pid);
}

async function freshPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_bench_start_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

interface EngineFigures {
  engine: Engine;
  firstBuiltMs?: number;
  firstInitdbMs?: number;
  firstMs: number;
  restartsMs: number[];
  rssMb: number;
}

const BUILD = join(ROOT, '.build');
const MANIFEST = join(BUILD, 'service.json');

async function timed(what: string, env: Record<string, string>, extra?: Record<string, string>): Promise<Started> {
  const s = await npmStart(env, extra);
  console.log(`  ${what}: ${fmt(s.ms)} ms (load ${loadavg()})`);
  return s;
}

async function measureEngine(engine: Engine): Promise<EngineFigures> {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'svc-bench-start-'));
    dirs.push(d);
    return join(d, 'data');
  };
  const pgDb = engine === 'postgresql' ? await freshPgDatabase() : undefined;
  try {
    let firstBuiltMs: number | undefined;
    let firstInitdbMs: number | undefined;
    if (engine === 'embedded') {
      // A first start that finds no database made by `npm run build` (src/db/empty-database.ts): initdb
      // and the migrations, as before it existed (the made database is put aside meanwhile).
      const made = readdirSync(BUILD).filter((f) => /^empty-database-\w+\.tar$/.test(f));
      for (const f of made) renameSync(join(BUILD, f), join(BUILD, `${f}.aside`));
      try {
        const s = await timed(`${engine}, first start, no made database`, { DATA_DIR: dataDir() });
        firstInitdbMs = s.ms;
        await s.stop();
      } finally {
        for (const f of made) renameSync(join(BUILD, `${f}.aside`), join(BUILD, f));
      }
      // The start of a clone without its bundle: the manifest gone, the bundle is stale and built
      // again by the start (written beside, then renamed: another start reads the old one meanwhile).
      rmSync(MANIFEST, { force: true });
      const s = await timed(`${engine}, first start, bundle built by the start`, { DATA_DIR: dataDir() });
      firstBuiltMs = s.ms;
      await s.stop();
      if (!existsSync(MANIFEST)) throw new Error('the start did not write the bundle');
    } else if (!bundleIsFresh()) {
      // The bundle present, as after `npm ci`: its build is the embedded run's figure.
      await buildBundle();
    }
    const env: Record<string, string> = pgDb ? { DATABASE_URL: pgDb.url } : { DATA_DIR: dataDir() };
    const first = await timed(`${engine}, first start`, env);
    await first.stop();
    const restartsMs: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      const s = await timed(`${engine}, restart ${i + 1}`, env);
      restartsMs.push(s.ms);
      await s.stop();
    }
    const s = await npmStart(env, { RATE_LIMIT_MAX: '0' });
    let rss: number;
    try {
      rss = await memoryAfterRequests(s);
    } finally {
      await s.stop();
    }
    console.log(`  ${engine}, resident memory after ${fmt(REQUESTS)} requests: ${fmt(rss)} MB`);
    return { engine, firstBuiltMs, firstInitdbMs, firstMs: first.ms, restartsMs, rssMb: rss };
  } finally {
    await pgDb?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

function table(figures: EngineFigures[]): string {
  const rows: string[][] = [];
  const yes = (ok: boolean) => (ok ? 'yes' : 'no');
  for (const f of figures) {
    const restart = median(f.restartsMs);
    const rssTarget = START_TARGETS.rssMb[f.engine];
    if (f.firstInitdbMs !== undefined)
      rows.push([
        `first start, no made database: initdb and migrations (${f.engine})`,
        `${fmt(f.firstInitdbMs)} ms`,
        '—',
        '—',
      ]);
    if (f.firstBuiltMs !== undefined)
      rows.push([`first start, bundle built by it (${f.engine})`, `${fmt(f.firstBuiltMs)} ms`, '—', '—']);
    rows.push([
      `first start (${f.engine})`,
      `${fmt(f.firstMs)} ms`,
      `< ${fmt(START_TARGETS.firstMs)} ms`,
      yes(f.firstMs < START_TARGETS.firstMs),
    ]);
    rows.push([
      `restart, median of ${f.restartsMs.length} (${f.engine}; ${f.restartsMs.map(fmt).join(', ')})`,
      `${fmt(restart)} ms`,
      `< ${fmt(START_TARGETS.restartMs)} ms`,
      yes(restart < START_TARGETS.restartMs),
    ]);
    rows.push([
      `resident memory after ${fmt(REQUESTS)} requests (${f.engine})`,
      `${fmt(f.rssMb)} MB`,
      `< ${rssTarget} MB`,
      yes(f.rssMb < rssTarget),
    ]);
  }
  return ['| measure | value | target | met |', '|---|--:|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );
}

const DOC_HEADING = '## Start, as a user starts it';

/** Replaces (or adds) this bench's section of docs/benchmarks.md, which scripts/bench.ts writes. */
function writeDoc(body: string): void {
  const file = join(ROOT, 'docs', 'benchmarks.md');
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const at = before.indexOf(DOC_HEADING);
  const next = at < 0 ? -1 : before.indexOf('\n## ', at + DOC_HEADING.length);
  const head = at < 0 ? before.trimEnd() : before.slice(0, at).trimEnd();
  const tail = next < 0 ? '' : before.slice(next);
  writeFileSync(file, `${head}\n\n${DOC_HEADING}\n\n${body.trim()}\n${tail}`);
}

export async function benchStart(): Promise<void> {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const loadBefore = loadavg();
  console.log(
    `\nStart as a user starts it (npm start, spawn to first login, polled every ${POLL_MS} ms; load average before: ${loadBefore})`,
  );
  const engines: Engine[] =
    ONLY === 'server' ? ['postgresql'] : ONLY === 'embedded' ? ['embedded'] : ['embedded', 'postgresql'];
  const figures: EngineFigures[] = [];
  for (const e of engines) figures.push(await measureEngine(e));
  const loadAfter = loadavg();
  const text = table(figures);
  console.log(`\n${text}\n\nload average (1, 5, 15 min) before: ${loadBefore}; after: ${loadAfter}`);
  if (process.env.BENCH_NO_DOC !== '1' && !ONLY && process.env.BENCH_START_RESTARTS === undefined)
    writeDoc(
      `Written by \`npm run bench\` (scripts/bench-start.ts), ${when} UTC, on ${readdirSync('/sys/devices/system/cpu').filter((d) => /^cpu\d+$/.test(d)).length} cores; load average (1, 5, 15 min) ${loadBefore} before, ${loadAfter} after. Each start is \`npm start\` as a user runs it (the data folder or database already created for a restart; a fresh one for a first start), timed from the spawn to the first successful login (polled every ${POLL_MS} ms). Memory: the node process's resident set after ${fmt(REQUESTS)} requests (getUser and getCompany, 10 connections) following a start, on an otherwise empty database.\n\n${text}\n`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  benchStart().catch((err) => {
    console.error('\nbench-start failed:', err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
