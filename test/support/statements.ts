// Counts the statements an application sends to its database while some code runs, at the
// database client itself, so that any extra statement of a handler shows. On a server that is
// every pg client (the general pool) and every hot statement, which goes to its pipelined
// sessions through `Database.prepared` (src/db/client.ts, src/db/pipelined.ts); on the embedded
// database, PGlite's query and exec (which `prepared` calls there).
import pg from 'pg';
import { bearer, type TestApp } from './harness.ts';
import { expect } from './expect.ts';

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

/**
 * The answer (`data`) of a GET of `url` and the statements it ran, after two warm-up calls: the
 * first tells the service the caller's roles, the second prepares the statement of those roles
 * (docs/decisions.md, "Relations of the caller's roles only").
 */
export async function readWithStatements(
  t: TestApp,
  url: string,
  token: string,
): Promise<{ statements: string[]; body: Record<string, unknown> }> {
  for (let i = 0; i < 2; i++)
    expect((await t.inject({ method: 'GET', url, headers: bearer(token) })).statusCode).toBe(200);
  let res: Awaited<ReturnType<TestApp['inject']>> | undefined;
  const statements = await statementsOf(
    t,
    async () => (res = await t.inject({ method: 'GET', url, headers: bearer(token) })),
  );
  expect(res!.statusCode).toBe(200);
  return { statements, body: res!.json().data as Record<string, unknown> };
}
