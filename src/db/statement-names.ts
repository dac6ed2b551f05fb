// Every statement the service sends to a PostgreSQL server through its general pool is a named
// prepared statement: parsed and planned once per connection, then only bound and executed.
// node-postgres prepares a statement only when it is given a name, and Drizzle never gives one,
// so each of its statements was parsed and planned again on every execution. On the creation of
// a subscription that planning was about 2 ms of the server's CPU per subscription, more than the
// execution (docs/decisions.md, Performance: named statements).
//
// The name is the statement's text, numbered in the order texts are first seen. Texts are few
// (one per query shape of the code), but a shape built from a list (an IN of n values) gives one
// text per length: past MAX_NAMES texts, or for a text longer than MAX_TEXT, a statement runs
// unnamed as before, so the server's memory per connection stays bounded. Plans stay PostgreSQL's
// choice (plan_cache_mode auto): custom plans for the first five executions, then the generic
// plan only where it costs no more.
import type pg from 'pg';

export const MAX_NAMES = 2_000;
export const MAX_TEXT = 20_000;

/** The name of a statement text (`n<number>`), or undefined when it runs unnamed. */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly maxNames: number;
  private readonly maxText: number;
  constructor(maxNames = MAX_NAMES, maxText = MAX_TEXT) {
    this.maxNames = maxNames;
    this.maxText = maxText;
  }

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.maxNames && text.length <= this.maxText) {
      name = `n${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }

  get size(): number {
    return this.names.size;
  }
}

type QueryConfig = { text?: unknown; name?: unknown; submit?: unknown; values?: unknown };

/**
 * Names the statements of one client of the pool. A query given as a config object gets the name
 * of its text; one given as text and values becomes such an object. Left as they are: queries
 * without values (a named statement goes by the extended protocol, which refuses a text of several
 * commands: migrations, session settings), queries that already carry a name, and submittable
 * objects (cursors, streams).
 */
export function nameStatements(client: pg.PoolClient, names: StatementNames): void {
  // The class's own query, looked up at each call (not kept from the time of connection): code
  // that wraps the driver's method later, a statement counter of the tests for one, still sees
  // every statement.
  const query = (...args: unknown[]): unknown =>
    (Object.getPrototypeOf(client) as { query: (...a: unknown[]) => unknown }).query.apply(client, args);
  const named = (...args: unknown[]): unknown => {
    const [first, second, ...rest] = args;
    if (typeof first === 'string' && Array.isArray(second) && second.length > 0) {
      const name = names.nameOf(first);
      if (name) return query({ text: first, values: second, name }, ...rest);
    } else if (first !== null && typeof first === 'object') {
      const c = first as QueryConfig;
      const values = Array.isArray(second) ? second : c.values;
      if (
        c.name === undefined &&
        typeof c.text === 'string' &&
        typeof c.submit !== 'function' &&
        Array.isArray(values) &&
        values.length > 0
      ) {
        const name = names.nameOf(c.text);
        if (name) return query({ ...c, name }, second, ...rest);
      }
    }
    return query(...args);
  };
  (client as unknown as { query: typeof named }).query = named;
}
