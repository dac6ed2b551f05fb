// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, and
// the service's thread talks to it by messages (src/db/embedded-client.ts). PostgreSQL's work then
// runs beside the service's, on the other core, as a server's does, instead of inside the
// service's one thread (docs/decisions.md, The embedded database in a thread of its own).
//
// Every message is one call on the PGlite instance, answered in the order PGlite settles it;
// PGlite queues calls itself, and holds every call that is not part of an open transaction until
// that transaction ends, so the service may send calls without waiting for the earlier ones.
import { parentPort } from 'node:worker_threads';
import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { PGlite, types, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { EmbeddedOptions, Reply, Request } from './embedded-protocol.ts';
import { keepDrizzleTypesAsText, keepText, type TextTypes } from './embedded-text-types.ts';

const port = parentPort!;

/**
 * What opening costs before the data folder is known, done as soon as the thread starts (it may
 * be started before the service has read its settings: src/db/embedded-thread.ts): PGlite's
 * WebAssembly compiled and its file bundle read.
 */
const prepared = (async () => {
  const file = (name: string) => readFile(new URL(import.meta.resolve(`@electric-sql/pglite/${name}`)));
  const [wasm, data] = await Promise.all([file('pglite.wasm'), file('pglite.data')]);
  return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
})();

/**
 * docs/decisions.md, Bounds of images, sessions and client authentication, "bytea on the embedded database":
 * PGlite's own bytea serializer writes a parameter as hex text through an array of one string per byte (an 8
 * MB image took 3.8 s and some 300 MB), and its parser reads it back byte by byte. Handing it the bytes makes
 * its Bind send them in binary format (an 8 MB image in about 0.1 s); answers, which come as hex text, are
 * decoded by Node's native hex decoder. (They reach the service's thread as Uint8Array, which makes Buffers
 * of them again.)
 */
async function openDatabase(opts: EmbeddedOptions): Promise<PGlite> {
  const db = new PGlite({
    ...(await prepared),
    dataDir: opts.dataDir,
    // A file's dump is opened here: a Blob backed by a file does not cross to this thread.
    ...(opts.fromDump
      ? { loadDataDir: typeof opts.fromDump === 'string' ? await openAsBlob(opts.fromDump) : opts.fromDump }
      : {}),
    extensions: { pg_trgm },
    postgresqlconf: opts.postgresqlconf,
    serializers: {
      [types.BYTEA]: ((v: unknown) => (v instanceof Uint8Array ? v : String(v))) as unknown as (v: unknown) => string,
    },
    parsers: { [types.BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  });
  await db.waitReady;
  textTypes = keepDrizzleTypesAsText(db);
  return db;
}

/** Drizzle's text types, kept as text by the instance (src/db/embedded-text-types.ts); set once it is open. */
let textTypes: TextTypes;

/** The database, once the service has said which (its first message). */
let database: Promise<PGlite> = new Promise(() => undefined);
// (An opening that fails answers the open and every later call.)

/**
 * Open transactions by number: PGlite's transaction, the function that ends it (commit, or roll
 * back) and how it settles (its COMMIT, or its ROLLBACK).
 */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; settled: Promise<void> }>();
let lastTx = 0;
const listening = new Map<string, () => Promise<void>>();
const ROLLED_BACK = new Error('rolled back by the service');

/**
 * Identity parsers for the types the caller asked to receive as text that the instance does not
 * keep as text already (none of Drizzle's), made once per set of types.
 */
const parserSets = new Map<string, Record<number, (v: string) => string>>();
function rawParsers(oids: number[] | undefined): Record<number, (v: string) => string> | undefined {
  if (!oids?.length) return undefined;
  const key = oids.join(',');
  let set = parserSets.get(key);
  if (!set) parserSets.set(key, (set = Object.fromEntries(oids.map((oid) => [oid, keepText]))));
  return set;
}

function reply(r: Reply, transfer?: ArrayBuffer[]): void {
  port.postMessage(r, transfer ?? []);
}

/** An error as plain data: its message and every field PostgreSQL gave (code, constraint, detail...). */
function errorData(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const data: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [k, v] of Object.entries(err))
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) data[k] = v;
  return data;
}

const on = (id: number, work: Promise<unknown>) =>
  work.then(
    (value) => {
      if (value instanceof ArrayBuffer) reply({ id, ok: true, value }, [value]);
      else reply({ id, ok: true, value });
    },
    (err) => reply({ id, ok: false, error: errorData(err) }),
  );

function target(db: PGlite, tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return db;
  const t = open.get(tx);
  if (!t) throw new Error(`no open transaction ${tx}`);
  return t.tx;
}

/** Every call waits for the database; calls reach PGlite in the order they came. */
const withDb = <T>(id: number, work: (db: PGlite) => Promise<T> | T) => on(id, database.then(work));

port.on('message', (m: Request) => {
  switch (m.op) {
    case 'open':
      database = openDatabase(m.options);
      return void on(
        m.id,
        database.then(() => null),
      );
    case 'query':
      return void withDb(m.id, async (db) => {
        const parsers = rawParsers(textTypes.notKept(m.raw));
        const result = await target(db, m.tx).query(m.text, m.params, {
          ...(m.rowMode ? { rowMode: m.rowMode } : {}),
          ...(parsers ? { parsers } : {}),
        });
        return textTypes.parseUnasked(result, m.raw, m.rowMode ?? 'object');
      });
    case 'exec':
      return void withDb(m.id, async (db) =>
        (await target(db, m.tx).exec(m.text)).map((r) => textTypes.parseUnasked(r, undefined, 'object')),
      );
    case 'begin':
      return void database.then(
        (db) => {
          const n = ++lastTx;
          // The transaction is entered when PGlite runs this function: its number is answered then.
          const settled = db.transaction(
            (tx) =>
              new Promise<void>((resolve, reject) => {
                open.set(n, { tx, end: (commit) => (commit ? resolve() : reject(ROLLED_BACK)), settled });
                reply({ id: m.id, ok: true, value: n });
              }),
          );
          settled.finally(() => open.delete(n)).catch(() => undefined);
        },
        (err) => reply({ id: m.id, ok: false, error: errorData(err) }),
      );
    case 'end': {
      const t = open.get(m.tx);
      if (!t) return void reply({ id: m.id, ok: false, error: { message: `no open transaction ${m.tx}` } });
      t.end(m.commit);
      // The end's answer waits for the COMMIT (or ROLLBACK) itself.
      return void on(
        m.id,
        t.settled.then(
          () => null,
          (err) => {
            if (err === ROLLED_BACK) return null;
            throw err;
          },
        ),
      );
    }
    case 'listen':
      return void withDb(m.id, async (db) => {
        if (!listening.has(m.channel))
          listening.set(
            m.channel,
            await db.listen(m.channel, (payload) => port.postMessage({ notify: m.channel, payload })),
          );
        return null;
      });
    case 'unlisten':
      return void withDb(m.id, async () => {
        const stop = listening.get(m.channel);
        listening.delete(m.channel);
        await stop?.();
        return null;
      });
    case 'dump':
      return void withDb(m.id, async (db) => (await db.dumpDataDir('none')).arrayBuffer());
    case 'close':
      return void withDb(m.id, (db) => db.close());
  }
});
