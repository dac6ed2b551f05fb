// How busy the machine is, for the benchmarks (scripts/bench.ts, scripts/bench-import.ts). Other
// work on the machine (tests of other sessions, builds, the database server's own maintenance
// after the bench's loads) takes cores from the service and skews the figures: before each measure
// wait a little for a quiet machine, and record how busy it was.
import { readFileSync } from 'node:fs';

/** Below this share of all cores busy the machine counts as quiet (BENCH_QUIET_BELOW, %). */
export const QUIET_BELOW = Number(process.env.BENCH_QUIET_BELOW ?? 25);
/** How long a measure waits for a quiet machine (BENCH_QUIET_WAIT, seconds). */
export const QUIET_WAIT_S = Number(process.env.BENCH_QUIET_WAIT ?? 5);

function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - f[3] - f[4], total };
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

/** Waits up to `seconds` for the machine to be quiet; answers how busy it was in the last second. */
export async function waitForQuiet(seconds = QUIET_WAIT_S): Promise<number | undefined> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const busy = await machineBusy();
    if (busy === undefined || busy < QUIET_BELOW || Date.now() >= deadline) return busy;
  }
}

export function busyText(busy: number | undefined): string {
  return busy === undefined ? '?' : `${busy.toFixed(0)}%`;
}
