// The test command (`npm test`, or `npm test -- <files>`): the test files, by default every
// test/*.test.ts and test/*/*.test.ts, run by Node's test runner in a few processes that each run
// several files one after another (test/support/host.ts), TEST_CONCURRENCY processes at a time
// (default 2, the machine's cores). A process of its own per file cost each file some 1.5 s of
// CPU for Node's start and the service's modules, a quarter of the suite's CPU on a two-core
// machine (docs/decisions.md, Test runner).
//
// - Batches: the files by their last known time (test/support/file-weights.txt, refreshed from a
//   run's TEST_FILE_TIMES list), slowest first; a file of TEST_BATCH_SECONDS (default 30) or more
//   runs alone, the others are grouped up to that many seconds. The slowest start first, so that
//   no long file is left to run alone at the end.
// - Output: each process's spec report, whole, when it ends; then the failing tests of every
//   process under one `✖ failing tests:` heading, and the totals (`ℹ pass N`...) of all.
// - TEST_FILE_TIMES (default svc-admin-test-files.txt in the temporary folder): every file with
//   the time of its suite, slowest first.
// - It fails when a test fails, or when a process ends before every file of its batch reported.
import { spawn } from 'node:child_process';
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const WEIGHTS_FILE = 'test/support/file-weights.txt';
/** The time of a file the weights do not list (a new one): about a small file's. */
const UNKNOWN_SECONDS = 4;
const BATCH_SECONDS = Number(process.env.TEST_BATCH_SECONDS ?? 30);
const SLOTS = Math.max(1, Number(process.env.TEST_CONCURRENCY ?? 2));
const TIMES_FILE = process.env.TEST_FILE_TIMES ?? join(tmpdir(), 'svc-admin-test-files.txt');
const COUNTERS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'] as const;
const NODE_ARGS = [
  '--import',
  './test/support/preload.ts',
  '--experimental-strip-types',
  '--disable-warning=ExperimentalWarning',
  `--test-timeout=${process.env.TEST_TIMEOUT_MS ?? 180_000}`,
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
];

interface Batch {
  files: string[];
  seconds: number;
}

interface Outcome {
  counts: Record<(typeof COUNTERS)[number], number>;
  /** Seconds per file, from its suite's closing line. */
  times: Map<string, number>;
  failing: string[];
  ok: boolean;
}

/** The lines `   12.3 s  test/x.test.ts` of a TEST_FILE_TIMES list; other lines are ignored. */
function readTimes(file: string): Map<string, number> {
  const times = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return times;
  }
  for (const m of text.matchAll(/^\s*([\d.]+) s\s+(\S+)$/gm)) times.set(m[2], Number(m[1]));
  return times;
}

function batches(files: string[]): Batch[] {
  const weights = readTimes(WEIGHTS_FILE);
  const known = files
    .map((file) => ({ file, seconds: weights.get(file) ?? UNKNOWN_SECONDS }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const out: Batch[] = [];
  let open: Batch | undefined;
  for (const { file, seconds } of known) {
    if (seconds >= BATCH_SECONDS) {
      out.push({ files: [file], seconds });
      continue;
    }
    if (!open || open.seconds + seconds > BATCH_SECONDS) out.push((open = { files: [], seconds: 0 }));
    open.files.push(file);
    open.seconds += seconds;
  }
  return out;
}

/** The processes running: stopped with this one (a signal to it alone would leave them running). */
const running = new Set<ReturnType<typeof spawn>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(1);
  });

function run(batch: Batch): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...NODE_ARGS, 'test/support/host.ts', ...batch.files], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', (code, signal) => {
      running.delete(child);
      const text = Buffer.concat(chunks).toString('utf8');
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      const counts = Object.fromEntries(
        COUNTERS.map((k) => [k, Number([...text.matchAll(new RegExp(`^ℹ ${k} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0)]),
      ) as Outcome['counts'];
      const times = new Map<string, number>();
      for (const m of text.matchAll(/^[✔✖﹣] (test\/\S+\.test\.ts) \(([\d.]+)ms\)/gm))
        times.set(m[1], Number(m[2]) / 1000);
      const failing: string[] = [];
      const at = text.lastIndexOf('\n✖ failing tests:\n');
      if (at >= 0) failing.push(text.slice(at + '\n✖ failing tests:\n'.length).trim());
      // A file that fails to load fails its suite without failing a test.
      if (code !== 0 && counts.fail === 0) counts.fail = Math.max(1, text.match(/^✖ test\//gm)?.length ?? 0);
      const unreported = batch.files.filter((f) => !times.has(f));
      if (unreported.length > 0 || (code !== 0 && failing.length === 0)) {
        failing.push(
          `✖ the process of ${batch.files.join(', ')} ended (code ${code}, signal ${signal}) ` +
            `before ${unreported.length > 0 ? `reporting ${unreported.join(', ')}` : 'reporting a failure'}`,
        );
        counts.fail += unreported.length;
      }
      done({ counts, times, failing, ok: code === 0 && failing.length === 0 });
    });
  });
}

const started = Date.now();
const args = process.argv.slice(2);
const files = (args.length > 0 ? args : [...globSync('test/*.test.ts'), ...globSync('test/*/*.test.ts')]).map((f) =>
  relative(process.cwd(), f),
);
const queue = batches(files);
const outcomes: Outcome[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: SLOTS }, async () => {
    while (next < queue.length) outcomes.push(await run(queue[next++]));
  }),
);

const times = new Map(outcomes.flatMap((o) => [...o.times]));
const sorted = [...times].sort((a, b) => b[1] - a[1]);
const sum = sorted.reduce((n, [, s]) => n + s, 0);
writeFileSync(
  TIMES_FILE,
  `${sorted.length} files, ${sum.toFixed(0)} s of file suites in all\n` +
    sorted.map(([f, s]) => `${s.toFixed(1).padStart(7)} s  ${f}\n`).join(''),
);

const failing = outcomes.flatMap((o) => o.failing);
if (failing.length > 0) process.stdout.write(`\n✖ failing tests:\n\n${failing.join('\n\n')}\n`);
const total = Object.fromEntries(COUNTERS.map((k) => [k, outcomes.reduce((n, o) => n + o.counts[k], 0)]));
process.stdout.write(
  `\n${files.length} files in ${queue.length} processes, ${SLOTS} at a time\n` +
    COUNTERS.map((k) => `ℹ ${k} ${total[k]}\n`).join('') +
    `ℹ duration_ms ${Date.now() - started}\n`,
);
process.exitCode = outcomes.every((o) => o.ok) ? 0 : 1;
