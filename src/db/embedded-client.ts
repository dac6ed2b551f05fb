// The embedded database seen from the service's thread: the part of PGlite's interface that
// Drizzle, pg-boss and the service use (query, exec, transaction, listen, dump, close), each call a
// message to the database's own thread (src/db/embedded-worker.ts).
//
// Why a thread: PGlite runs PostgreSQL inside the calling thread. In the service's one thread,
// every statement's planning and execution (about three quarters of a simple read's CPU) took
// turns with the HTTP work; in a thread of its own it runs on the other core, beside the service,
// as a PostgreSQL server's backends do (docs/decisions.md, The embedded database in a thread of
// its own).
import { Worker } from 'node:worker_threads';
import type { Results, Transaction } from '@electric-sql/pglite';
import type { EmbeddedOptions, Notification, Reply, Request } from './embedded-protocol.ts';
import { BUNDLED } from '../shared/source-root.ts';
import { takeEmbeddedThread } from './embedded-thread.ts';

type QueryOptions = {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId?: number) => unknown>;
};
type Call = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The error of a failed call, with PostgreSQL's fields (code, constraint, detail...) as PGlite gives them. */
export class EmbeddedDatabaseError extends Error {
  [field: string]: unknown;
  constructor(data: Record<string, unknown>) {
    super(String(data.message));
    Object.assign(this, data);
  }
}

const BYTEA = 17;
const SAMPLE = '2026-01-01 00:00:00';

/**
 * The types a caller wants as PostgreSQL's text: Drizzle asks that of dates, timestamps and
 * intervals with parsers that return the text as it is. Only those cross the thread (a function
 * cannot); any other parser is refused, so that nothing is parsed otherwise than asked.
 */
function rawTypes(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  return Object.entries(parsers).map(([oid, parse]) => {
    if (parse(SAMPLE, Number(oid)) !== SAMPLE)
      throw new Error(`only parsers that keep the text may cross to the embedded database (type ${oid})`);
    return Number(oid);
  });
}

/** bytea values arrive as Uint8Array: the service reads them as Buffers, as PGlite in its thread gave them. */
function withBuffers<T>(r: Results<T>): Results<T> {
  const fields = r.fields ?? [];
  if (!fields.some((f) => f.dataTypeID === BYTEA)) return r;
  for (const [i, f] of fields.entries()) {
    if (f.dataTypeID !== BYTEA) continue;
    for (const row of r.rows as unknown[]) {
      const rec = row as Record<string | number, unknown>;
      const key = Array.isArray(row) ? i : f.name;
      const v = rec[key];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) rec[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    }
  }
  return r;
}

/**
 * The parameters as they cross to the database's thread, and the memory that crosses with them.
 * A message copies the whole ArrayBuffer under a Uint8Array, not only its view: a chunk of an image
 * (a subarray of the upload) would carry the whole upload each time, and a small Buffer Node's
 * shared pool. Such a view is copied to memory of its own, which is then moved, not copied again.
 */
function crossing(params: unknown[] | undefined): { params: unknown[] | undefined; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  if (!params?.some((p) => p instanceof Uint8Array)) return { params, transfer };
  const sent = params.map((p) => {
    if (!(p instanceof Uint8Array) || p.byteLength === p.buffer.byteLength) return p;
    const own = new Uint8Array(p);
    transfer.push(own.buffer);
    return own;
  });
  return { params: sent, transfer };
}

export class EmbeddedClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #lastId = 0;
  /** Set when the thread is gone: every later call fails with it. */
  #dead: Error | undefined;
  readonly waitReady: Promise<void>;

  constructor(opts: { dataDir?: string; fromDump?: Blob | string; postgresqlconf: string[] }) {
    const options: EmbeddedOptions = {
      dataDir: opts.dataDir,
      fromDump: opts.fromDump,
      postgresqlconf: opts.postgresqlconf,
    };
    // The thread `npm start` started before loading the service (src/db/embedded-thread.ts), or a new one.
    this.#worker =
      takeEmbeddedThread() ??
      new Worker(
        BUNDLED ? new URL('./embedded-worker.mjs', import.meta.url) : new URL('./embedded-worker.ts', import.meta.url),
      );
    // Held open only while calls are under way: an idle database keeps no process alive.
    this.#worker.unref();
    this.#worker.on('message', (m: Reply | Notification) => {
      if ('notify' in m) {
        for (const cb of this.#listeners.get(m.notify) ?? []) cb(m.payload);
        return;
      }
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (m.ok) p.resolve(m.value);
      else p.reject(new EmbeddedDatabaseError(m.error));
    });
    const gone = (err: Error) => {
      this.#dead ??= err;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    this.#worker.on('error', gone);
    this.#worker.on('exit', (code) => gone(new Error(`the embedded database's thread ended (exit code ${code})`)));
    // The first message says what to open; it answers once PGlite has opened it.
    this.waitReady = this.#call({ op: 'open', options }).then(() => undefined);
    this.waitReady.catch(() => undefined); // (the failure is every caller's, not an unhandled one)
  }

  #call<T>(call: Call, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    const id = ++this.#lastId;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.#worker.postMessage({ ...call, id }, transfer);
    });
  }

  async query<T>(text: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    const sent = crossing(params);
    const r = await this.#call<Results<T>>(
      { op: 'query', text, params: sent.params, rowMode: options?.rowMode, raw: rawTypes(options?.parsers), tx },
      sent.transfer,
    );
    return withBuffers(r);
  }

  async exec(text: string, tx?: number): Promise<Results[]> {
    const results = await this.#call<Results[]>({ op: 'exec', text, tx });
    return results.map(withBuffers);
  }

  /**
   * `fn` runs in a transaction of the database's thread: its calls go in that transaction, and
   * every call from outside it waits there until it ends (committed when `fn` resolves, rolled
   * back when it throws).
   */
  async transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const n = await this.#call<number>({ op: 'begin' });
    let closed = false;
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions) => this.query<R>(text, params, options, n),
      exec: (text: string) => this.exec(text, n),
      // (What Drizzle and pg-boss use of PGlite's transaction: query, exec and closed.)
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      closed = true;
      await this.#call({ op: 'end', tx: n, commit: false }).catch(() => undefined);
      throw err;
    }
    closed = true;
    await this.#call({ op: 'end', tx: n, commit: true });
    return result;
  }

  async listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> {
    let set = this.#listeners.get(channel);
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(cb);
    await this.#call({ op: 'listen', channel });
    return async () => {
      set.delete(cb);
      if (set.size === 0) {
        this.#listeners.delete(channel);
        await this.#call({ op: 'unlisten', channel });
      }
    };
  }

  /** The whole database as an uncompressed tarball (PGlite's dumpDataDir). */
  async dumpDataDir(): Promise<Blob> {
    return new Blob([await this.#call<ArrayBuffer>({ op: 'dump' })]);
  }

  async close(): Promise<void> {
    if (!this.#dead) await this.#call({ op: 'close' });
    await this.#worker.terminate();
  }
}
