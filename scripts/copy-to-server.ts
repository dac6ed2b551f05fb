// npm run copy-to-server: copies the embedded database (DATA_DIR) into the PostgreSQL server of
// DATABASE_URL, for moving a deployment from the embedded database to a server (docs/operations.md).
// The service must be stopped (the data folder's lock refuses otherwise). The server's database
// must be empty of the service's data: it gets the same migrations first, then every table of
// the service is copied row for row, in one transaction (all or nothing), and the row counts of
// both sides are compared. The job queue's own tables are not copied: pg-boss makes them at the
// next start, and the subscriptions' synchronisations still pending are re-sent by the service's
// own retry (superadmin retry-sync) rather than replayed from another queue.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { DataDirLocked, lockDataDir } from '../src/db/data-lock.ts';

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;
const BATCH = 2000;

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl)
    throw new ConfigError(
      'DATABASE_URL',
      'DATABASE_URL is not set: expected the server to copy the embedded database of DATA_DIR into',
    );
  const release = lockDataDir(config.dataDir);
  const source = openDatabase({ dataDir: config.dataDir });
  await source.migrate(); // the folder's schema at this code's version, as the service would
  const target = openDatabase({ url: config.databaseUrl, connectTimeoutSeconds: config.databaseConnectTimeoutSeconds });
  await target.migrate();
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    const tables = rowsOf<{ name: string }>(
      await source.db.execute(
        sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
      ),
    ).map((t) => t.name);
    const counts = new Map<string, number>();
    await client.query('BEGIN');
    // Rows go in table by table, whatever their foreign keys: the constraints are checked at
    // the end of the transaction (superuser) or the copy stops with the server's message.
    await client.query("SET LOCAL session_replication_role = 'replica'").catch(() => {
      throw new Error('the copy needs a role that may set session_replication_role (the database owner as superuser)');
    });
    for (const table of tables) {
      const [{ n: existing }] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))
        .rows as [{ n: number }];
      // Seeds a start may have written (system companies, templates, the default offer) give way to the copied rows.
      if (existing > 0) await client.query(`DELETE FROM "${table}"`);
      let copied = 0;
      for (let offset = 0; ; offset += BATCH) {
        const batch = rowsOf<{ rows: unknown[] | null }>(
          await source.db.execute(
            sql.raw(
              `SELECT json_agg(t) AS rows FROM (SELECT * FROM "${table}" ORDER BY ctid LIMIT ${BATCH} OFFSET ${offset}) t`,
            ),
          ),
        )[0]?.rows;
        if (!batch || batch.length === 0) break;
        // OVERRIDING SYSTEM VALUE: identity columns (port_records.position) keep the copied values.
        await client.query(
          `INSERT INTO "${table}" OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::"${table}", $1::json)`,
          [JSON.stringify(batch)],
        );
        copied += batch.length;
      }
      counts.set(table, copied);
    }
    // Identity sequences start after the copied values, so that new rows follow them.
    const identities = (
      await client.query<{ t: string; c: string }>(
        `SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'`,
      )
    ).rows;
    for (const { t, c } of identities) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('"${t}"', '${c}'), coalesce((SELECT max("${c}") FROM "${t}"), 0) + 1, false)`,
      );
    }
    for (const [table, n] of counts) {
      const [{ n: there }] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`)).rows as [
        { n: number },
      ];
      if (there !== n) throw new Error(`table ${table}: ${n} rows read, ${there} on the server`);
    }
    await client.query('COMMIT');
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(
      `copied ${total} rows of ${counts.size} tables from ${config.dataDir} to ${new URL(config.databaseUrl).host}; start the service with DATABASE_URL set\n`,
    );
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
    await target.close();
    await source.close();
    release();
  }
}

main().catch((err) => {
  process.stderr.write(
    `svc-admin: ${err instanceof ConfigError || err instanceof DataDirLocked ? err.message : `the copy failed, nothing was written: ${(err as Error).message}`}\n`,
  );
  process.exit(err instanceof ConfigError ? 2 : 1);
});
