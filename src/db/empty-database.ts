// The embedded database as a first start makes it, made once by `npm run build` (and so by
// `npm ci`): PostgreSQL's initdb, every migration and pg-boss's tables, kept as a tarball beside
// the bundle. A first start on an empty data folder unpacks it instead of running initdb, the
// migrations and pg-boss's install again (docs/decisions.md, Performance, "First start from a made
// database", "The job queue's workers after the first requests"). Its name holds a hash of the
// migrations and of the PGlite and pg-boss versions: a start whose migrations or packages differ
// finds none and makes the database itself, as it always could.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_ROOT } from '../shared/source-root.ts';
import { dumpEmbedded, migrationsFolder, openDatabase } from './client.ts';
import { installQueueTables } from '../jobs/queue.ts';

/** Beside the bundle (src/bundle.ts, BUILD_DIR). */
const BUILD_DIR = fileURLToPath(new URL('../.build/', SOURCE_ROOT));

/** The file of the made database for the current migrations and PGlite. */
export function emptyDatabaseFile(dir = BUILD_DIR): string {
  const hash = createHash('sha256');
  for (const folder of [migrationsFolder, join(migrationsFolder, 'meta')]) {
    for (const f of readdirSync(folder).sort())
      if (f.endsWith('.sql') || f.endsWith('.json')) hash.update(f).update(readFileSync(join(folder, f)));
  }
  for (const pkg of ['@electric-sql/pglite', 'pg-boss'])
    hash.update(readFileSync(new URL(`../node_modules/${pkg}/package.json`, SOURCE_ROOT)));
  hash.update('without spare WAL'); // the dump's form (src/db/dump-wal.ts): older files are made again
  return join(dir, `empty-database-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Makes the file of emptyDatabaseFile (an in-memory database, migrated, then dumped). */
export async function makeEmptyDatabase(dir = BUILD_DIR): Promise<string> {
  const file = emptyDatabaseFile(dir);
  const made = openDatabase({});
  try {
    await made.migrate();
    await installQueueTables(made);
    const dump = await dumpEmbedded(made);
    mkdirSync(dir, { recursive: true });
    // Written aside then renamed: a start meanwhile reads a whole file or none.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
    renameSync(aside, file);
  } finally {
    await made.close();
  }
  return file;
}

/**
 * What an embedded database in `dataDir` starts from: the made database when the folder holds no
 * database yet and one was made for these migrations (the path of its file); otherwise nothing (initdb, or the database
 * already there).
 */
export function emptyDatabaseFor(dataDir: string, dir = BUILD_DIR): string | undefined {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return undefined;
  const file = emptyDatabaseFile(dir);
  return existsSync(file) ? file : undefined;
}
