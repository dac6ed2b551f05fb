// `npm run bench`: throughput and tail latency of the service, not a test.
//
// For each database (a fresh PostgreSQL database with a random name, then a fresh embedded PGlite
// DATA_DIR) it loads 100,000 users spread over 1,000 companies, starts the real service
// (src/main.ts) as a child process, signs in as the superadmin and measures with autocannon:
//   getUser    GET /api/svc/admin/v1.0/users/{id}          (rotating over existing ids)
//   listUsers  GET /api/svc/admin/v1.0/users?companyId=..&limit=20&sortField=lastName
// Beside them, a bare Fastify + pg server (scripts/bench-ceiling.ts) runs the same SQL on the same
// PostgreSQL database with no authentication, envelope or validation: the ceiling of this stack.
// It prints requests/s, p99 and the ratio to the ceiling, and writes docs/benchmarks.md.
//
// Settings (environment): BENCH_PG_URL (an admin URL of the PostgreSQL server, default
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_CONNECTIONS (default 20), BENCH_DURATION
// (seconds, default 10), BENCH_WARMUP (seconds, default 2). For profiling: BENCH_ONLY
// (server|embedded), BENCH_CASES (getUser,listUsers), BENCH_SERVICE_NODE_ARGS (e.g. "--cpu-prof
// --cpu-prof-dir=/tmp/prof"), BENCH_SERVICE_ENTRY (another entry point than src/main.ts); only a
// full run writes docs/benchmarks.md, and not with BENCH_NO_DOC=1.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { hashPassword } from '../src/shared/passwords.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const USERS = 100_000;
const COMPANIES = 1_000;
const PAGE_LIMIT = 20;
// Issue 3: listCompanies with three filters over 100,000 companies: End Customers of BP_COUNT
// BP companies, one in ten on hold; the filters are bpId, status and isBP.
const EC_COMPANIES = 100_000;
const BP_COUNT = 100;
const LIST_COMPANIES_TARGET_RPS = 2_000;
const LIST_COMPANIES_TARGET_P99_MS = 50;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/** Distinct ids (and companies) each autocannon connection cycles through. */
const ROTATION = 1_000;
const ONLY = process.env.BENCH_ONLY as 'server' | 'embedded' | undefined;
const CASES = (process.env.BENCH_CASES ?? 'getUser,listUsers,listCompanies').split(',') as CaseName[];
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SUPERADMIN_EMAIL = 'bench-superadmin@bench.example';
const SUPERADMIN_PASSWORD = 'Bench-superadmin-1!';

// Targets of the issue (2-core machine, PostgreSQL): getUser >= 5,000 req/s, p99 < 20 ms and at
// least 0.7 of the ceiling; the embedded database at least a third of the PostgreSQL figure (read
// here as a third of the measured figure, and not less than a third of the 5,000 target).
const TARGET_RPS = 5_000;
const TARGET_P99_MS = 20;
const TARGET_RATIO = 0.7;
const EMBEDDED_FRACTION = 1 / 3;

export type CaseName = 'getUser' | 'listUsers' | 'listCompanies';
export type Engine = 'postgresql' | 'embedded' | 'ceiling (bare pg)';

export interface Measure {
  caseName: CaseName;
  engine: Engine;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** Share of the machine's CPU busy with other work just before the case (undefined off Linux). */
  busy: number | undefined;
}

// ---------------------------------------------------------------------------------------------
// Cleanup: every child process and temporary database registers how to undo itself.

const cleanups: Array<() => Promise<void>> = [];
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

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Child processes

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
  output(): string;
  stop(): Promise<void>;
}

export async function startChild(name: string, script: string, env: Record<string, string>, nodeArgs: string[] = []): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...nodeArgs, '--experimental-strip-types', '--disable-warning=ExperimentalWarning', script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-8000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => proc.once('exit', () => { exited = true; resolve(); }));

  const stop = async () => {
    if (exited) return;
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(t);
  };
  cleanups.push(stop);

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
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
      throw new Error(`${name} not ready after 120 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { name, proc, base, output: () => out, stop };
}

export function startService(dbEnv: Record<string, string>): Promise<Child> {
  return startChild('service', process.env.BENCH_SERVICE_ENTRY ?? 'src/main.ts', {
    ...dbEnv,
    SUPERADMIN_EMAIL,
    SUPERADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
  }, (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean));
}

// ---------------------------------------------------------------------------------------------
// Data

const companyId = (c: number) => createHash('md5').update(`company-${c}`).digest('hex').slice(0, 24);
const userId = (i: number) => createHash('md5').update(`user-${i}`).digest('hex').slice(0, 24);

/** A deterministic shuffle, so that every run asks for the same ids in the same order. */
function sample(n: number, max: number, seed: number): number[] {
  let s = seed >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const set = new Set<number>();
  while (set.size < n) set.add(1 + Math.floor(rnd() * max));
  return [...set];
}

/**
 * Set-based load: COMPANIES companies, USERS users (user i in company i mod COMPANIES, so the
 * users of a company are spread over the table as real inserts would be), distinct login emails
 * and last names, one shared argon2 hash. The service must have migrated the schema already.
 */
export async function loadData(open: { url?: string; dataDir?: string }, passwordHash: string): Promise<void> {
  const database = openDatabase(open);
  try {
    const db = database.db;
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country)
      SELECT substr(md5('company-' || c), 1, 24), 'Bench company ' || lpad(c::text, 4, '0'), 'active', 'FRA'
      FROM generate_series(1, ${COMPANIES}::int) AS c`);
    await db.execute(sql`
      INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles, language, timezone)
      SELECT substr(md5('user-' || i), 1, 24),
             substr(md5('company-' || (i % ${COMPANIES}::int + 1)), 1, 24),
             'user' || i || '@bench.example',
             ${passwordHash},
             (ARRAY['Alice','Bruno','Chloé','David','Emma','Farid','Gaëlle','Hugo','Inès','Jules'])[i % 10 + 1],
             initcap(translate(substr(md5('last-' || i), 1, 8), '0123456789', 'ghijklmnop')) || '-' || i,
             ARRAY['user']::text[], 'en', 'Europe/Paris'
      FROM generate_series(1, ${USERS}::int) AS i`);
    // PGlite has no autovacuum; on PostgreSQL this also keeps autovacuum from starting mid-run.
    await db.execute(sql`VACUUM ANALYZE companies`);
    await db.execute(sql`VACUUM ANALYZE users`);
    const res = (await db.execute(sql`SELECT count(*)::int AS n FROM users`)) as unknown as { rows: Array<{ n: number }> };
    if (res.rows[0]!.n < USERS) throw new Error(`loaded ${res.rows[0]!.n} users, expected ${USERS}`);
  } finally {
    await database.close();
  }
}

/**
 * Issue 3's data, loaded after the users cases have run (so that those measure the data set
 * issue 2 specifies): BP_COUNT BP companies and EC_COMPANIES End Customers.
 */
export async function loadCompanies(open: { url?: string; dataDir?: string }): Promise<void> {
  const database = openDatabase(open);
  try {
    const db = database.db;
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country, is_bp, bp_type, bp_business_model)
      SELECT substr(md5('bp-' || b), 1, 24), 'Bench BP ' || lpad(b::text, 3, '0'), 'active', 'FRA', true, 'DR', 'resell'
      FROM generate_series(1, ${BP_COUNT}::int) AS b`);
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country, bp_id, external_reference)
      SELECT substr(md5('ec-' || e), 1, 24), 'Customer ' || initcap(translate(substr(md5('ecname-' || e), 1, 8), '0123456789', 'ghijklmnop')) || ' ' || e,
             CASE WHEN (e / ${BP_COUNT}::int) % 10 = 0 THEN 'hold' ELSE 'active' END, 'FRA',
             substr(md5('bp-' || (e % ${BP_COUNT}::int + 1)), 1, 24), 'EXT-' || e
      FROM generate_series(1, ${EC_COMPANIES}::int) AS e`);
    await db.execute(sql`VACUUM ANALYZE companies`);
  } finally {
    await database.close();
  }
}

export async function login(base: string): Promise<string> {
  const r = await fetch(`${base}/api/svc/authentication/v1.0/login`, {
    headers: { authorization: `Basic ${Buffer.from(`${SUPERADMIN_EMAIL}:${SUPERADMIN_PASSWORD}`).toString('base64')}` },
  });
  if (!r.ok) throw new Error(`login: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { token: string }).token;
}

// ---------------------------------------------------------------------------------------------
// Measurement

export interface Target {
  base: string;
  headers: Record<string, string>;
  getPath: (id: string) => string;
  listPath: (companyId: string) => string;
  companiesPath?: (bpId: string) => string;
}

export const SERVICE_PATHS = {
  getPath: (id: string) => `/api/svc/admin/v1.0/users/${id}`,
  listPath: (c: string) => `/api/svc/admin/v1.0/users?companyId=${c}&limit=${PAGE_LIMIT}&sortField=lastName`,
  companiesPath: (bp: string) => `/api/svc/admin/v1.0/companies?bpId=${bp}&status=active&isBP=false&limit=${PAGE_LIMIT}`,
};
export const CEILING_PATHS = {
  getPath: (id: string) => `/users/${id}`,
  listPath: (c: string) => `/users?companyId=${c}&limit=${PAGE_LIMIT}`,
};

export const ids = sample(ROTATION, USERS, 42).map(userId);
export const companyIds = sample(ROTATION, COMPANIES, 7).map(companyId);
const bpIds = Array.from({ length: BP_COUNT }, (_, b) => createHash('md5').update(`bp-${b + 1}`).digest('hex').slice(0, 24));

export async function check(t: Target, withCompanies = false): Promise<void> {
  // One request of each kind before measuring: a wrong path or token fails here, not as non-2xx.
  for (const path of [t.getPath(ids[0]!), t.listPath(companyIds[0]!)]) {
    const r = await fetch(t.base + path, { headers: t.headers });
    const body = await r.text();
    if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${body}`);
  }
  if (t.companiesPath && withCompanies) {
    const rc = await fetch(t.base + t.companiesPath(bpIds[0]!), { headers: t.headers });
    const bc = (await rc.json()) as { data: unknown[]; total: number };
    if (!rc.ok || bc.data.length !== PAGE_LIMIT || bc.total < 800) throw new Error(`listCompanies page: ${rc.status} ${JSON.stringify(bc).slice(0, 300)}`);
  }
  const r = await fetch(t.base + t.listPath(companyIds[0]!), { headers: t.headers });
  const body = (await r.json()) as { data: unknown[]; total: number };
  if (body.data.length !== PAGE_LIMIT || body.total !== USERS / COMPANIES) {
    throw new Error(`listUsers page: ${body.data.length} rows of ${body.total}, expected ${PAGE_LIMIT} of ${USERS / COMPANIES}`);
  }
}

function cannon(t: Target, paths: string[], duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: t.base,
    connections: CONNECTIONS,
    pipelining: 1,
    duration,
    headers: t.headers,
    // Static requests, built once per connection; each connection cycles through the list.
    requests: paths.map((path) => ({ method: 'GET' as const, path })),
  });
}

// Other work on the machine (tests of other sessions, builds) takes cores from the service and
// skews the figures: before each case wait a little for a quiet machine, and record how busy it was.
const QUIET_BELOW = Number(process.env.BENCH_QUIET_BELOW ?? 25);
const QUIET_WAIT_S = Number(process.env.BENCH_QUIET_WAIT ?? 15);

function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - f[3]! - f[4]!, total };
  } catch {
    return undefined;
  }
}

/** Percentage of all cores busy over the next second. */
async function machineBusy(): Promise<number | undefined> {
  const a = cpuTimes();
  await new Promise((r) => setTimeout(r, 1000));
  const b = cpuTimes();
  return a && b && b.total > a.total ? (100 * (b.busy - a.busy)) / (b.total - a.total) : undefined;
}

async function waitForQuiet(): Promise<number | undefined> {
  const deadline = Date.now() + QUIET_WAIT_S * 1000;
  for (;;) {
    const busy = await machineBusy();
    if (busy === undefined || busy < QUIET_BELOW || Date.now() >= deadline) return busy;
  }
}

function busyText(busy: number | undefined): string {
  return busy === undefined ? '?' : `${busy.toFixed(0)}%`;
}

export async function measure(t: Target, caseName: CaseName, engine: Engine): Promise<Measure> {
  const paths =
    caseName === 'getUser' ? ids.map(t.getPath) : caseName === 'listCompanies' ? bpIds.map(t.companiesPath!) : companyIds.map(t.listPath);
  const busy = await waitForQuiet();
  if (WARMUP > 0) await cannon(t, paths, WARMUP);
  const r = await cannon(t, paths, DURATION);
  const m: Measure = {
    caseName,
    engine,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    busy,
  };
  const bad = m.non2xx || m.errors ? `  (!! ${m.non2xx} non-2xx, ${m.errors} errors)` : '';
  console.log(`  ${caseName.padEnd(9)} ${engine.padEnd(18)} ${fmt(m.rps, 0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  (machine ${busyText(busy)} busy before)${bad}`);
  return m;
}

function fmt(n: number, digits: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// ---------------------------------------------------------------------------------------------
// Runs

export async function createPgDatabase(): Promise<string> {
  const name = `svc_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
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

async function serverVersion(): Promise<string> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    const r = await c.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return r.rows[0]!.v;
  } finally {
    await c.end();
  }
}

/** Issue 3's case: load the companies with the service stopped, start it (it gives every new company its default subscription), measure. */
async function companiesPhase(open: { url?: string; dataDir?: string }, env: Record<string, string>, engine: Engine): Promise<Measure> {
  const t0 = Date.now();
  await loadCompanies(open);
  const service = await startService(env);
  console.log(`  loaded ${fmt(EC_COMPANIES, 0)} companies and started in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const svc: Target = { base: service.base, headers: { authorization: `Bearer ${await login(service.base)}` }, ...SERVICE_PATHS };
  await check(svc, true);
  const m = await measure(svc, 'listCompanies', engine);
  await service.stop();
  return m;
}

async function runPostgres(passwordHash: string): Promise<Measure[]> {
  console.log('\nPostgreSQL');
  const t0 = Date.now();
  const url = await createPgDatabase();
  // First start migrates and creates the superadmin; load with the service stopped, as for PGlite.
  await (await startService({ DATABASE_URL: url })).stop();
  await loadData({ url }, passwordHash);
  console.log(`  loaded ${fmt(USERS, 0)} users in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const out: Measure[] = [];
  const service = await startService({ DATABASE_URL: url });
  const svc: Target = { base: service.base, headers: { authorization: `Bearer ${await login(service.base)}` }, ...SERVICE_PATHS };
  await check(svc);
  if (CASES.includes('getUser')) out.push(await measure(svc, 'getUser', 'postgresql'));
  if (CASES.includes('listUsers')) out.push(await measure(svc, 'listUsers', 'postgresql'));
  await service.stop();

  const ceiling = await startChild('ceiling', 'scripts/bench-ceiling.ts', { DATABASE_URL: url });
  const ceil: Target = { base: ceiling.base, headers: {}, ...CEILING_PATHS };
  await check(ceil);
  if (CASES.includes('getUser')) out.push(await measure(ceil, 'getUser', 'ceiling (bare pg)'));
  if (CASES.includes('listUsers')) out.push(await measure(ceil, 'listUsers', 'ceiling (bare pg)'));
  await ceiling.stop();
  if (CASES.includes('listCompanies')) out.push(await companiesPhase({ url }, { DATABASE_URL: url }, 'postgresql'));
  return out;
}

async function runEmbedded(passwordHash: string): Promise<Measure[]> {
  console.log('\nEmbedded (PGlite)');
  const t0 = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  // PGlite is single-process: migrate with the service, stop it, load from here, start it again.
  await (await startService({ DATA_DIR: dataDir })).stop();
  await loadData({ dataDir }, passwordHash);
  console.log(`  loaded ${fmt(USERS, 0)} users in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const out: Measure[] = [];
  const service = await startService({ DATA_DIR: dataDir });
  const svc: Target = { base: service.base, headers: { authorization: `Bearer ${await login(service.base)}` }, ...SERVICE_PATHS };
  await check(svc);
  if (CASES.includes('getUser')) out.push(await measure(svc, 'getUser', 'embedded'));
  if (CASES.includes('listUsers')) out.push(await measure(svc, 'listUsers', 'embedded'));
  await service.stop();
  if (CASES.includes('listCompanies')) out.push(await companiesPhase({ dataDir }, { DATA_DIR: dataDir }, 'embedded'));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  m: Measure;
  ratio: number | undefined;
  target: string;
  met: string;
}

function evaluate(all: Measure[]): Row[] {
  const find = (c: CaseName, e: Engine) => all.find((m) => m.caseName === c && m.engine === e);
  return all.map((m) => {
    const ceiling = find(m.caseName, 'ceiling (bare pg)');
    const ratio = m.engine === 'ceiling (bare pg)' || !ceiling ? undefined : m.rps / ceiling.rps;
    const clean = m.non2xx === 0 && m.errors === 0;
    if (m.caseName === 'getUser' && m.engine === 'postgresql') {
      const ok = clean && m.rps >= TARGET_RPS && m.p99 < TARGET_P99_MS && ratio !== undefined && ratio >= TARGET_RATIO;
      return { m, ratio, target: `≥ ${fmt(TARGET_RPS, 0)} req/s, p99 < ${TARGET_P99_MS} ms, ≥ ${TARGET_RATIO} × ceiling`, met: ok ? 'yes' : 'no' };
    }
    if (m.caseName === 'listCompanies' && m.engine === 'postgresql') {
      const ok = clean && m.rps >= LIST_COMPANIES_TARGET_RPS && m.p99 < LIST_COMPANIES_TARGET_P99_MS;
      return { m, ratio, target: `≥ ${fmt(LIST_COMPANIES_TARGET_RPS, 0)} req/s, p99 < ${LIST_COMPANIES_TARGET_P99_MS} ms`, met: ok ? 'yes' : 'no' };
    }
    if (m.caseName === 'getUser' && m.engine === 'embedded') {
      // Issue 2: "the embedded database at least a third of that", that being the PostgreSQL
      // target of 5,000 requests/s (docs/decisions.md). The share of the PostgreSQL figure
      // measured in the same run is printed beside it.
      const need = TARGET_RPS * EMBEDDED_FRACTION;
      const pg = find('getUser', 'postgresql')?.rps;
      const share = pg ? `; ${fmt(m.rps / pg, 2)} of PostgreSQL's` : '';
      return { m, ratio, target: `≥ ⅓ × ${fmt(TARGET_RPS, 0)} = ${fmt(need, 0)} req/s${share}`, met: clean && m.rps >= need ? 'yes' : 'no' };
    }
    return { m, ratio, target: '—', met: clean ? '—' : 'no (errors)' };
  });
}

function printTable(rows: Row[]): void {
  const header = ['case', 'database', 'req/s', 'p99 ms', 'ratio to ceiling', 'target', 'met', 'busy before'];
  const cells = rows.map((r) => [
    r.m.caseName,
    r.m.engine,
    fmt(r.m.rps, 0),
    String(r.m.p99),
    r.ratio === undefined ? '—' : r.ratio.toFixed(2),
    r.target,
    r.met,
    busyText(r.m.busy),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i >= 2 && i <= 4 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
}

function markdown(rows: Row[], meta: Record<string, string>): string {
  const table = [
    '| case | database | requests/s | p50 ms | p99 ms | ratio to ceiling | target | met | machine busy before |',
    '|---|---|--:|--:|--:|--:|---|---|--:|',
    ...rows.map((r) =>
      `| ${r.m.caseName} | ${r.m.engine} | ${fmt(r.m.rps, 0)} | ${r.m.p50} | ${r.m.p99} | ${r.ratio === undefined ? '—' : r.ratio.toFixed(2)} | ${r.target} | ${r.met} | ${busyText(r.m.busy)} |`),
  ].join('\n');
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench.ts); run it again to refresh this page.

${Object.entries(meta).map(([k, v]) => `- ${k}: ${v}`).join('\n')}

${table}

How to read it:

- **getUser** is \`GET /api/svc/admin/v1.0/users/{id}\` with a superadmin bearer token, rotating over
  ${fmt(ROTATION, 0)} existing ids; **listUsers** is \`GET /api/svc/admin/v1.0/users?companyId=…&limit=${PAGE_LIMIT}&sortField=lastName\`,
  rotating over ${fmt(ROTATION, 0)} companies of ${USERS / COMPANIES} users each (a page of ${PAGE_LIMIT} and the count of ${USERS / COMPANIES}).
- **ceiling (bare pg)** is scripts/bench-ceiling.ts: Fastify + pg (pool of 10, as the service) running
  the same SQL on the same PostgreSQL database (the target row by id; the page and the count), with no
  authentication, envelope, validation or response schema. The embedded database is compared with
  this PostgreSQL ceiling too.
- Targets of the issue, for getUser on this 2-core machine: on PostgreSQL at least ${fmt(TARGET_RPS, 0)} requests/s
  with p99 under ${TARGET_P99_MS} ms and at least ${TARGET_RATIO} of the ceiling; on the embedded database at least a
  third of that target (${fmt(TARGET_RPS / 3, 0)} requests/s); its share of the PostgreSQL figure of the same run is shown beside it. listUsers has no target; it is shown for reference.
- The service, the ceiling, PostgreSQL and autocannon share the same cores, so the figures are those
  of one machine doing everything, not of a server with a separate load generator.
- *machine busy before* is the share of all cores used by other work in the second before the case
  (the benchmark waits up to ${QUIET_WAIT_S} s for it to fall under ${QUIET_BELOW}%). When it is high, the figures of
  that case are low by about as much: compare runs made on a quiet machine.
`;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`bench: ${fmt(USERS, 0)} users in ${fmt(COMPANIES, 0)} companies; autocannon ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per case`);
  const passwordHash = await hashPassword('Bench-password-1!');
  const all: Measure[] = [];
  let pgVersion = '(not run)';
  if (ONLY !== 'embedded') {
    pgVersion = await serverVersion();
    all.push(...(await runPostgres(passwordHash)));
  }
  if (ONLY !== 'server') all.push(...(await runEmbedded(passwordHash)));

  const rows = evaluate(all);
  printTable(rows);
  const meta: Record<string, string> = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: `${availableParallelism()} cores (nproc), ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    software: `Node ${process.version}, PostgreSQL ${pgVersion} (default settings, local TCP), PGlite ${pgliteVersion()}`,
    data: `${fmt(USERS, 0)} users in ${fmt(COMPANIES, 0)} companies (${USERS / COMPANIES} each), plus ${fmt(EC_COMPANIES, 0)} End Customer companies of ${BP_COUNT} BPs (one in ten on hold) for listCompanies, loaded with INSERT … SELECT generate_series, then VACUUM ANALYZE`,
    load: `autocannon 8, ${CONNECTIONS} connections, no pipelining, ${WARMUP} s warm-up then ${DURATION} s per case, in the benchmark process on the same machine`,
    service: '`node src/main.ts (type stripping)`, LOG_LEVEL=warn, one process, pg pool of 10 (PostgreSQL)',
  };
  const elapsed = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\n(total ${elapsed} s)`);
  if (process.env.BENCH_NO_DOC !== '1' && !ONLY) {
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), markdown(rows, meta));
    console.log('written: docs/benchmarks.md');
  }
}

function pgliteVersion(): string {
  try {
    const pkg = readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8');
    return (JSON.parse(pkg) as { version: string }).version;
  } catch {
    return '?';
  }
}

// Run when started as a script; other scripts (profiling experiments) may import the helpers.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main()
    .then(() => cleanup())
    .catch(async (err) => {
      console.error('\nbench failed:', err instanceof Error ? err.message : err);
      await cleanup();
      process.exitCode = 1;
    });
}
