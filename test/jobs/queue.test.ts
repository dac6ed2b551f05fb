// Issue 7, point 1: jobs on pg-boss behave the same on the embedded database and on a server
// (this file runs on both: PGlite by default, PostgreSQL with TEST_DATABASE_URL). Time is moved by
// hand with pg-boss's TestClock, which both the queue's timers and its SQL (job_now()) read.
import { describe, it } from 'node:test';
import { TestClock } from 'pg-boss';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import { createJobQueue, type JobQueue } from '../../src/jobs/queue.ts';
import { rowsOf } from '../../src/db/raw.ts';

const START = '2026-06-15T00:00:30.000Z';
const file = databaseForFile();

async function withQueue<T>(clock: TestClock, fn: (q: JobQueue) => Promise<T>): Promise<T> {
  const q = createJobQueue(file.database, { clock });
  await q.start();
  try {
    return await fn(q);
  } finally {
    await q.stop();
  }
}

/** Ticks the clock second by second until `done` holds (at most `maxSeconds`). */
async function tickUntil(clock: TestClock, done: () => boolean | Promise<boolean>, maxSeconds = 600): Promise<void> {
  for (let i = 0; i < maxSeconds && !(await done()); i++) await clock.tick(1000);
  if (!(await done())) throw new Error(`condition not reached within ${maxSeconds} s of clock time`);
}

describe('job queue', () => {
  it("a restart applies a definition's changed retry options and keeps unchanged queues as they are", async () => {
    const clock = new TestClock(START);
    const options = async () =>
      rowsOf<{ retryLimit: number; rowVersion: string }>(
        await file.database.db.execute(
          sql`SELECT retry_limit AS "retryLimit", xmin::text AS "rowVersion" FROM pgboss.queue WHERE name = 'restarted'`,
        ),
      )[0];
    await withQueue(clock, (q) => q.define('restarted', async () => undefined, { retryLimit: 2 }));
    const first = await options();
    expect(first?.retryLimit).toBe(2);
    // The same definition again: the queue is found as defined and not written (its row version stays).
    await withQueue(clock, (q) => q.define('restarted', async () => undefined, { retryLimit: 2 }));
    expect(await options()).toEqual(first);
    // A changed definition: its options are applied.
    await withQueue(clock, (q) => q.define('restarted', async () => undefined, { retryLimit: 4 }));
    expect((await options())?.retryLimit).toBe(4);
  });

  it('retries a failing job with exponential backoff, then completes it', async () => {
    const clock = new TestClock(START);
    const attempts: number[] = [];
    await withQueue(clock, async (q) => {
      await q.define(
        'flaky',
        async () => {
          attempts.push(clock.now());
          if (attempts.length < 3) throw new Error('not yet');
        },
        { retryLimit: 5, retryDelaySeconds: 10, backoff: true, pollingIntervalSeconds: 1 },
      );
      const id = await q.enqueue('flaky', { n: 1 });
      await tickUntil(clock, async () => (await q.state('flaky', id))?.state === 'completed');
      expect(attempts).toHaveLength(3);
      const [a, b, c] = attempts as [number, number, number];
      // Backoff: the first retry waits at least the delay, the second at least twice it
      // (a fixed delay would give 10 s both times).
      expect(b - a).toBeGreaterThanOrEqual(10_000);
      expect(c - b).toBeGreaterThanOrEqual(20_000);
    });
  });

  it('ends every job in a terminal state: completed, failed after its retries, cancelled', async () => {
    const clock = new TestClock(START);
    await withQueue(clock, async (q) => {
      let runs = 0;
      await q.define('ok', async () => undefined, { pollingIntervalSeconds: 1 });
      await q.define(
        'broken',
        async () => {
          runs++;
          throw new Error('always');
        },
        { retryLimit: 2, retryDelaySeconds: 1, pollingIntervalSeconds: 1 },
      );
      const ok = await q.enqueue('ok', {});
      const broken = await q.enqueue('broken', {});
      const later = await q.enqueue('ok', {}, { delaySeconds: 3600 });
      await q.cancel('ok', later);
      await tickUntil(
        clock,
        async () =>
          (await q.state('broken', broken))?.state === 'failed' && (await q.state('ok', ok))?.state === 'completed',
      );
      expect(runs).toBe(3); // the first attempt and two retries
      expect((await q.state('ok', later))?.state).toBe('cancelled');
      expect(q.counters.failed).toBe(3);
    });
  });

  it('issue 10, point 3: onGiveUp runs once a job failed its last attempt, by an error or by its time limit (the hung handler abandoned, its signal aborted)', async () => {
    const clock = new TestClock(START);
    const gaveUp: { data: object; reason: string }[] = [];
    const signals: AbortSignal[] = [];
    let hungAttempts = 0;
    await withQueue(clock, async (q) => {
      const onGiveUp = async (data: object, why: { reason: string }) => void gaveUp.push({ data, reason: why.reason });
      await q.define(
        'broken',
        async () => {
          throw new Error('the order system said no');
        },
        { retryLimit: 1, retryDelaySeconds: 1, pollingIntervalSeconds: 1, onGiveUp },
      );
      await q.define(
        'hung',
        async (_data, job) => {
          hungAttempts++;
          signals.push(job.signal);
          await new Promise(() => undefined); // never answers
        },
        { retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 2, pollingIntervalSeconds: 1, onGiveUp },
      );
      const broken = await q.enqueue('broken', { n: 'broken' });
      const hung = await q.enqueue('hung', { n: 'hung' });
      await tickUntil(clock, () => gaveUp.length === 2, 120);
      expect((await q.state('broken', broken))?.state).toBe('failed');
      expect((await q.state('hung', hung))?.state).toBe('failed');
      expect(hungAttempts).toBe(2);
      expect(signals.every((s) => s.aborted)).toBe(true);
      expect(gaveUp.find((g) => (g.data as { n: string }).n === 'broken')?.reason).toBe('the order system said no');
      expect(gaveUp.find((g) => (g.data as { n: string }).n === 'hung')?.reason).toMatch(/exceeded 2s/);
    });
  });

  it('issue 10, point 8: with concurrency, a backlog is worked several jobs at once and not one per polling interval; a failing job of a batch fails alone', async () => {
    const clock = new TestClock(START);
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await withQueue(clock, async (q) => {
      await q.define(
        'bulk',
        async (data: { n: number }) => {
          inFlight++;
          most = Math.max(most, inFlight);
          await new Promise((r) => setTimeout(r, 20));
          inFlight--;
          if (data.n === 7) throw new Error('job 7 fails');
          done.push(data.n);
        },
        { retryLimit: 0, pollingIntervalSeconds: 1, concurrency: 10 },
      );
      const ids = [];
      for (let n = 0; n < 30; n++) ids.push(await q.enqueue('bulk', { n }));
      // One job per polling interval would need 30 s of clock time; each second of it gives the handlers real time to run.
      for (let i = 0; i < 8 && done.length < 29; i++) {
        await clock.tick(1000);
        await new Promise((r) => setTimeout(r, 150));
      }
      expect(done).toHaveLength(29);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(10);
      expect((await q.state('bulk', ids[7]))?.state).toBe('failed');
      expect((await q.state('bulk', ids[8]))?.state).toBe('completed');
    });
  });

  it('does not run a delayed job before its time', async () => {
    const clock = new TestClock(START);
    await withQueue(clock, async (q) => {
      const ran: number[] = [];
      await q.define('delayed', async () => void ran.push(clock.now()), { pollingIntervalSeconds: 1 });
      const id = await q.enqueue('delayed', {}, { delaySeconds: 120 });
      await clock.tick(60_000);
      expect(ran).toHaveLength(0);
      await tickUntil(clock, async () => (await q.state('delayed', id))?.state === 'completed');
      expect(ran[0] - Date.parse(START)).toBeGreaterThanOrEqual(120_000);
    });
  });

  it('resumes jobs pending at a restart', async () => {
    const clock = new TestClock(START);
    // First life: jobs are queued, nothing works them, the instance stops.
    const ids = await withQueue(clock, async (q) =>
      [await q.enqueue('resume', { n: 1 }), await q.enqueue('resume', { n: 2 })].map(String),
    ).catch(async (err) => {
      throw err;
    });
    // Second life: a new queue on the same file.database works them.
    const seen: number[] = [];
    await withQueue(clock, async (q) => {
      await q.define<{ n: number }>('resume', async (d) => void seen.push(d.n), { pollingIntervalSeconds: 1 });
      await tickUntil(clock, async () =>
        (await Promise.all(ids.map((id) => q.state('resume', id)))).every((s) => s?.state === 'completed'),
      );
    });
    expect(seen.sort()).toEqual([1, 2]);
  });

  it('runs a cron schedule once per period across two instances', async () => {
    // A day after the other cases: pg-boss stamps its last cron pass in the file.database, and this
    // clock must not start behind a stamp left by another case's clock.
    const clock = new TestClock('2026-06-16T00:00:30.000Z');
    const runs: string[] = [];
    const a = createJobQueue(file.database, { clock });
    const b = createJobQueue(file.database, { clock });
    await a.start();
    await b.start();
    try {
      for (const q of [a, b]) {
        await q.define('tick', async (_d, job) => void runs.push(job.id), { pollingIntervalSeconds: 1 });
        await q.schedule('tick', '* * * * *');
      }
      // From 00:00:30 to 00:03:30: the occurrence of 00:00 (due when the schedule appears, within
      // its minute) and those of 00:01, 00:02 and 00:03: four, not eight.
      for (let i = 0; i < 180; i++) await clock.tick(1000);
      expect(runs.length).toBe(4);
      expect(new Set(runs).size).toBe(4);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a restart leaves a schedule already as asked alone, and applies a changed one', async () => {
    const clock = new TestClock('2026-06-17T00:00:30.000Z');
    const row = async () =>
      rowsOf<{ cron: string; timezone: string; rowVersion: string }>(
        await file.database.db.execute(
          sql`SELECT cron, timezone, xmin::text AS "rowVersion" FROM pgboss.schedule WHERE name = 'nightly'`,
        ),
      )[0];
    await withQueue(clock, (q) => q.schedule('nightly', '17 3 * * *', { a: 1 }));
    const first = await row();
    expect(first.cron).toBe('17 3 * * *');
    // The same schedule at the next start: its row is not written again.
    await withQueue(clock, (q) => q.schedule('nightly', '17 3 * * *', { a: 1 }));
    expect((await row()).rowVersion).toBe(first.rowVersion);
    // Another time, data or zone: written.
    await withQueue(clock, (q) => q.schedule('nightly', '18 3 * * *', { a: 1 }));
    expect((await row()).cron).toBe('18 3 * * *');
    const before = (await row()).rowVersion;
    await withQueue(clock, (q) => q.schedule('nightly', '18 3 * * *', { a: 2 }));
    expect((await row()).rowVersion).not.toBe(before);
    await withQueue(clock, (q) => q.schedule('nightly', '18 3 * * *', { a: 2 }, { tz: 'Europe/Paris' }));
    expect((await row()).timezone).toBe('Europe/Paris');
    // Asked twice by one instance, the second ask goes to pg-boss (the first reading serves once).
    await withQueue(clock, async (q) => {
      await q.schedule('nightly', '19 3 * * *', { a: 2 }, { tz: 'Europe/Paris' });
      await q.schedule('nightly', '20 3 * * *', { a: 2 }, { tz: 'Europe/Paris' });
    });
    expect((await row()).cron).toBe('20 3 * * *');
  });

  it(
    'before start (the embedded service starts the workers after listening): defined kinds have their queues and options, jobs sent wait for the workers, schedules are written at start; a stop waits for a start under way',
    {
      skip: process.env.TEST_DATABASE_URL
        ? "on a server pg-boss's connections open at start: the workers start first there"
        : false,
    },
    async () => {
      expect(await createJobQueue(file.database).schemaCurrent()).toBe(true);
      // The machine's clock: pg-boss attaches a TestClock at start, so a job sent before would be
      // stamped with the machine's time while the workers read the test's.
      const one = <T>(rows: unknown) => rowsOf<T>(rows)[0];
      const q = createJobQueue(file.database);
      const seen: number[] = [];
      await q.define<{ n: number }>('early', async (d) => void seen.push(d.n), {
        retryLimit: 7,
        pollingIntervalSeconds: 1,
      });
      await q.schedule('early-cron', '17 4 * * *');
      await q.prepare();
      expect(q.running()).toBe(false);
      const queueRow = one<{ retryLimit: number }>(
        await file.database.db.execute(sql`SELECT retry_limit AS "retryLimit" FROM pgboss.queue WHERE name = 'early'`),
      );
      expect(queueRow?.retryLimit).toBe(7);
      const id = await q.enqueue('early', { n: 1 });
      const jobRow = one<{ retryLimit: number }>(
        await file.database.db.execute(sql`SELECT retry_limit AS "retryLimit" FROM pgboss.job WHERE id = ${id}`),
      );
      expect(jobRow?.retryLimit).toBe(7);
      const schedules = async () =>
        one<{ n: number }>(
          await file.database.db.execute(sql`SELECT count(*)::int AS n FROM pgboss.schedule WHERE name = 'early-cron'`),
        )?.n;
      expect(await schedules()).toBe(0);
      await q.start();
      try {
        expect(q.running()).toBe(true);
        expect(await schedules()).toBe(1);
        for (let i = 0; i < 100 && (await q.state('early', id))?.state !== 'completed'; i++)
          await new Promise((r) => setTimeout(r, 100));
        expect(seen).toEqual([1]);
      } finally {
        await q.stop();
      }
      // A stop asked while the start is under way waits for it, and leaves the queue stopped.
      const other = createJobQueue(file.database);
      const starting = other.start();
      await other.stop();
      await starting;
      expect(other.running()).toBe(false);
    },
  );

  it('queues a job only when the transaction that enqueued it commits', async () => {
    const clock = new TestClock(START);
    await withQueue(clock, async (q) => {
      await q.define('tx', async () => undefined, { pollingIntervalSeconds: 1 });
      let rolledBackId = '';
      await file.database.db
        .transaction(async (tx) => {
          rolledBackId = await q.enqueue('tx', { n: 1 }, { tx });
          tx.rollback();
        })
        .catch(() => undefined);
      const committed = await file.database.db.transaction(async (tx) => q.enqueue('tx', { n: 2 }, { tx }));
      expect(rolledBackId).not.toBe('');
      expect(await q.state('tx', rolledBackId)).toBeUndefined();
      expect((await q.state('tx', committed))?.state).toBeDefined();
      const rows = await file.database.db.execute(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'tx'`);
      expect((rows as { rows: { n: number }[] }).rows[0].n).toBe(1);
    });
  });

  it('a woken worker takes a committed job at once, without waiting for its next poll (issue 27, point 8)', async () => {
    // The machine's clock (a TestClock's time reaches only pg-boss's own sessions on a server, not
    // the transaction's): the worker's next poll is 60 s away, past the end of this test.
    const q = createJobQueue(file.database);
    await q.start();
    try {
      const ran: number[] = [];
      await q.define('woken', async (d: { n: number }) => void ran.push(d.n), { pollingIntervalSeconds: 60 });
      const settle = () => new Promise((r) => setTimeout(r, 1000));
      await settle(); // the worker's first fetch, on an empty queue
      await file.database.db.transaction(async (tx) => q.enqueue('woken', { n: 1 }, { tx }));
      await settle();
      expect(ran).toEqual([]); // not woken: it waits for its next poll, 60 s of the clock away
      q.wake('woken');
      for (let i = 0; i < 50 && ran.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(ran).toEqual([1]);
    } finally {
      await q.stop();
    }
  });
});
