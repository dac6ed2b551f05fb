// Issue 24, point 4 (a first start in under five seconds): the first start of an empty data folder
// unpacks the database `npm run build` made (initdb and every migration, src/db/empty-database.ts)
// instead of running initdb and the migrations again. What it must keep: the database so started
// is the migrated one, a folder that already holds a database is never overwritten, and a
// database made for other migrations is never used. Embedded only.
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { migrationsFolder, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/raw.ts';
import { emptyDatabaseFile, emptyDatabaseFor, makeEmptyDatabase } from '../../src/db/empty-database.ts';
import { createJobQueue } from '../../src/jobs/queue.ts';

const embedded = !process.env.TEST_DATABASE_URL;
let root: string;
let build: string;

before(async () => {
  if (!embedded) return;
  root = mkdtempSync(join(tmpdir(), 'svc-empty-db-'));
  build = join(root, 'build');
  await makeEmptyDatabase(build);
});
after(() => {
  if (embedded) rmSync(root, { recursive: true, force: true });
});

const migrations = () => readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql')).length;

describe('first start from the made database', { skip: !embedded && 'embedded database only' }, () => {
  it('an empty data folder starts from it: every migration already applied, migrate() has nothing left to do', async () => {
    const dataDir = join(root, 'data');
    const from = emptyDatabaseFor(dataDir, build);
    expect(from).toBe(emptyDatabaseFile(build));
    const database = openDatabase({ dataDir, fromDump: from });
    try {
      const applied = async () =>
        rowsOf<{ n: number }>(
          await database.db.execute(sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`),
        )[0].n;
      expect(await applied()).toBe(migrations());
      await database.migrate();
      expect(await applied()).toBe(migrations());
      // pg-boss's tables are there at its current version: the first start's job queue need not
      // make them before listening (src/serve.ts).
      expect(await createJobQueue(database).schemaCurrent()).toBe(true);
      // The service's own tables are there, in the data folder.
      await database.db.execute(sql`INSERT INTO service_settings (key, value) VALUES ('k', 'v')`);
    } finally {
      await database.close();
    }
    // The folder now holds a database: a later start opens it, it never unpacks over it.
    expect(emptyDatabaseFor(dataDir, build)).toBeUndefined();
    const again = openDatabase({ dataDir });
    try {
      const rows = rowsOf(await again.db.execute(sql`SELECT value FROM service_settings WHERE key = 'k'`));
      expect(rows).toEqual([{ value: 'v' }]);
    } finally {
      await again.close();
    }
  });

  it('a database made for other migrations is not used (initdb and the migrations run as before)', () => {
    const file = emptyDatabaseFile(build);
    const other = join(build, 'empty-database-0000000000000000.tar');
    renameSync(file, other);
    try {
      expect(emptyDatabaseFor(join(root, 'other-data'), build)).toBeUndefined();
    } finally {
      renameSync(other, file);
    }
  });
});
