// npm run reset-superadmin-password: sets the password of the superadmin SUPERADMIN_EMAIL to
// SUPERADMIN_PASSWORD, or to a generated one printed once (docs/operations.md, The first superadmin). It works with the
// service down; on the embedded database it must be (the data folder's lock refuses otherwise),
// on a server it may run beside the service.
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { DataDirLocked, lockDataDir } from '../src/db/data-lock.ts';
import { generatePassword, resetSuperadminPassword } from '../src/modules/index.ts';

try {
  const config = loadConfig();
  const release = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  const database = openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    connectTimeoutSeconds: config.databaseConnectTimeoutSeconds,
  });
  await database.migrate();
  const email = config.superadminEmail!;
  const password = config.superadminPassword ?? generatePassword();
  const done = await resetSuperadminPassword(database.db, email, password);
  await database.close();
  release();
  if (!done) {
    process.stderr.write(`svc-admin: no superadmin has the login ${email} (set SUPERADMIN_EMAIL)\n`);
    process.exit(1);
  }
  process.stdout.write(
    config.superadminPassword
      ? `The password of ${email} is now SUPERADMIN_PASSWORD.\n`
      : `The password of ${email} is now (shown once): ${password}\n`,
  );
} catch (err) {
  if (err instanceof ConfigError || err instanceof DataDirLocked) {
    process.stderr.write(`svc-admin: ${err.message}\n`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  }
  throw err;
}
