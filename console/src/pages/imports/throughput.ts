// An import's throughput while it runs (issue 28, point 6): the lines done per second between two
// answers of the status the progress page polls. Only the service's own counters are used; the
// times are the browser's, when each answer arrived, so that no clock of two machines is mixed.
import type { Schemas } from '../../api/client.ts';

export interface Sample {
  /** Seconds since the first answer watched. */
  second: number;
  /** Lines done per second since the previous answer. */
  rate: number;
  /** Lines done so far (the counters' total grows as batches commit). */
  done: number;
}

interface Observed {
  at: number;
  done: number;
  ended: boolean;
}

export interface Throughput {
  first: Observed | null;
  last: Observed | null;
  samples: Sample[];
}

export const NO_THROUGHPUT: Throughput = { first: null, last: null, samples: [] };

/**
 * The throughput with one more answer. The first answer only sets the origin (its lines were done
 * at an unknown pace); each later one adds the rate since the one before. An answer after the
 * import ended adds nothing more.
 */
export function observe(t: Throughput, s: Schemas['ImportSummary'], at: number): Throughput {
  const now: Observed = { at, done: s.counters.total, ended: s.status !== 'Pending' };
  if (!t.first || !t.last) return { first: now, last: now, samples: [] };
  if (at <= t.last.at || t.last.ended) return t;
  const rate = (now.done - t.last.done) / ((at - t.last.at) / 1000);
  const sample = { second: round1((at - t.first.at) / 1000), rate: round1(rate), done: now.done };
  return { first: t.first, last: now, samples: [...t.samples, sample] };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The average over the whole import from the service's own start and end times, in lines per second. */
export function averageRate(s: Schemas['ImportSummary']): number | null {
  if (!s.endTime) return null;
  const seconds = (Date.parse(s.endTime) - Date.parse(s.startTime)) / 1000;
  return seconds > 0 ? round1(s.counters.total / seconds) : null;
}
