// The background work of one instance: the job queue, the XMPP transport and the event
// dispatcher, plus the external systems' ports. main.ts starts it before listening and stops it
// on close; tests build it the same way.
import type { AppDeps } from './http/context.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from 'pg-boss';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { backgroundCounts } from './jobs/counts.ts';
import { createDispatcher, type Dispatcher } from './events/dispatcher.ts';
import { createComponentTransport } from './xmpp/component.ts';
import { createLogTransport } from './xmpp/log-transport.ts';
import type { XmppPresence, XmppTransport } from './xmpp/transport.ts';
import type { GatewaySimulator } from './xmpp/gateway-simulator.ts';
import { noXmppAccounts, prosodyctlAccounts, type XmppAccounts } from './xmpp/accounts.ts';
import { createPorts, type Ports } from './ports/ports.ts';
import { applyServiceSettings } from './xmpp/settings.ts';
import { sql } from 'drizzle-orm';

export interface Background {
  instanceId: string;
  queue: JobQueue;
  xmpp: XmppTransport;
  dispatcher: Dispatcher;
  ports: Ports;
  /** How the embedded gateway simulator answers (used only without XMPP settings); changeable at run time. */
  gatewaySimulator: GatewaySimulator;
  /** The accounts the service owns on the XMPP server (XMPP_ACCOUNTS). */
  xmppAccounts: XmppAccounts;
  /** open() then startQueue(): everything at once (tests, tools). */
  start(): Promise<void>;
  /**
   * Everything, but with `queueLater` the job queue's workers where they may wait (the embedded
   * database, pg-boss's tables current): the kinds of job defined and their queues made (jobs sent
   * meanwhile wait for the workers), XMPP and the event dispatcher started.
   */
  open(opts?: { queueLater?: boolean }): Promise<void>;
  /** The job queue's workers and schedules (src/serve.ts starts them after listening). */
  startQueue(): Promise<void>;
  /** Stops what runs, waiting for a start still under way. */
  stop(): Promise<void>;
}

/** What a module's background work is given: the background of the instance that runs it. */
export interface JobDeps {
  db: Db;
  queue: JobQueue;
  ports: Ports;
  config: Config;
  now: () => Date;
  log?: FastifyBaseLogger;
  /** The application's dependencies, for a job that runs operations' commands for a caller (src/http/run-command.ts). */
  app?: AppDeps;
}

/**
 * The modules' background work, handed in by the server (src/serve.ts, from src/modules/index.ts):
 * the background knows no module, so nothing here imports the modules and their operations.
 */
export interface ModuleWork {
  /** Defines every module's kinds of job (and schedules) on the queue, once it runs. */
  jobs(deps: JobDeps): Promise<void>;
  /** A presence sent to the service's XMPP address. */
  presence(presence: XmppPresence, deps: JobDeps): Promise<void>;
  /** The instance's XMPP connection opened. */
  xmppOnline(deps: JobDeps & { xmpp: XmppTransport }): Promise<void>;
}

export interface BackgroundOptions {
  database: Database;
  modules: ModuleWork;
  config: Config;
  now: () => Date;
  log?: FastifyBaseLogger;
  /** The application whose commands jobs may run (an import's lines: src/http/run-command.ts). */
  app?: AppDeps;
  /** The queue's clock (tests: pg-boss's TestClock). */
  queueClock?: Clock;
  /** Seconds between the counters' log lines (0: none). */
  countersEverySeconds?: number;
}

export function createBackground(o: BackgroundOptions): Background {
  const instanceId = `i-${randomBytes(6).toString('hex')}`;
  const { config, database, log } = o;
  const x = config.xmpp;
  const gatewaySimulator: GatewaySimulator = { mode: x.gatewaySimulator, delayMs: x.gatewaySimulatorDelayMs };
  const xmpp =
    x.componentUrl && x.componentDomain && x.componentSecret
      ? createComponentTransport({
          service: x.componentUrl,
          domain: x.componentDomain,
          secret: x.componentSecret,
          database,
          instanceId,
          log,
          requestTimeoutMs: x.requestTimeoutMs,
        })
      : createLogTransport(log, gatewaySimulator, x.requestTimeoutMs);
  const queue = createJobQueue(database, { log, clock: o.queueClock });
  const dispatcher = createDispatcher({ database, transport: xmpp, instanceId, log, pollMs: config.outboxPollMs });
  const ports = createPorts({ database, config, now: o.now });
  // Presences sent to the service (a telephone system's gateway logging in and out) go to the modules.
  const moduleDeps = { db: database.db, queue, ports, config, now: o.now, log, app: o.app };
  xmpp.onPresence((presence) => o.modules.presence(presence, moduleDeps));
  xmpp.onOnline(() => o.modules.xmppOnline({ ...moduleDeps, xmpp }));
  let countersTimer: NodeJS.Timeout | undefined;

  async function housekeeping(): Promise<void> {
    // Delivered events and answered requests are kept a week for the listings, then dropped.
    await database.db.execute(sql`DELETE FROM outbox WHERE delivered_at < now() - interval '7 days'`);
    await database.db.execute(
      sql`DELETE FROM xmpp_requests WHERE state IN ('result', 'error', 'timeout') AND created_at < now() - interval '7 days'`,
    );
  }

  async function open(opts: { queueLater?: boolean } = {}): Promise<void> {
    await applyServiceSettings(database.db, config);
    await queue.define('background.housekeeping', housekeeping, { retryLimit: 3, retryDelaySeconds: 60 });
    // The workers start first unless they may wait: pg-boss's start makes or migrates its tables, and
    // the modules' jobs may send jobs at once (pending imports resumed).
    const later = opts.queueLater === true && (await queue.schemaCurrent());
    if (!later) await queue.start();
    // The modules' kinds of job; schedules asked before the start are written by it.
    await o.modules.jobs(moduleDeps);
    await queue.schedule('background.housekeeping', '17 3 * * *');
    if (later) await queue.prepare();
    await xmpp.start();
    dispatcher.start();
    const every = o.countersEverySeconds ?? 60;
    if (every > 0 && log) {
      countersTimer = setInterval(() => {
        void backgroundCounts(database.db)
          .then((counts) =>
            log.info(
              {
                background: {
                  ...counts,
                  instance: {
                    jobsCompleted: queue.counters.completed,
                    jobAttemptsFailed: queue.counters.failed,
                    eventsDelivered: dispatcher.counters.delivered,
                    deliveryAttemptsFailed: dispatcher.counters.failedAttempts,
                    xmppConnected: xmpp.connected(),
                  },
                },
              },
              'background counters',
            ),
          )
          .catch(() => undefined);
      }, every * 1000);
      countersTimer.unref();
    }
  }

  return {
    instanceId,
    queue,
    xmpp,
    dispatcher,
    ports,
    gatewaySimulator,
    xmppAccounts: x.accounts === 'prosodyctl' ? prosodyctlAccounts(x.prosodyctlConfig) : noXmppAccounts,
    async start() {
      await open();
      await queue.start();
    },
    startQueue: () => queue.start(),
    open,
    async stop() {
      if (countersTimer) clearInterval(countersTimer);
      await dispatcher.stop();
      await xmpp.stop();
      await queue.stop();
    },
  };
}
