// The service: config -> database (embedded or server) -> migrate -> first-start data -> background -> http.
// Every setting is checked before anything is opened; a wrong one ends the start with one line
// and exit code 2; SIGTERM and SIGINT drain and exit 0 (docs/operations.md, Start and stop).
import { logDestination } from './http/log-destination.ts';
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { transportProblem } from './transport.ts';
import { openDatabase, ping, type Database } from './db/client.ts';
import { DataDirLocked, lockDataDir } from './db/data-lock.ts';
import { emptyDatabaseFor } from './db/empty-database.ts';
import { buildApp } from './app.ts';
import { loadServerKeys, type ServerKeys } from './shared/keys.ts';
import { ensureSuperadmin, ensureSystemCompanies } from './bootstrap.ts';
import { MODULE_WORK, superadminPasswordDiffers } from './modules/index.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import type { AppDeps } from './http/context.ts';
import type { FastifyBaseLogger } from 'fastify';
import { serviceClock } from './clock.ts';
import { createBackground } from './background.ts';
import { startMetricsServer } from './http/metrics.ts';
import { BUNDLED } from './shared/source-root.ts';
import { errorMessage } from './shared/json-values.ts';
import { startMemoryTrim } from './memory-trim.ts';

/**
 * Milliseconds since the process began at each step of the start, logged at debug level once
 * listening (LOG_LEVEL=debug): where a slow start spends its time.
 */
const startSteps: Record<string, number> = {};
function step(name: string): void {
  startSteps[name] = Math.round(performance.now());
}

/** A start that cannot go on, for a reason the operator can fix: one line, no stack trace. */
class StartFailure extends Error {}

function settings(): Config {
  const config = loadConfig();
  const problem = transportProblem(config);
  if (problem) throw new ConfigError('HOST', problem);
  return config;
}

/** The database of the settings; nothing is reached yet (the embedded one starts opening in its thread). */
function databaseOf(config: Config): Database {
  return openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    // An empty data folder starts from the database `npm run build` made (src/db/empty-database.ts).
    fromDump: config.databaseUrl ? undefined : emptyDatabaseFor(config.dataDir),
    connectTimeoutSeconds: config.databaseConnectTimeoutSeconds,
    statementTimeoutSeconds: config.databaseStatementTimeoutSeconds,
    lookupConnections: config.databaseLookupConnections,
    listConnections: config.databaseListConnections,
  });
}

/** Reaches and migrates the database, a server within DATABASE_CONNECT_TIMEOUT_SECONDS. */
async function migrateWithin(config: Config, database: Database): Promise<void> {
  // Only a server can leave the start waiting: the embedded database is local work (its first
  // start initialises the folder, which takes longer on a loaded machine, and is never cut short).
  if (!config.databaseUrl) {
    await ping(database.db);
  } else {
    const where = `the database server of DATABASE_URL (${new URL(config.databaseUrl).host})`;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new StartFailure(
              `${where} did not answer within ${config.databaseConnectTimeoutSeconds} s (DATABASE_CONNECT_TIMEOUT_SECONDS)`,
            ),
          ),
        config.databaseConnectTimeoutSeconds * 1000,
      );
    });
    try {
      await Promise.race([ping(database.db), deadline]);
    } catch (err) {
      if (err instanceof StartFailure) throw err;
      throw new StartFailure(`${where} cannot be reached: ${errorMessage(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }
  step('database reached');
  await database.migrate();
}

/** The database made ready: migrated, each module's first-start data, the first superadmin, the server's keys. */
async function prepareData(config: Config, database: Database) {
  await migrateWithin(config, database);
  step('migrated');
  const seeded = await ensureSystemCompanies(database.db);
  step('first-start data');
  const first = await ensureSuperadmin(database.db, config.superadminEmail, config.superadminPassword, seeded);
  return { first, keys: await loadServerKeys(database.db) };
}

/**
 * How long after listening the job queue's workers and schedules start on the embedded database
 * (docs/decisions.md, Performance, "The job queue's workers after the first requests"): pg-boss's
 * start is some twenty statements, which on the database's one session held up the first logins of
 * a restart. Jobs sent meanwhile wait in their queues; GET /ready names the queue until it runs.
 */
const QUEUE_START_AFTER_MS = 1000;

/** How long after listening a changed SUPERADMIN_PASSWORD is looked for. */
const PASSWORD_CHECK_DELAY_MS = 1000;

/**
 * A changed SUPERADMIN_PASSWORD is only warned about (it applies at first start). Its check
 * verifies a password hash (argon2, a core's work for some 50 ms on libuv's threads): run during
 * the start, it took that core from the database's thread and from the first logins, so it runs
 * a second after listening, and says at debug level that it ran.
 */
function warnIfSuperadminPasswordDiffers(config: Config, database: Database, log: FastifyBaseLogger): void {
  const email = config.superadminEmail!;
  const check = async () => {
    if (await superadminPasswordDiffers(database.db, email, config.superadminPassword!))
      log.warn(
        `SUPERADMIN_PASSWORD differs from the password of ${email}: it applies at first start only. To change that password: npm run reset-superadmin-password (with SUPERADMIN_EMAIL and SUPERADMIN_PASSWORD set; on the embedded database, with the service stopped)`,
      );
    else log.debug(`SUPERADMIN_PASSWORD is the password of ${email}`);
  };
  setTimeout(
    () => void check().catch((err: unknown) => log.debug({ err }, 'SUPERADMIN_PASSWORD could not be checked')),
    PASSWORD_CHECK_DELAY_MS,
  ).unref();
}

async function main(): Promise<void> {
  step('service loaded');
  const config = settings();
  const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  process.on('exit', release);
  step('settings checked');
  const database = databaseOf(config);
  const now = serviceClock(config);
  const loaded: { keys?: ServerKeys } = {};
  const deps: AppDeps = {
    database,
    config,
    now,
    // Read by requests and jobs only, which come after the keys are loaded (below, before listening).
    get keys(): ServerKeys {
      if (!loaded.keys) throw new Error('the server keys are not loaded yet');
      return loaded.keys;
    },
  };
  const https = config.tlsCertFile
    ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile!) }
    : undefined;
  // The routes are built (CPU of this thread) while the database opens, migrates and seeds (work of
  // the embedded database's thread, or of the server): building them reads nothing from it.
  const [data, app] = await Promise.all([
    prepareData(config, database),
    buildApp(deps, { logger: { level: config.logLevel, stream: logDestination() }, https }),
  ]);
  loaded.keys = data.keys;
  const first = data.first;
  step('routes built');
  if (first?.generatedPassword) {
    // Printed once, on the console only (not through the logger), so it never lands in log files.
    process.stdout.write(
      `\nFirst superadmin created: ${first.email}\nGenerated password (shown once): ${first.generatedPassword}\n\n`,
    );
  }
  // Jobs, events over XMPP and the ports; opened before listening (the job queue's workers a
  // moment after: QUEUE_START_AFTER_MS), stopped after the HTTP side.
  deps.background = createBackground({
    app: deps,
    database,
    modules: MODULE_WORK,
    config,
    now,
    log: app.log.child({ component: 'background' }),
  });
  const background = deps.background;
  // On the embedded database, whose one session also serves the requests, the workers wait.
  await background.open({ queueLater: database.kind === 'embedded' });
  step('background opened');
  if (config.clockFixed || config.clockOffsetSeconds)
    app.log.warn(
      { now: now().toISOString() },
      "the service clock is not the machine's (CLOCK_FIXED / CLOCK_OFFSET_SECONDS)",
    );
  await purgeIdempotencyKeys(deps);
  const purge = setInterval(() => void purgeIdempotencyKeys(deps).catch(() => undefined), 3600_000);
  purge.unref();
  const metrics = config.metrics.enabled && config.metrics.port ? await startMetricsServer(config, deps) : undefined;

  let closing = false;
  let queueStart: NodeJS.Timeout | undefined;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(
      { signal, graceSeconds: config.shutdownGraceSeconds },
      'stopping: no new requests; those in flight may finish',
    );
    // Past the grace period the process exits anyway: jobs and events left mid-way are resumed
    // by the next start (pg-boss retries an expired job; the outbox resends what was not acknowledged).
    const force = setTimeout(() => {
      app.log.warn('grace period over: exiting with requests still in flight');
      process.exit(0);
    }, config.shutdownGraceSeconds * 1000);
    force.unref();
    clearTimeout(queueStart);
    try {
      await app.close();
      metrics?.close();
      await deps.background?.stop();
      await database.close();
    } catch (err) {
      app.log.error({ err }, 'error while stopping');
    }
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  step('listening');
  if (!background.queue.running())
    queueStart = setTimeout(() => {
      background.startQueue().then(
        () => app.log.debug({ afterMs: Math.round(performance.now()) }, 'job queue started'),
        (err: unknown) => {
          // As a failed start before listening did: the process ends, and its supervisor starts it again.
          app.log.fatal({ err }, 'the job queue did not start');
          process.exit(1);
        },
      );
    }, QUEUE_START_AFTER_MS);
  if (!first && config.superadminPassword) warnIfSuperadminPasswordDiffers(config, database, app.log);
  // The start's freed compiler memory, then what requests free, handed back (src/memory-trim.ts).
  if (config.memoryTrimSeconds > 0) startMemoryTrim({ firstMs: 2000, everyMs: config.memoryTrimSeconds * 1000 });
  app.log.debug({ startSteps }, 'start: milliseconds since the process began');
  app.log.info(
    `svc-admin on ${https ? 'https' : 'http'}://${config.host}:${config.port} (${database.kind} database, ${BUNDLED ? 'bundled' : 'from the sources'})`,
  );
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof StartFailure || err instanceof DataDirLocked) {
    process.stderr.write(`svc-admin: ${err.message}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  }
  console.error('svc-admin failed to start:', err);
  process.exit(1);
});
