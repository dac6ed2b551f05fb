// The job queue: work that runs after the answer. A small interface over pg-boss, which keeps its
// jobs in its own schema (`pgboss`) of the service's database: on a PostgreSQL server through its
// own small pool, on the embedded database through pg-boss's PGlite adapter (one session, shared
// with the service). The same SQL runs on both, so jobs behave the same on both.
import { sql } from 'drizzle-orm';
import { PgBoss, fromDrizzle, fromPglite, type Clock, type Job } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../db/client.ts';

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
  /** Seconds a job may run before it counts as failed and is retried (default 15 minutes). */
  expireInSeconds?: number;
  /** Seconds between looks for due jobs on this instance (default 2, at least 0.5). */
  pollingIntervalSeconds?: number;
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
  /** A cron schedule (5 fields, UTC unless tz): one job per period, however many instances run. */
  schedule(name: string, cron: string, data?: object, opts?: { tz?: string }): Promise<void>;
  unschedule(name: string): Promise<void>;
  cancel(name: string, id: string): Promise<void>;
  /** A job's state, or undefined when unknown or purged. */
  state(name: string, id: string): Promise<{ state: JobState; retryCount: number; output: unknown } | undefined>;
  start(): Promise<void>;
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
  handler: JobHandler<object>;
  opts: DefineOptions;
}

const toQueueOptions = (o: RetryOptions & { expireInSeconds?: number }) => ({
  ...(o.retryLimit !== undefined ? { retryLimit: o.retryLimit } : {}),
  ...(o.retryDelaySeconds !== undefined ? { retryDelay: o.retryDelaySeconds } : {}),
  ...(o.backoff !== undefined ? { retryBackoff: o.backoff } : {}),
  ...(o.retryDelayMaxSeconds !== undefined ? { retryDelayMax: o.retryDelayMaxSeconds } : {}),
  ...(o.expireInSeconds !== undefined ? { expireInSeconds: o.expireInSeconds } : {}),
});

export function createJobQueue(database: Database, opts: QueueOptions = {}): JobQueue {
  const conn = database.queueConnection;
  const boss = new PgBoss({
    ...('pglite' in conn ? { db: fromPglite(conn.pglite), backend: 'pglite' as const } : { connectionString: conn.connectionString, max: 3 }),
    schema: 'pgboss',
    ...(opts.clock ? { clock: opts.clock } : {}),
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

  /** pg-boss queues must exist before a job is sent; a job may be queued before any worker defines its kind. */
  async function ensureQueue(name: string, queueOpts: ReturnType<typeof toQueueOptions> = {}): Promise<void> {
    if (await boss.getQueue(name)) {
      if (Object.keys(queueOpts).length) await boss.updateQueue(name, queueOpts);
    } else {
      await boss.createQueue(name, queueOpts).catch(async (err) => {
        // Another instance created it meanwhile.
        if (!(await boss.getQueue(name))) throw err;
      });
    }
    known.add(name);
  }

  async function install(name: string, d: Definition): Promise<void> {
    await ensureQueue(name, toQueueOptions(d.opts));
    await boss.work<object>(name, { pollingIntervalSeconds: d.opts.pollingIntervalSeconds ?? 2, batchSize: 1 }, async (jobs: Job<object>[]) => {
      for (const job of jobs) {
        try {
          await d.handler(job.data, { id: job.id, name: job.name, retryCount: job.retryCount });
          counters.completed++;
        } catch (err) {
          counters.failed++;
          log?.warn({ err, job: { id: job.id, name: job.name, retryCount: job.retryCount } }, 'job attempt failed');
          throw err;
        }
      }
    });
  }

  return {
    counters,
    async define(name, handler, o = {}) {
      const d = { handler: handler as JobHandler<object>, opts: o };
      definitions.set(name, d);
      if (started) await install(name, d);
    },
    async enqueue(name, data, o = {}) {
      if (!known.has(name)) await ensureQueue(name);
      const startAfter = o.startAfter ?? (o.delaySeconds ? o.delaySeconds : undefined);
      const id = await boss.send(name, data, {
        ...toQueueOptions(o),
        ...(startAfter !== undefined ? { startAfter } : {}),
        ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}),
        ...(o.tx ? { db: fromDrizzle(o.tx as never, sql as never) } : {}),
      });
      if (!id && !o.singletonKey) throw new Error(`job ${name} was not queued`);
      return id ?? '';
    },
    async schedule(name, cron, data, o = {}) {
      if (!known.has(name)) await ensureQueue(name);
      await boss.schedule(name, cron, data ?? null, o.tz ? { tz: o.tz } : {});
    },
    async unschedule(name) {
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
    async start() {
      if (started) return;
      await boss.start();
      started = true;
      for (const [name, d] of definitions) await install(name, d);
    },
    async stop() {
      if (!started) return;
      started = false;
      // graceful: running handlers finish; close the pool only when pg-boss owns it.
      await boss.stop({ graceful: true, timeout: 10_000, close: !('pglite' in conn) });
    },
  };
}
