// Exact list totals whose cost does not grow with the table. Counting the rows a filter matches
// costs as many index entries as there are matches (90,000 active companies: tens of
// milliseconds), on every page. Instead each instance remembers the total of a list query with
// the version of its tables it was counted at (list_versions, moved by triggers in the same
// transaction as any write: migration 0006). The list's statement reads the current version and
// counts only when it differs from the remembered one: a PostgreSQL InitPlan under CASE is not
// executed when its branch is not taken. The total stays exact and the same on every instance;
// after a write, the first page of each filter set counts again.
import { createHash, randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './client.ts';

const dialect = new PgDialect();

/** Bound on the remembered totals per instance (the oldest is forgotten first). */
const MAX_ENTRIES = 5_000;
const remembered = new Map<string, { version: string; total: number }>();

/**
 * Marks the known version among the parameters: negative (versions start at 1) and random, so
 * that no filter value a client sends is taken for it.
 */
const NONE = String(-1 - randomInt(2 ** 47));

export interface CountedRow {
  list_version: string | null;
  total: number | null;
}

/** The select items that give the version and, when `known` is not it, the count. */
export function versionedCount(listName: string, count: SQL, known: SQL): SQL {
  const version = sql`(SELECT version FROM list_versions WHERE name = ${sql.raw(`'${listName.replace(/'/g, "''")}'`)})`;
  return sql`${version}::text AS list_version, CASE WHEN ${version} = ${known}::bigint THEN NULL ELSE (${count}) END AS total`;
}

/**
 * Runs a list statement built by `build(known)` (which selects `versionedCount`) as a prepared
 * statement, and returns its one row with the exact total.
 */
export async function runCounted<R extends CountedRow>(database: Database, build: (known: SQL) => SQL): Promise<Omit<R, 'total'> & { total: number }> {
  const q = dialect.sqlToQuery(build(sql`${NONE}`));
  // Named after its text: the same filter set (different values) reuses its plan.
  const name = `l_${createHash('sha1').update(q.sql).digest('hex').slice(0, 20)}`;
  const at = q.params.indexOf(NONE);
  if (at < 0 || q.params.lastIndexOf(NONE) !== at) throw new Error('list statement: select versionedCount once');
  const key = `${q.sql}\u0000${JSON.stringify(q.params)}`;
  const memo = remembered.get(key);
  if (memo) q.params[at] = memo.version;
  const [row] = await database.prepared<R>(name, q.sql, q.params);
  if (!row) throw new Error('list statement: no row');
  if (row.total === null && memo) {
    // The version did not move: the remembered total is exact.
    return { ...row, total: memo.total };
  }
  remembered.delete(key);
  if (row.list_version === null) return { ...row, total: Number(row.total) };
  if (remembered.size >= MAX_ENTRIES) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, { version: String(row.list_version), total: Number(row.total) });
  return { ...row, total: Number(row.total) };
}
