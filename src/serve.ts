// The service: config -> database (embedded or server) -> migrate -> first-start data -> background -> http.
// Every setting is checked before anything is opened; a wrong one ends the start with one line
// and exit code 2; SIGTERM and SIGINT drain and exit 0 (docs/operations.md, Start and stop).
import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { transportProblem } from './transport.ts';
import { openDatabase, ping, type Database } from './db/client.ts';
import { DataDirLocked, lockDataDir } from './db/data-lock.ts';
import { buildApp } from './app.ts';
import { loadServerKeys } from './shared/keys.ts';
import { ensureSuperadmin, ensureSystemCompanies } from './bootstrap.ts';
import { MODULE_WORK, superadminPasswordDiffers } from './modules/index.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import type { AppDeps } from './http/context.ts';
import { serviceClock } from './clock.ts';
import { createBackground } from './background.ts';
import { startMetricsServer } from './http/metrics.ts';
import { BUNDLED } from './shared/source-root.ts';
import { errorMessage } from './shared/json-values.ts';

/** A start that cannot go on, for a reason the operator can fix: one line, no stack trace. */
class StartFailure extends Error {}

function settings(): Config {
  const config = loadConfig();
  const problem = transportProblem(config);
  if (problem) throw new ConfigError('HOST', problem);
  return config;
}

/** Opens and migrates the database within DATABASE_CONNECT_TIMEOUT_SECONDS. */
async function openWithin(config: Config): Promise<Database> {
  const database = openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutSeconds: config.databaseConnectTimeoutSeconds,
    statementTimeoutSeconds: config.databaseStatementTimeoutSeconds,
  });
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
  await database.migrate();
  return database;
}

async function main(): Promise<void> {
  const config = settings();
  const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  process.on('exit', release);
  const database = await openWithin(config);
  const seeded = await ensureSystemCompanies(database.db);
  const first = await ensureSuperadmin(database.db, config.superadminEmail, config.superadminPassword, seeded);
  const now = serviceClock(config);
  const deps: AppDeps = { database, config, keys: await loadServerKeys(database.db), now };
  const https = config.tlsCertFile
    ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile!) }
    : undefined;
  const app = await buildApp(deps, { logger: { level: config.logLevel }, https });
  if (first?.generatedPassword) {
    // Printed once, on the console only (not through the logger), so it never lands in log files.
    process.stdout.write(
      `\nFirst superadmin created: ${first.email}\nGenerated password (shown once): ${first.generatedPassword}\n\n`,
    );
  } else if (
    !first &&
    config.superadminPassword &&
    (await superadminPasswordDiffers(database.db, config.superadminEmail!, config.superadminPassword))
  ) {
    app.log.warn(
      `SUPERADMIN_PASSWORD differs from the password of ${config.superadminEmail}: it applies at first start only. To change that password: npm run reset-superadmin-password (with SUPERADMIN_EMAIL and SUPERADMIN_PASSWORD set; on the embedded database, with the service stopped)`,
    );
  }
  // Jobs, events over XMPP and the ports; started before listening, stopped after the HTTP side.
  deps.background = createBackground({
    database,
    modules: MODULE_WORK,
    config,
    now,
    log: app.log.child({ component: 'background' }),
  });
  await deps.background.start();
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
