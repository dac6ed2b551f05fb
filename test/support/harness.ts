// Builds the real application on a fresh real database for one test file: in-memory PGlite by
// default, a new database on the PostgreSQL server of TEST_DATABASE_URL when set (CI runs both).
import { after, before } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type BuildOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { dumpEmbedded, migrationsFolder, openDatabase, type Database, type Db } from '../../src/db/client.ts';
import { ensureSuperadmin, ensureSystemCompanies } from '../../src/bootstrap.ts';
import { loadServerKeys } from '../../src/shared/keys.ts';
import type { AppDeps } from '../../src/http/context.ts';
import { validateResponse } from './openapi-validator.ts';
import { documentOf, hashOfCode } from './document-cache.ts';
import { createBackground } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';

export const SUPERADMIN = { email: 'root@example.com', password: 'Root-pass-1' };

export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function testClock(start = new Date('2026-11-21T08:00:00.000Z')): TestClock {
  let t = start.getTime();
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}

/** A hash of every migration: the name of a migrated copy changes with any of them. */
function migrationsHash() {
  const hash = createHash('sha256');
  for (const dir of [migrationsFolder, join(migrationsFolder, 'meta')]) {
    for (const f of readdirSync(dir).sort())
      if (f.endsWith('.sql') || f.endsWith('.json')) hash.update(f).update(readFileSync(join(dir, f)));
  }
  return hash;
}

/**
 * The same on a PostgreSQL server: a database with every migration applied, made once per set of
 * migrations and kept on the server as a template, from which each test file's database is copied
 * (CREATE DATABASE … TEMPLATE, about 0.2 s) instead of running the migrations (1.4 to 1.8 s on
 * this machine while CI ran, for each of some 150 test processes; measured 2026-11-30). An advisory
 * lock lets one process make it while the others wait; a template is marked as one
 * (`datistemplate`) only once migrated, so one left half-made by a killed process is made again.
 * The seeded one (createTestApp's) is copied from it and seeded (seed()).
 */
const serverTemplates = new Map<string, Promise<string>>();
function migratedServerTemplate(url: string, seeded: boolean): Promise<string> {
  const base = `svc_test_template_${migrationsHash().digest('hex').slice(0, 16)}`;
  // The seeded one depends on the seeds' code too: its name holds a hash of src/.
  const name = seeded ? `${base}_seeded_${hashOfCode()}` : base;
  let made = serverTemplates.get(name);
  if (!made) {
    made = (async () => {
      const from = seeded ? await migratedServerTemplate(url, false) : undefined;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
        const found = await admin.query<{ done: boolean }>(
          'SELECT datistemplate AS done FROM pg_database WHERE datname = $1',
          [name],
        );
        if (found.rows[0]?.done) return name;
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.query(from ? `CREATE DATABASE ${name} TEMPLATE ${from}` : `CREATE DATABASE ${name}`);
        const database = openDatabase({ url: databaseUrl(url, name), poolSize: 2 });
        if (from) await seed(database.db);
        else await database.migrate();
        await database.close();
        await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
        return name;
      } finally {
        await admin.end(); // (which releases the lock)
      }
    })();
    serverTemplates.set(name, made);
  }
  return made;
}

/**
 * What createTestApp would write first in every database: the modules' seeds and the first
 * superadmin (argon2: some 0.1 s), some 0.3 to 0.5 s of CPU per test file, made once in the
 * seeded copies instead. createTestApp runs them again, as every start of the service does: on a
 * seeded database they only read.
 */
async function seed(db: Db): Promise<void> {
  await ensureSuperadmin(db, SUPERADMIN.email, SUPERADMIN.password, await ensureSystemCompanies(db));
}

function databaseUrl(server: string, name: string): string {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The embedded database with every migration applied, as a dump: made once per set of migrations
 * and kept in the temporary folder, so that each test file loads it (PGlite ready in about 1 s) instead of
 * running initdb and the migrations (about 2.5 s, for each of some 150 test files). The name
 * holds a hash of the migrations and of the PGlite version: any change makes a new one. The
 * seeded one (createTestApp's) is made from it, its name also holding a hash of src/ (seed()).
 */
async function migratedEmbedded(seeded: boolean): Promise<string> {
  const hash = migrationsHash();
  hash.update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  hash.update('without template databases, without spare WAL');
  // The seeded one depends on the seeds' code too: its name holds a hash of src/.
  const name = `svc-admin-test-db-${hash.digest('hex').slice(0, 16)}${seeded ? `-seeded-${hashOfCode()}` : ''}`;
  const file = join(tmpdir(), `${name}.tar`);
  if (!existsSync(file)) {
    const made = seeded ? openDatabase({ fromDump: await migratedEmbedded(false) }) : openDatabase({});
    if (seeded) await seed(made.db);
    else {
      await made.migrate();
      // template0 and template1 serve CREATE DATABASE only, which no test runs on the embedded
      // database. Without them the dump holds 28 MB instead of 43, and PGlite opens it in about a
      // second of CPU instead of 1.4 (measured 2026-11-30, for each test process).
      for (const statement of [
        "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')",
        'DROP DATABASE template0',
        'DROP DATABASE template1',
      ])
        await made.db.execute(sql.raw(statement));
    }
    await made.db.execute(sql.raw('CHECKPOINT'));
    const dump = await dumpEmbedded(made);
    await made.close();
    // Written aside then renamed: a test process starting meanwhile reads a whole file or none.
    const aside = `${file}.${process.pid}`;
    writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
    renameSync(aside, file);
    if (seeded) pruneSeededDumps(file);
  }
  // The database's thread opens the file itself: handing it the dump's bytes copied 28 MB into a
  // message for each database, some 0.5 s of this thread's CPU per test file (2026-12-02).
  return file;
}

/** The seeded dumps of other code (each change of src/ makes one), not written for an hour. */
function pruneSeededDumps(keep: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!/^svc-admin-test-db-.*-seeded-.*\.tar$/.test(name) || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { force: true });
    } catch {
      // (another process removed it first)
    }
  }
}

/**
 * A new database with every migration applied; `seeded`, also with the seeds and the first
 * superadmin (SUPERADMIN) that createTestApp writes.
 */
export async function freshDatabase(opts: { seeded?: boolean } = {}): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ fromDump: await migratedEmbedded(opts.seeded ?? false) });
  const from = await migratedServerTemplate(url, opts.seeded ?? false);
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${from}`);
  await admin.end();
  const database = openDatabase({ url: databaseUrl(url, name), poolSize: 5 });
  const close = database.close;
  database.close = async () => {
    await close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await c.end();
  };
  return database;
}

/**
 * A fresh migrated database for the test file that calls it (at its top level): opened before its
 * first test, closed after its last. Read `.database` inside the tests.
 */
export function databaseForFile(): { database: Database } {
  const held = {} as { database: Database };
  before(async () => {
    held.database = await freshDatabase();
    await held.database.migrate();
  });
  after(async () => {
    await held.database.close();
  });
  return held;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  db: Db;
  clock: TestClock;
  defaultCompanyId: string;
  /** app.inject, with every response checked against the documented schema of its operation. */
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  login(email: string, password: string): Promise<string>;
  superToken: string;
  close(): Promise<void>;
}

/**
 * `background: true` also starts the job queue, the event dispatcher (log transport unless the
 * config has XMPP settings) and the ports, as main.ts does, on deps.background; close() stops them.
 */
export async function createTestApp(
  opts: { config?: Partial<Config>; build?: BuildOptions; database?: Database; background?: boolean } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await freshDatabase({ seeded: true }));
  await database.migrate();
  const seeded = await ensureSystemCompanies(database.db);
  const { defaultCompanyId } = seeded;
  await ensureSuperadmin(database.db, SUPERADMIN.email, SUPERADMIN.password, seeded);
  const clock = testClock();
  // The general per-client limit is off unless a test turns it on: every request of a test comes
  // from the same address, and the matrix alone sends hundreds (test/http/request-limits.test.ts tests it).
  const config = { ...loadConfig({}), rateLimitMax: 0, ...opts.config };
  const deps: AppDeps = { database, config, keys: await loadServerKeys(database.db), now: clock.now };
  const app = await buildApp(deps, opts.build);
  if (opts.background) {
    deps.background = createBackground({
      app: deps,
      database,
      modules: MODULE_WORK,
      config,
      now: clock.now,
      countersEverySeconds: 0,
    });
    await deps.background.start();
  }
  const spec = documentOf(app, config);
  const inject = async (o: InjectOptions) => {
    const res = await app.inject(o);
    validateResponse(spec, String(o.method ?? 'GET'), String(o.url ?? o.path ?? '/'), res);
    return res;
  };
  const login = async (email: string, password: string) => {
    const res = await inject({
      method: 'GET',
      url: '/api/svc/authentication/v1.0/login',
      headers: { authorization: basic(email, password) },
    });
    if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json().token as string;
  };
  const superToken = await login(SUPERADMIN.email, SUPERADMIN.password);
  return {
    app,
    deps,
    db: database.db,
    clock,
    defaultCompanyId,
    inject,
    login,
    superToken,
    close: async () => {
      await app.close();
      await deps.background?.stop();
      await database.close();
    },
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
