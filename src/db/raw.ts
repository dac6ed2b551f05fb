// Statements of the busiest write paths, run on the executor's own session (the pool, or the
// open transaction's connection) without Drizzle's query builder. Drizzle turns a query into text
// again on every call (about 25 to 100 µs of the service's CPU per statement, most of it checking
// what each piece is); these statements are written with Drizzle's `sql` fragments, turned into
// text once when their module loads, and then only bound to their values. On a PostgreSQL server
// the general pool names them (src/db/statement-names.ts), so they are also planned once per
// connection. Values come back as the driver gives them (timestamps as Dates, JSON parsed).
import { Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Executor } from './client.ts';

/** The session under a Drizzle database or transaction: node-postgres's Pool or PoolClient, PGlite or its transaction. */
interface Session {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The session an executor runs its statements on (Drizzle keeps it as `session.client` for both drivers). */
export function sessionOf(exec: Executor): Session {
  const client = (exec as unknown as { session?: { client?: Session } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('this executor has no session to run a statement on');
  return client;
}

const dialect = new PgDialect();

/** A statement rendered once: its text, and how to bind the values of a call (placeholders by name, constants as they are). */
export interface Statement<P extends string> {
  readonly text: string;
  rows<T>(exec: Executor, values: Record<P, unknown>): Promise<T[]>;
}

/** Renders a statement written with `sql` and `sql.placeholder(name)` for the values of each call. */
export function statement<P extends string = string>(query: SQL): Statement<P> {
  const rendered = dialect.sqlToQuery(query);
  const params = rendered.params;
  return {
    text: rendered.sql,
    async rows<T>(exec: Executor, values: Record<P, unknown>): Promise<T[]> {
      const bound = params.map((p) => (p instanceof Placeholder ? values[p.name as P] : p));
      return (await sessionOf(exec).query(rendered.sql, bound)).rows as T[];
    },
  };
}
