// Counts the statements an application sends to its database while some code runs, at the
// database client itself, so that any extra statement of a handler shows. On a server that is
// every pg client (the general pool) and every hot statement, which goes to its pipelined
// sessions through `Database.prepared` (src/db/client.ts, src/db/pipelined.ts); on the embedded
// database, PGlite's query and exec (which `prepared` calls there).
import pg from 'pg';
import type { TestApp } from './harness.ts';

type Method = (this: unknown, q: unknown, ...rest: unknown[]) => unknown;

/** The statements (names of prepared ones, else their text) sent while `run` runs. */
export async function statementsOf(t: TestApp, run: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const target: Record<string, unknown> =
    t.deps.database.kind === 'server'
      ? (pg.Client.prototype as unknown as Record<string, unknown>)
      : (t.db as unknown as { $client: Record<string, unknown> }).$client;
  const methods = ['query', 'exec'].filter((m) => typeof target[m] === 'function');
  const originals = methods.map((m) => target[m] as Method);
  methods.forEach((m, i) => {
    target[m] = function (this: unknown, q: unknown, ...rest: unknown[]) {
      seen.push(typeof q === 'string' ? q : String((q as { name?: string }).name ?? (q as { text?: string }).text));
      return originals[i].call(this, q, ...rest);
    };
  });
  const database = t.deps.database;
  const prepared = database.prepared;
  if (database.kind === 'server')
    database.prepared = (name, ...rest) => {
      seen.push(name);
      return prepared(name, ...rest);
    };
  try {
    await run();
  } finally {
    methods.forEach((m, i) => (target[m] = originals[i]));
    database.prepared = prepared;
  }
  return seen;
}
