// One database handle for both engines: embedded PGlite (a folder, or memory) or a PostgreSQL
// server. Drizzle gives both the same query builder, so repositories never know which runs.
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { sqlLiterals } from './literal.ts';
import { pipelined } from './pipelined.ts';
import { EmbeddedClient } from './embedded-client.ts';
import { nameStatements, StatementNames } from './statement-names.ts';
import { SOURCE_ROOT } from '../shared/source-root.ts';
import { withWalFrom } from './dump-wal.ts';

export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT>;
/** What a repository function runs on: the database or an open transaction. */
export type Executor = Db | Tx;

export interface PreparedOptions {
  /**
   * How the statement is planned when its lookups are not by key. `generic`: its estimated cost
   * varies with its values (a list page: how many rows a filter matches) while one plan serves them
   * all: PostgreSQL would plan it again on every execution, so the plan it was prepared with is
   * forced. `per value`: the best plan depends on the values beyond how many rows they match (a
   * substring filter: a trigram index for a rare substring, the date range otherwise), so it is
   * planned for its values on every execution (plan_cache_mode=force_custom_plan). A lookup by key
   * needs neither: its generic plan costs what its per-value plans cost, and PostgreSQL settles on
   * it after five executions.
   */
  plan?: 'generic' | 'per value';
}

export interface Database {
  db: Db;
  kind: 'embedded' | 'server';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs a statement of the hot path. On a server it is a named prepared statement, planned once
   * per connection (the plan of a three-table join costs more than its execution) and reused for
   * every value: it must be a statement whose best plan does not depend on its values (lookups by
   * key, one index range), unless `opts.plan` is 'per value'. PGlite prepares it in its one session. `name` must identify `text`
   * uniquely.
   */
  prepared: <T>(name: string, text: string, params: unknown[], opts?: PreparedOptions) => Promise<T[]>;
  /**
   * For the metrics (the embedded database has one session, no pool): the general pool's
   * connections, and each pipelined client's connections and statements in flight.
   */
  poolStats?: () => {
    total: number;
    idle: number;
    waiting: number;
    pipelined: { connections: number; inFlight: number }[];
  };
  /** How the job queue (pg-boss) reaches the same database: its own small pool, or the one PGlite. */
  queueConnection: { connectionString: string } | { pglite: EmbeddedClient };
}

export const migrationsFolder = fileURLToPath(new URL('db/migrations', SOURCE_ROOT));

/**
 * `dataDir` undefined with no url gives an in-memory embedded database (tests). `fromDump` starts
 * an embedded database from a dump of another one (`dumpEmbedded`): a copy of its tables and
 * rows, without running initdb and the migrations again (about 2 s each time on this machine); a
 * path is the file of such a dump, which the database's thread reads (src/db/empty-database.ts).
 * With a `dataDir`, only a folder that holds no database yet may start from a dump.
 */
export function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  fromDump?: Blob | string;
  poolSize?: number;
  /** Connections of the hot lookups by key, and of each kind of list page (src/db/pipelined.ts). */
  lookupConnections?: number;
  listConnections?: number;
  connectTimeoutSeconds?: number;
  statementTimeoutSeconds?: number;
}): Database {
  if (opts.url) {
    // Bounded waits (docs/operations.md, Start and stop, "Database wait"): a server that does not complete a
    // connection in time fails it; a statement running past the limit (or waiting that long for a lock) is
    // cancelled by the server.
    const statementMs = (opts.statementTimeoutSeconds ?? 0) * 1000;
    const settings = {
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: (opts.connectTimeoutSeconds ?? 0) * 1000,
      ...(statementMs > 0 ? { statement_timeout: statementMs } : {}),
    };
    const pool = new pg.Pool(settings);
    // The statements of the hot path (`prepared`: the authorising statement, list pages) run on
    // sessions of their own that pipeline (src/db/pipelined.ts) and always reuse the plan a
    // statement was prepared with. Left to itself PostgreSQL plans such a statement again on every
    // execution while its generic plan looks costlier than the custom ones: for a list page that
    // planning was 0.2 to 0.3 ms of the server's CPU per request against 0.06 ms of execution
    // (docs/decisions.md, Performance). These statements look rows up by key or walk one index
    // whatever the values, so one plan serves all values. Other statements keep per-value plans:
    // their own pool.
    const hotOptions = {
      url: opts.url,
      connectTimeoutSeconds: opts.connectTimeoutSeconds ?? 0,
      statementTimeoutMs: statementMs,
    };
    const sessions = {
      // Lookups by key, every request's authorisation among them: short and alike, they pipeline
      // best on few connections (one on a 2-core machine: its writes and reads carry the most
      // statements each).
      lookup: pipelined({ ...hotOptions, connections: opts.lookupConnections ?? 1, plan: 'force_generic_plan' }),
      // List pages: some take milliseconds; on connections of their own, none waits behind
      // another request's authorisation, nor holds one up.
      generic: pipelined({ ...hotOptions, connections: opts.listConnections ?? 4, plan: 'force_generic_plan' }),
      // Planned for their values (PreparedOptions.plan 'per value').
      'per value': pipelined({ ...hotOptions, connections: opts.listConnections ?? 4, plan: 'force_custom_plan' }),
    };
    // Idle clients can error when the server restarts; without a listener that kills the process.
    pool.on('error', () => undefined);
    // Named statements on the general pool too (src/db/statement-names.ts); the pipelined
    // sessions name theirs themselves.
    const names = new StatementNames();
    pool.on('connect', (client) => nameStatements(client, names));
    const db = drizzlePg(pool) as unknown as Db;
    return {
      db,
      kind: 'server',
      async migrate() {
        // Several instances may start together: one migrates, the others wait for it.
        const client = await pool.connect();
        try {
          // Migrations may build indexes over large tables: no statement limit for them.
          await client.query('SET statement_timeout = 0');
          await client.query('SELECT pg_advisory_lock(727001)');
          await migratePg(drizzlePg(client), { migrationsFolder });
        } finally {
          await client.query('SELECT pg_advisory_unlock(727001)').catch(() => undefined);
          if (statementMs > 0) await client.query(`SET statement_timeout = ${statementMs}`).catch(() => undefined);
          client.release();
        }
      },
      close: async () => {
        await Promise.all([pool.end(), ...Object.values(sessions).map((p) => p.end())]);
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        pipelined: Object.values(sessions).map((p) => p.stats()),
      }),
      // (postgres.js names each statement once per connection from its text: `name` is not needed.)
      prepared: <T>(_name: string, text: string, params: unknown[], o?: PreparedOptions) =>
        sessions[o?.plan ?? 'lookup'].run<T>(text, params),
      queueConnection: { connectionString: opts.url },
    };
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  // pg_trgm: the trigram indexes of the name filters (migration 0003 creates the extension).
  // PGlite's memory is WebAssembly memory, never given back: shared buffers of 16 MB fit in its
  // initial 128 MB (PostgreSQL's default 128 MB would double the process); pages beyond them are
  // read from the data folder through the operating system's cache.
  // PGlite runs in a thread of its own (src/db/embedded-client.ts), with the extensions and the
  // bytea conversions of src/db/embedded-worker.ts.
  const client = new EmbeddedClient({
    dataDir: opts.dataDir,
    ...(opts.fromDump ? { fromDump: opts.fromDump } : {}),
    postgresqlconf: ['shared_buffers=16MB'],
  });
  const db = drizzlePglite(client as unknown as PGlite) as unknown as Db;
  return {
    db,
    kind: 'embedded',
    async migrate() {
      await migratePglite(drizzlePglite(client as unknown as PGlite), { migrationsFolder });
    },
    close: () => client.close(),
    prepared: embeddedPrepared(client),
    queueConnection: { pglite: client },
  };
}

/**
 * The whole embedded database as an uncompressed tarball, for `openDatabase({ fromDump })`, without
 * the WAL it does not need (src/db/dump-wal.ts): a new segment is begun and a checkpoint written in
 * it first.
 */
export async function dumpEmbedded(database: Database): Promise<Blob> {
  if (!('pglite' in database.queueConnection)) throw new Error('only an embedded database can be dumped');
  const pglite = database.queueConnection.pglite;
  await pglite.exec('SELECT pg_switch_wal(); CHECKPOINT;');
  const {
    rows: [at],
  } = await pglite.query<{ file_name: string; file_offset: number }>(
    'SELECT file_name, file_offset FROM pg_walfile_name_offset(pg_current_wal_insert_lsn())',
  );
  const tar = new Uint8Array(await (await pglite.dumpDataDir()).arrayBuffer());
  return new Blob([withWalFrom(tar, at.file_name, at.file_offset)]);
}

/**
 * PGlite has no named statements in its API, and planning is most of the cost of a hot
 * statement there. SQL-level PREPARE keeps the plan in its single session; EXECUTE takes no
 * bound parameters, so values go in as literals (src/db/literal.ts). A value no literal can
 * hold (a NUL byte) takes the plain, bound path, where PostgreSQL refuses it as bad input.
 */
function embeddedPrepared(client: EmbeddedClient) {
  const ready = new Map<string, Promise<unknown>>();
  return async <T>(name: string, text: string, params: unknown[], opts?: PreparedOptions): Promise<T[]> => {
    const literals = sqlLiterals(params);
    if (!literals) return (await client.query(text, params)).rows as T[];
    let prep = ready.get(name);
    if (!prep) {
      prep = client.exec(`PREPARE "${name}" AS ${text}`);
      ready.set(name, prep);
    }
    await prep;
    const args = literals.length ? `(${literals.join(', ')})` : '';
    // Lookups by key run as they are (two statements more cost each request about an eighth of
    // its CPU). Where the plan must be forced (a list page), the plan the statement was prepared
    // with, for every value, as the server's hot pool does; other statements of the session keep
    // per-value plans. One simple query: should EXECUTE fail, its implicit transaction rolls the
    // setting back as well.
    const forced = opts?.plan && { generic: 'force_generic_plan', 'per value': 'force_custom_plan' }[opts.plan];
    if (!forced) return (await client.exec(`EXECUTE "${name}"${args}`))[0].rows as T[];
    const results = await client.exec(
      `SET plan_cache_mode = ${forced}; EXECUTE "${name}"${args}; RESET plan_cache_mode`,
    );
    return results[1].rows as T[];
  };
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
