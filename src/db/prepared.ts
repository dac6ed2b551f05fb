// Runs a query built with drizzle as a prepared statement named after a hash of its text: the
// same shape of query (the same filters, different values) reuses its plan. For the hot lists,
// whose dynamic WHERE clauses the per-operation statements of src/authz/resolve.ts cannot hold.
import { createHash } from 'node:crypto';
import type { Database } from './client.ts';

interface BuiltQuery {
  toSQL(): { sql: string; params: unknown[] };
}

const names = new Map<string, string>();

export async function runPrepared<T>(database: Database, query: BuiltQuery): Promise<T[]> {
  const { sql, params } = query.toSQL();
  let name = names.get(sql);
  if (!name) {
    name = `q_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    // The shapes are few (one per combination of filters); the bound keeps a pathological client from growing it.
    if (names.size < 10_000) names.set(sql, name);
  }
  return database.prepared<T>(name, sql, params);
}
