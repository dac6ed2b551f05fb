// The service: config -> database (embedded or server) -> migrate -> first-start data -> background -> http.
import { readFileSync } from 'node:fs';
import { loadConfig } from './config.ts';
import { transportProblem } from './transport.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { loadServerKeys } from './shared/keys.ts';
import { ensureSuperadmin, ensureSystemCompanies } from './bootstrap.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import type { AppDeps } from './http/context.ts';
import { serviceClock } from './clock.ts';
import { createBackground } from './background.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const problem = transportProblem(config);
  if (problem) {
  console.error(`svc-admin: ${problem}`);
    process.exit(2);
  }
  const database = openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const seeded = await ensureSystemCompanies(database.db);
  const first = await ensureSuperadmin(database.db, config.superadminEmail, config.superadminPassword, seeded);
  if (first?.generatedPassword) {
    // Printed once, on the console only (not through the logger), so it never lands in log files.
    process.stdout.write(`\nFirst superadmin created: ${first.email}\nGenerated password (shown once): ${first.generatedPassword}\n\n`);
  }
  const now = serviceClock(config);
  const deps: AppDeps = { database, config, keys: await loadServerKeys(database.db), now };
  const https = config.tlsCertFile ? { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile!) } : undefined;
  const app = await buildApp(deps, { logger: { level: config.logLevel }, https });
  // Jobs, events over XMPP and the ports; started before listening, stopped after the HTTP side.
  deps.background = createBackground({ database, config, now, log: app.log.child({ component: 'background' }) });
  await deps.background.start();
  if (config.clockFixed || config.clockOffsetSeconds) app.log.warn({ now: now().toISOString() }, 'the service clock is not the machine\'s (CLOCK_FIXED / CLOCK_OFFSET_SECONDS)');
  await purgeIdempotencyKeys(deps);
  const purge = setInterval(() => void purgeIdempotencyKeys(deps).catch(() => undefined), 3600_000);
  purge.unref();
  const close = async () => {
    await app.close();
    await deps.background?.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close());
  process.on('SIGTERM', () => void close());
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`svc-admin on ${https ? 'https' : 'http'}://${config.host}:${config.port} (${database.kind} database)`);
}

main().catch((err) => {
  console.error('svc-admin failed to start:', err);
  process.exit(1);
});
