// The service's clock: every date the rules compute reads it (AppDeps.now). CLOCK_FIXED freezes it
// and CLOCK_OFFSET_SECONDS shifts it, so that a demonstration can show the end of a month, a
// renewal or a billing run on any day. The job queue's own timing (when a delayed job or a retry
// becomes due, when a cron fires) stays on real elapsed time: a frozen queue would never run.
import type { Config } from './config.ts';

export function serviceClock(
  config: Pick<Config, 'clockFixed' | 'clockOffsetSeconds'>,
  machine: () => number = Date.now,
): () => Date {
  if (config.clockFixed) {
    const fixed = config.clockFixed.getTime();
    return () => new Date(fixed);
  }
  const offset = config.clockOffsetSeconds * 1000;
  return () => new Date(machine() + offset);
}
