// The bulk import's part of `npm run bench` (issue 27, point 8), or alone:
// `node --experimental-strip-types scripts/bench-import.ts` (BENCH_ONLY=server|embedded one engine,
// BENCH_IMPORT_LINES the number of user lines, default 100,000).
//
// On a fresh database of each engine, the service is started as `npm start` starts it; from this
// process, as a client would: a company is created, a CSV of BENCH_IMPORT_LINES user lines without
// password is checked (POST .../users/imports/check), then imported (POST .../users/imports) and
// its counters read (format=small) every 20 ms until it ends. Printed: lines per second (from the
// 202 to Terminated, the job's start included), the cost of a thousand lines over the first and the
// last fifth of the file and their ratio (a flat cost per line: at most 1.2), the service's resident
// memory before and at its highest, the check's lines per second against the import's, and the
// rate of a second import of BENCH_IMPORT_PASSWORD_LINES lines with a password (argon2, hashed
// beside the line work). The check and the import each start on a quiet machine (up to
// BENCH_QUIET_WAIT seconds for the check, IMPORT_QUIET_WAIT_S for the import, which in `npm run
// bench` follows the billing runs), and how busy the machine was just before is printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cleanup,
  createPgDatabase,
  login,
  startService,
  SUPERADMIN_EMAIL,
  SUPERADMIN_PASSWORD,
  type Child,
} from './service-process.ts';
import { busyText, waitForQuiet } from './machine-load.ts';

const M = '/api/svc/massprovisioning/v1.0';
export const IMPORT_TARGET_LINES_S = 20_000;
/** The longest wait for a quiet machine before the import (seconds). */
const IMPORT_QUIET_WAIT_S = 30;

export interface ImportBenchResult {
  engine: 'postgresql' | 'embedded';
  lines: number;
  linesPerSecond: number;
  firstThousandMs: number;
  lastThousandMs: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  checkLinesPerSecond: number;
  passwordLines: number;
  passwordLinesPerSecond: number;
  /** From the POST to its 202, and to the first lines reported. */
  acceptedMs: number;
  firstProgressMs: number;
  /** Share of all cores busy in the second before the check and before the import (%). */
  busyBeforeCheck: number | undefined;
  busyBeforeImport: number | undefined;
}

function csvOf(n: number, prefix: string, password = false): string {
  const head = password
    ? 'loginEmail;firstName;lastName;department;password'
    : 'loginEmail;firstName;lastName;department';
  const out = [head];
  for (let i = 1; i <= n; i++)
    out.push(
      `${prefix}-${i}@bench-import.example;First${i};Last${i};Dept ${i % 50}${password ? ';Bench-pass-1!' : ''}`,
    );
  return `${out.join('\n')}\n`;
}

interface Answer {
  data: {
    id: string;
    reqId: string;
    status: string;
    valid: number;
    counters: { total: number; failed: number };
  };
}

async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: string,
  type = 'application/json',
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': type } : {}) },
    body,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Answer;
}

/** Imports `csv` and follows its counters; answers the samples (ms since the 202, lines done) and the peak memory. */
async function follow(service: Child, token: string, companyId: string, csv: string) {
  const t0 = performance.now();
  const started = await call(service.base, token, 'POST', `${M}/users/imports?companyId=${companyId}`, csv, 'text/csv');
  const reqId: string = started.data.reqId;
  const acceptedMs = performance.now() - t0;
  const samples: { ms: number; total: number }[] = [];
  let peak = service.rssMb();
  for (;;) {
    const r = await call(service.base, token, 'GET', `${M}/users/imports/${reqId}/details?format=small`);
    const ms = performance.now() - t0;
    samples.push({ ms, total: r.data.counters.total });
    peak = Math.max(peak, service.rssMb());
    if (r.data.status === 'Terminated') {
      if (r.data.counters.failed) throw new Error(`${r.data.counters.failed} lines failed`);
      return { samples, peak, ms, acceptedMs };
    }
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** Milliseconds per thousand lines between the samples around `from` and `to` lines done. */
function costPerThousand(samples: { ms: number; total: number }[], from: number, to: number): number {
  const a = samples.find((s) => s.total >= from) ?? samples[0];
  const b = samples.find((s) => s.total >= to) ?? samples[samples.length - 1];
  return ((b.ms - a.ms) / Math.max(1, b.total - a.total)) * 1000;
}

export async function importBench(engine: 'postgresql' | 'embedded', lines: number, passwordLines: number) {
  let dbEnv: Record<string, string>;
  let dir: string | undefined;
  if (engine === 'postgresql') dbEnv = { DATABASE_URL: await createPgDatabase() };
  else {
    dir = mkdtempSync(join(tmpdir(), 'svc-bench-import-'));
    dbEnv = { DATA_DIR: dir };
  }
  const service = await startService(dbEnv);
  try {
    const token = await login(service.base, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
    const company = await call(
      service.base,
      token,
      'POST',
      '/api/svc/admin/v1.0/companies',
      JSON.stringify({ name: `Import bench ${Date.now()}` }),
    );
    const companyId: string = company.data.id;
    const csv = csvOf(lines, `u${Date.now()}`);
    const busyBeforeCheck = await waitForQuiet();
    const c0 = performance.now();
    const check = await call(
      service.base,
      token,
      'POST',
      `${M}/users/imports/check?companyId=${companyId}`,
      csv,
      'text/csv',
    );
    const checkMs = performance.now() - c0;
    if (check.data.valid !== lines) throw new Error(`the check found ${lines - check.data.valid} bad lines`);
    const rssBefore = service.rssMb();
    const busyBeforeImport = await waitForQuiet(IMPORT_QUIET_WAIT_S);
    const run = await follow(service, token, companyId, csv);
    // The counters move when a batch commits (IMPORT_BATCH_LINES, 4,000 by default, three in flight):
    // a tenth of 100,000 lines spans two or three commits, whose timing alone moved its cost by a
    // third or more between runs; a fifth spans five (docs/decisions.md, Performance, "No scan of
    // the users in an import's batch").
    const fifth = Math.floor(lines / 5);
    const pw = await follow(service, token, companyId, csvOf(passwordLines, `p${Date.now()}`, true));
    return {
      engine,
      lines,
      linesPerSecond: lines / (run.ms / 1000),
      firstThousandMs: costPerThousand(run.samples, 1, fifth),
      lastThousandMs: costPerThousand(run.samples, lines - fifth, lines),
      rssBeforeMb: rssBefore,
      rssPeakMb: run.peak,
      checkLinesPerSecond: lines / (checkMs / 1000),
      passwordLines,
      passwordLinesPerSecond: passwordLines / (pw.ms / 1000),
      acceptedMs: run.acceptedMs,
      firstProgressMs: run.samples.find((x) => x.total > 0)?.ms ?? Number.NaN,
      busyBeforeCheck,
      busyBeforeImport,
    } satisfies ImportBenchResult;
  } finally {
    await service.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

const f0 = (n: number) => Math.round(n).toLocaleString('en');

export function importBenchLines(r: ImportBenchResult): string[] {
  const ratio = r.lastThousandMs / r.firstThousandMs;
  return [
    `import (${r.engine}): ${f0(r.lines)} user lines without password in ${f0((r.lines / r.linesPerSecond) * 1000)} ms: ${f0(r.linesPerSecond)} lines/s (target >= ${f0(IMPORT_TARGET_LINES_S)} on PostgreSQL; machine ${busyText(r.busyBeforeImport)} busy before)`,
    `  answered 202 in ${f0(r.acceptedMs)} ms; first lines reported after ${f0(r.firstProgressMs)} ms`,
    `  cost of 1,000 lines: ${r.firstThousandMs.toFixed(1)} ms over the first fifth, ${r.lastThousandMs.toFixed(1)} ms over the last: x${ratio.toFixed(2)} (target <= 1.2)`,
    `  service memory: ${f0(r.rssBeforeMb)} MB before, ${f0(r.rssPeakMb)} MB at most: +${f0(r.rssPeakMb - r.rssBeforeMb)} MB (target < 200)`,
    `  check: ${f0(r.checkLinesPerSecond)} lines/s, x${(r.checkLinesPerSecond / r.linesPerSecond).toFixed(1)} the import (target >= 2; machine ${busyText(r.busyBeforeCheck)} busy before)`,
    `  ${f0(r.passwordLines)} lines with a password: ${f0(r.passwordLinesPerSecond)} lines/s`,
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const lines = Number(process.env.BENCH_IMPORT_LINES ?? 100_000);
  const pw = Number(process.env.BENCH_IMPORT_PASSWORD_LINES ?? 2_000);
  const only = process.env.BENCH_ONLY;
  const engines = (['postgresql', 'embedded'] as const).filter(
    (e) => !only || (only === 'server' ? e === 'postgresql' : e === 'embedded'),
  );
  try {
    for (const e of engines) for (const l of importBenchLines(await importBench(e, lines, pw))) console.log(l);
  } finally {
    await cleanup();
  }
}
