// The job queue: work that runs after the answer. A small interface over pg-boss, which keeps its
// jobs in its own schema (`pgboss`) of the service's database: on a PostgreSQL server through its
// own small pool, on the embedded database through pg-boss's PGlite adapter (one session, shared
// with the service). The same SQL runs on both, so jobs behave the same on both.
import {
  PgBoss,
  fromPglite,
  getConstructionPlans,
  getMigrationPlans,
  type Clock,
  type Job,
  type JobResult,
  type JobWithMetadata,
} from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client.ts';
import { sessionOf } from '../db/raw.ts';
import { field } from '../shared/json-values.ts';
import { isDeepStrictEqual } from 'node:util';

/** Retry behaviour of a kind of job (the queue's default; enqueue may override it per job). */
export interface RetryOptions {
  /** Retries after the first attempt before the job is `failed` (default 2). */
  retryLimit?: number;
  /** Seconds before a retry (default 0); with backoff, the first of an exponential series. */
  retryDelaySeconds?: number;
  backoff?: boolean;
  /** Upper bound of a backed-off delay. */
  retryDelayMaxSeconds?: number;
}

export interface DefineOptions extends RetryOptions {
  /**
   * Seconds an attempt may run before it counts as failed and is retried (default 15 minutes).
   * The handler's `job.signal` is aborted then, and the worker stops waiting for it.
   */
  expireInSeconds?: number;
  /** Seconds between looks for due jobs on this instance (default 2, at least 0.5). */
  pollingIntervalSeconds?: number;
  /**
   * Jobs of this kind run at once on this instance (default 1). Above 1 two workers take them in
   * batches of half that size, run each batch's jobs together and settle each job on its own, and
   * fetch again at once while batches come back full: a backlog is not worked one job per
   * polling interval. A batch ends when its last job does (a hung one: at its time limit).
   */
  concurrency?: number;
  /**
   * Called once a job has failed its last attempt, however it failed: an error, its time limit
   * (expireInSeconds), or its instance gone (another instance's supervisor fails it). Through
   * the dead-letter queue `<name>.gave-up`, so it runs even when the failing instance is gone;
   * retried like any job (at least once: make it idempotent).
   */
  onGiveUp?: (data: object, why: { reason: string; jobId: string }) => Promise<void>;
}

export interface EnqueueOptions extends RetryOptions {
  /** Run no earlier than this many seconds from now. */
  delaySeconds?: number;
  startAfter?: Date;
  /** At most one job with this key is waiting or running in the queue. */
  singletonKey?: string;
  /** The caller's transaction: the job exists only if it commits. */
  tx?: Executor;
}

export interface JobInfo {
  id: string;
  name: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Aborted when the attempt ran past its time limit (or the queue stops): its result can no longer land. */
  signal: AbortSignal;
}

/** The dead-letter queue of a kind of job that has an `onGiveUp`. */
export const giveUpQueue = (name: string) => `${name}.gave-up`;

/** The reason a failed job left in its output (an error serialised by pg-boss, or its own timeout message). */
function reasonOf(output: unknown): string {
  const m = field(output, 'message') ?? field(field(output, 'value'), 'message');
  return typeof m === 'string' && m ? m : 'the job failed without a message';
}

/** Settles with the handler, or rejects as soon as the signal aborts (the handler is abandoned). */
function untilAborted(work: Promise<void>, signal: AbortSignal): Promise<void> {
  const reason = () => (signal.reason instanceof Error ? signal.reason : new Error('the job was aborted'));
  if (signal.aborted) return Promise.reject(reason());
  return new Promise((resolve, reject) => {
    const stop = () => reject(reason());
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

/** Terminal states: every job ends in one of them (or is purged after its retention). */
export const TERMINAL_STATES = ['completed', 'failed', 'cancelled'] as const;
export const JOB_STATES = ['created', 'retry', 'active', ...TERMINAL_STATES] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobQueue {
  /** Declares a kind of job and works it on this instance. May be called before or after start. */
  define<T extends object>(name: string, handler: JobHandler<T>, opts?: DefineOptions): Promise<void>;
  enqueue<T extends object>(name: string, data: T, opts?: EnqueueOptions): Promise<string>;
  /**
   * Has this instance's workers of `name` look for jobs now rather than at their next poll: called
   * once a transaction that enqueued a job has committed (a job sent in a transaction is not
   * visible before), so that the work begins at once (an import: issue 27, point 8).
   */
  wake(name: string): void;
  /**
   * A cron schedule (5 fields, UTC unless tz): one job per period, however many instances run.
   * Asked before start, it is written when the queue starts.
   */
  schedule(name: string, cron: string, data?: object, opts?: { tz?: string }): Promise<void>;
  unschedule(name: string): Promise<void>;
  cancel(name: string, id: string): Promise<void>;
  /** A job's state, or undefined when unknown or purged. */
  state(name: string, id: string): Promise<{ state: JobState; retryCount: number; output: unknown } | undefined>;
  /**
   * Makes the queue of every kind defined so far, with its options, without starting the workers:
   * jobs sent before start (they wait for it) get their kind's retries and dead-letter queue. Only
   * where pg-boss's session is open before start (the embedded database) and schemaCurrent().
   */
  prepare(): Promise<void>;
  /** pg-boss's tables exist and need no migration (start makes or migrates them); embedded database only. */
  schemaCurrent(): Promise<boolean>;
  start(): Promise<void>;
  /** Stops the workers; a start still under way is waited for first. */
  stop(): Promise<void>;
  /** Started and not stopped (the readiness check). */
  running(): boolean;
  /** Counters of this instance since start. */
  counters: { completed: number; failed: number };
}

export interface QueueOptions {
  log?: FastifyBaseLogger;
  /** pg-boss's clock (tests pass its TestClock to move time by hand); default the machine's. */
  clock?: Clock;
}

interface Definition {
  /**
   * A handler of any job data: the data a job carries is whatever its kind's `enqueue` wrote, so the
   * handler's parameter is compared both ways (a method's), which `define<T>` relies on.
   */
  handler: { run(data: object, job: JobInfo): Promise<void> }['run'];
  opts: DefineOptions;
}

const toQueueOptions = (o: RetryOptions & { expireInSeconds?: number }) => ({
  ...(o.retryLimit !== undefined ? { retryLimit: o.retryLimit } : {}),
  ...(o.retryDelaySeconds !== undefined ? { retryDelay: o.retryDelaySeconds } : {}),
  ...(o.backoff !== undefined ? { retryBackoff: o.backoff } : {}),
  ...(o.retryDelayMaxSeconds !== undefined ? { retryDelayMax: o.retryDelayMaxSeconds } : {}),
  ...(o.expireInSeconds !== undefined ? { expireInSeconds: o.expireInSeconds } : {}),
});

const SCHEMA = 'pgboss';

/**
 * pg-boss's tables at its current version, as its first start makes them, in an embedded database
 * (the one `npm run build` makes, src/db/empty-database.ts: a first start then finds them current,
 * and its queue's workers start after listening, as a restart's do).
 */
export async function installQueueTables(database: Database): Promise<void> {
  const conn = database.queueConnection;
  if (!('pglite' in conn)) throw new Error('installQueueTables: for the embedded database');
  await fromPglite(conn.pglite).executeSql(getConstructionPlans(SCHEMA));
}

export function createJobQueue(database: Database, opts: QueueOptions = {}): JobQueue {
  const conn = database.queueConnection;
  const boss = new PgBoss({
    ...('pglite' in conn
      ? { db: fromPglite(conn.pglite), backend: 'pglite' as const }
      : { connectionString: conn.connectionString, max: 3 }),
    schema: SCHEMA,
    ...(opts.clock ? { clock: opts.clock } : {}),
    // No row in pg-boss's registry of instances (getInstances, for its own dashboards; nothing on
    // the job path reads it): registering, counting restarts and pruning at each start, then a
    // heartbeat every 30 s, were three transactions of the start (150 to 250 ms of an embedded
    // restart) and a write every half minute. The service reports its instances' work itself
    // (background counters, metrics).
    registerInstance: false,
    // Cron is looked at every few seconds, so a schedule fires close to its minute.
    cronMonitorIntervalSeconds: 5,
    cronWorkerIntervalSeconds: 5,
  });
  const log = opts.log;
  boss.on('error', (err) => log?.error({ err }, 'job queue error'));
  const definitions = new Map<string, Definition>();
  const counters = { completed: 0, failed: 0 };
  let started = false;

  const known = new Set<string>();
  /** This instance's pg-boss worker of each queue (wake). */
  const workerOf = new Map<string, string>();
  /**
   * The queues as this instance first found them (one read, then kept up to date with its own
   * changes): a restart updates only a queue whose options changed. Each update is a transaction
   * of its own, and updating every queue at every start cost the embedded database's restart a few
   * hundred milliseconds. A queue missing from it (another instance made it since) is read alone.
   */
  let queuesFound: Promise<Map<string, Record<string, unknown>>> | undefined;
  const asRecord = (q: object): Record<string, unknown> => Object.fromEntries(Object.entries(q));

  async function foundQueue(name: string): Promise<Record<string, unknown> | undefined> {
    queuesFound ??= boss.getQueues().then(
      (qs) => new Map(qs.map((q) => [q.name, asRecord(q)])),
      (err: unknown) => {
        queuesFound = undefined;
        throw err;
      },
    );
    const found = (await queuesFound).get(name);
    if (found) return found;
    const alone = await boss.getQueue(name);
    return alone ? asRecord(alone) : undefined;
  }

  /**
   * The schedules as this instance first found them, each used once: a restart leaves a schedule
   * that is already as asked alone. pg-boss's schedule() writes its row again (an upsert: a write
   * transaction on the embedded database's one session, five of them at each start) and parses the
   * expression first; a schedule asked again later, or changed, goes to pg-boss as before.
   */
  let schedulesFound: Promise<Map<string, { cron: string; timezone: string; data: unknown }>> | undefined;

  async function scheduledAlready(name: string, cron: string, data: unknown, tz: string): Promise<boolean> {
    schedulesFound ??= boss.getSchedules().then(
      (rows) =>
        new Map(rows.filter((r) => !r.key).map((r) => [r.name, { cron: r.cron, timezone: r.timezone, data: r.data }])),
      (err: unknown) => {
        schedulesFound = undefined;
        throw err;
      },
    );
    const found = await schedulesFound;
    const row = found.get(name);
    found.delete(name);
    return row !== undefined && row.cron === cron && row.timezone === tz && isDeepStrictEqual(row.data ?? null, data);
  }

  /** pg-boss queues must exist before a job is sent; a job may be queued before any worker defines its kind. */
  async function ensureQueue(
    name: string,
    queueOpts: ReturnType<typeof toQueueOptions> & { deadLetter?: string } = {},
  ): Promise<void> {
    const found = await foundQueue(name);
    if (found) {
      if (Object.entries(queueOpts).some(([k, v]) => found[k] !== v)) {
        await boss.updateQueue(name, queueOpts);
        Object.assign(found, queueOpts);
      }
    } else {
      await boss.createQueue(name, queueOpts).catch(async (err) => {
        // Another instance created it meanwhile.
        if (!(await boss.getQueue(name))) throw err;
      });
    }
    known.add(name);
  }

  /** The queue of a defined kind with its options, and its dead-letter queue first when it has one. */
  async function ensureDefined(name: string, d: Definition): Promise<void> {
    if (!d.opts.onGiveUp) return ensureQueue(name, toQueueOptions(d.opts));
    const dead = giveUpQueue(name);
    await ensureQueue(dead, { retryLimit: 5, retryDelay: 5, retryBackoff: true });
    await ensureQueue(name, { ...toQueueOptions(d.opts), deadLetter: dead });
  }

  async function install(name: string, d: Definition): Promise<void> {
    await ensureDefined(name, d);
    const onGiveUp = d.opts.onGiveUp;
    if (onGiveUp) {
      const dead = giveUpQueue(name);
      await boss.work(
        dead,
        { pollingIntervalSeconds: d.opts.pollingIntervalSeconds ?? 2, batchSize: 1, includeMetadata: true },
        async (jobs: JobWithMetadata<object>[]) => {
          for (const job of jobs)
            await onGiveUp(job.data, { reason: reasonOf(job.sourceOutput), jobId: job.sourceId ?? job.id });
        },
      );
    }
    // Past its time limit pg-boss fails the attempt and aborts the signal: the worker stops
    // waiting for a handler that hangs (a port that never answers), so it takes the next jobs.
    const attempt = async (job: Job<object>): Promise<void> => {
      try {
        await untilAborted(
          d.handler(job.data, { id: job.id, name: job.name, retryCount: job.retryCount, signal: job.signal }),
          job.signal,
        );
        counters.completed++;
      } catch (err) {
        counters.failed++;
        log?.warn({ err, job: { id: job.id, name: job.name, retryCount: job.retryCount } }, 'job attempt failed');
        throw err;
      }
    };
    const pollingIntervalSeconds = d.opts.pollingIntervalSeconds ?? 2;
    const concurrency = Math.max(1, Math.floor(d.opts.concurrency ?? 1));
    if (concurrency === 1) {
      const id = await boss.work<object>(
        name,
        { pollingIntervalSeconds, batchSize: 1 },
        async (jobs: Job<object>[]) => {
          for (const job of jobs) await attempt(job);
        },
      );
      workerOf.set(name, id);
      return;
    }
    // Two workers share the jobs at once, each taking batches of half of them: while one waits for
    // the slowest job of its batch, the other fetches and works (one worker alone left the queue
    // idle at the end of every batch: 150 synchronisations a second against 200 with two).
    const local = Math.min(2, concurrency);
    const id = await boss.work(
      name,
      {
        pollingIntervalSeconds,
        batchSize: Math.ceil(concurrency / local),
        localConcurrency: local,
        burstWhenBatchFull: true,
        perJobResults: true,
      },
      async (jobs: Job<object>[]) =>
        Promise.all(
          jobs.map(async (job): Promise<JobResult> => {
            try {
              await attempt(job);
              return { id: job.id, status: 'completed' };
            } catch (err) {
              return { id: job.id, status: 'failed', output: err instanceof Error ? err : { message: String(err) } };
            }
          }),
        ),
    );
    workerOf.set(name, id);
  }

  /** A kind's queue: with its definition's options when it is defined here. */
  async function ensureKnown(name: string): Promise<void> {
    const d = definitions.get(name);
    await (d ? ensureDefined(name, d) : ensureQueue(name));
  }

  async function applySchedule(name: string, cron: string, data: object | null, tz: string | undefined) {
    if (!known.has(name)) await ensureKnown(name);
    if (await scheduledAlready(name, cron, data, tz ?? 'UTC')) return;
    await boss.schedule(name, cron, data, tz ? { tz } : {});
  }
  /** Schedules asked before start, written by it in their order. */
  const pendingSchedules: Array<{ name: string; apply: () => Promise<void> }> = [];
  let starting: Promise<void> | undefined;

  return {
    counters,
    async define(name, handler, o = {}) {
      const d: Definition = { handler, opts: o };
      definitions.set(name, d);
      if (started) await install(name, d);
    },
    async enqueue(name, data, o = {}) {
      if (!known.has(name)) await ensureKnown(name);
      const startAfter = o.startAfter ?? (o.delaySeconds ? o.delaySeconds : undefined);
      const id = await boss.send(name, data, {
        ...toQueueOptions(o),
        ...(startAfter !== undefined ? { startAfter } : {}),
        ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}),
        // In the caller's transaction, on its session: pg-boss's own text and values, as they are
        // (its Drizzle adapter rebuilt each statement through Drizzle's query builder).
        ...(o.tx
          ? { db: { executeSql: (text: string, values?: unknown[]) => sessionOf(o.tx!).query(text, values ?? []) } }
          : {}),
      });
      if (!id && !o.singletonKey) throw new Error(`job ${name} was not queued`);
      return id ?? '';
    },
    wake(name) {
      const id = workerOf.get(name);
      if (id) boss.notifyWorker(id);
    },
    async schedule(name, cron, data, o = {}) {
      const apply = () => applySchedule(name, cron, data ?? null, o.tz);
      if (started) await apply();
      else pendingSchedules.push({ name, apply });
    },
    async unschedule(name) {
      for (let i = pendingSchedules.length - 1; i >= 0; i--)
        if (pendingSchedules[i].name === name) pendingSchedules.splice(i, 1);
      schedulesFound = undefined;
      await boss.unschedule(name);
    },
    async cancel(name, id) {
      await boss.cancel(name, id);
    },
    async state(name, id) {
      const [job] = await boss.findJobs(name, { id });
      if (!job) return undefined;
      return { state: job.state, retryCount: job.retryCount, output: job.output };
    },
    running: () => started,
    async schemaCurrent() {
      const version = await boss.schemaVersion().catch(() => null);
      if (version === null) return false;
      // pg-boss names no current version; it has a migration from every older one, and none from it.
      try {
        getMigrationPlans(SCHEMA, version);
        return false;
      } catch {
        return true;
      }
    },
    async prepare() {
      // Every defined kind known before the first request: an enqueue in a request's transaction
      // then never makes its queue beside it on the embedded database's one session.
      for (const [name, d] of definitions) await ensureDefined(name, d);
    },
    async start() {
      if (started) return;
      starting ??= (async () => {
        await boss.start();
        started = true;
        for (const [name, d] of definitions) await install(name, d);
        for (const s of pendingSchedules.splice(0)) await s.apply();
      })().finally(() => {
        starting = undefined;
      });
      await starting;
    },
    async stop() {
      if (starting) await starting.catch(() => undefined);
      if (!started) return;
      started = false;
      // graceful: running handlers finish; close the pool only when pg-boss owns it.
      await boss.stop({ graceful: true, timeout: 10_000, close: !('pglite' in conn) });
    },
  };
}
