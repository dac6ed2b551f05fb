// Exact list answers whose cost does not grow with the table. Counting the rows a filter matches
// costs as many index entries as there are matches (90,000 active companies: tens of
// milliseconds), on every page. Instead each instance remembers the answer of a list statement
// (its text and values: filters, scope, page) with the version of its tables it was computed at
// (list_versions, moved by triggers in the same transaction as any write: migrations 0008 and 0019). The
// statement reads the current version and computes its guarded items (the count, the page) only
// when it differs from the remembered one. The answer stays exact and the same on every
// instance; after a write, the first request of each statement computes again.
import { createHash, randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, PreparedOptions } from './client.ts';

const dialect = new PgDialect();

/**
 * Bounds on the remembered answers per instance, in number and in size (the length of their JSON
 * text, about their size in memory): a page of full offers is some forty kilobytes, and five
 * thousand of them would hold two hundred megabytes. The oldest answers are forgotten first.
 */
const MAX_ENTRIES = 5_000;
const MAX_CHARS = 16 * 1024 * 1024;
const remembered = new Map<string, { version: string; row: CountedRow & { total: number }; chars: number }>();
let rememberedChars = 0;

function forget(key: string): void {
  const old = remembered.get(key);
  if (!old) return;
  remembered.delete(key);
  rememberedChars -= old.chars;
}

/**
 * Marks the known version among the parameters: negative (versions start at 1) and random, so
 * that no filter value a client sends is taken for it.
 */
const NONE = String(-1 - randomInt(2 ** 47));

/** The families of lists that have a version (rows of list_versions, moved by the triggers of migrations 0008, 0017, 0019, 0020, 0028 and 0029). */
export type ListFamily = 'companies' | 'offers' | 'users' | 'pbx' | 'recordings';

export interface CountedRow {
  list_version: string | null;
  total: number | null;
}

/**
 * The version of a family of lists: the sum of its first row and of its stripes ('name#0' to
 * 'name#63'), which writers bump by their transaction id so that concurrent writers do not wait
 * for one row (migration 0019). Every row only grows: the sum moves with every committed write.
 */
export const versionOf = (listName: string): SQL => {
  const name = listName.replace(/[^a-z_]/g, '');
  return sql`(SELECT sum(version)::bigint FROM list_versions WHERE name = ${sql.raw(`'${name}'`)} OR name LIKE ${sql.raw(`'${name.replace(/_/g, '\\_')}#%'`)})`;
};

/**
 * A select item computed only when the version of `listName` moved since `known`: NULL otherwise,
 * and the value remembered with that version stands. (A scalar subquery under CASE is an InitPlan
 * that PostgreSQL does not execute when its branch is not taken.)
 */
export function unlessUnchanged(listName: string, expr: SQL, known: SQL, alias: string): SQL {
  return sql`CASE WHEN ${versionOf(listName)} = ${known}::bigint THEN NULL ELSE (${expr}) END AS ${sql.raw(`"${alias.replace(/"/g, '')}"`)}`;
}

/** The select items that give the version and, when `known` is not it, the count. */
export function versionedCount(listName: string, count: SQL, known: SQL): SQL {
  return sql`${versionOf(listName)}::text AS list_version, ${unlessUnchanged(listName, count, known, 'total')}`;
}

/** Bound on the statements kept built per instance (a few kilobytes of text each). */
const MAX_BUILT = 1_000;
/** Statements built for a `buildKey`: their text, values and name (the oldest is forgotten first). */
const built = new Map<string, { sql: string; params: unknown[]; name: string }>();

/**
 * The text and values of `build(known)`, and the statement's name. With `buildKey` (which must
 * name everything `build` depends on: the values and the shape), they are built once and reused:
 * walking the query builder's tree again on every request of a hot list costs more than the rest
 * of its statement's work in Node.
 */
function statementOf(
  build: (known: SQL) => SQL,
  buildKey: string | undefined,
): { sql: string; params: unknown[]; name: string } {
  const memo = buildKey === undefined ? undefined : built.get(buildKey);
  if (memo) return { ...memo, params: [...memo.params] };
  const q = dialect.sqlToQuery(build(sql`${NONE}`));
  // Named after its text: the same filter set (different values) reuses its plan.
  const made = {
    sql: q.sql,
    params: q.params,
    name: `l_${createHash('sha1').update(q.sql).digest('hex').slice(0, 20)}`,
  };
  if (buildKey !== undefined) {
    if (built.size >= MAX_BUILT) built.delete(built.keys().next().value!);
    built.set(buildKey, { ...made, params: [...made.params] });
  }
  return made;
}

/**
 * Runs a list statement built by `build(known)` (which selects `versionedCount`, and may guard
 * other items with `unlessUnchanged`) as a prepared statement, and returns its row with the exact
 * total. When the version did not move, the row remembered with it is returned: its guarded items
 * (the total, and a page if guarded) were not computed again.
 *
 * `current` is the version of the family as the request's authorising statement read it (an
 * operation's `listVersion`, src/http/operation.ts): when the answer was remembered at that very
 * version, nothing was written since, and it is returned without a statement at all.
 */
export async function runCounted<R extends CountedRow>(
  database: Database,
  build: (known: SQL) => SQL,
  buildKey?: string,
  current?: string,
  /** How the statement is planned (PreparedOptions of src/db/client.ts): one plan for every value by default. */
  plan: NonNullable<PreparedOptions['plan']> = 'generic',
): Promise<Omit<R, 'total'> & { total: number }> {
  const q = statementOf(build, buildKey);
  const name = q.name;
  const at = q.params.flatMap((p, i) => (p === NONE ? [i] : []));
  if (at.length === 0) throw new Error('list statement: select versionedCount');
  // The statement's name stands for its text (a digest of it): a key of a few dozen characters
  // instead of several kilobytes, kept per remembered answer and hashed on every request.
  const key = `${name}\u0000${JSON.stringify(q.params)}`;
  const memo = remembered.get(key);
  if (memo && current !== undefined && memo.version === current)
    return memo.row as Omit<R, 'total'> & { total: number };
  return sharedAt(`${key}\u0000${current ?? ''}`, current, () => countedRow<R>(database, q, at, key, memo, plan));
}

/**
 * Computations in flight, by key and version: requests that ask the same answer at the same
 * version while it is being computed wait for that computation instead of running their own (20
 * clients paging through the same list after a write computed each page 20 times at once). Both
 * read that version in their authorising statement: nothing was written between them, so the one
 * answer is exact for each. Without a version read, each request computes its own.
 */
const inFlight = new Map<string, Promise<unknown>>();

function sharedAt<T>(key: string, version: string | undefined, compute: () => Promise<T>): Promise<T> {
  if (version === undefined) return compute();
  // Stored by this function with this key's compute: of type T.
  const running = inFlight.get(key) as Promise<T> | undefined;
  if (running) return running;
  const started = compute().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}

async function countedRow<R extends CountedRow>(
  database: Database,
  q: { sql: string; params: unknown[]; name: string },
  at: number[],
  key: string,
  memo: { version: string; row: CountedRow & { total: number } } | undefined,
  plan: NonNullable<PreparedOptions['plan']>,
): Promise<Omit<R, 'total'> & { total: number }> {
  const name = q.name;
  if (memo) for (const i of at) q.params[i] = memo.version;
  const [row] = await database.prepared<R>(name, q.sql, q.params, { plan });
  if (!row) throw new Error('list statement: no row');
  if (row.total === null && memo) {
    // The version did not move: the remembered row is exact.
    return memo.row as Omit<R, 'total'> & { total: number };
  }
  const fresh = { ...row, total: Number(row.total) };
  forget(key);
  if (row.list_version === null) return fresh;
  const chars = key.length + JSON.stringify(fresh).length;
  if (chars > MAX_CHARS / 8) return fresh;
  while (remembered.size >= MAX_ENTRIES || rememberedChars + chars > MAX_CHARS) forget(remembered.keys().next().value!);
  remembered.set(key, { version: String(row.list_version), row: fresh, chars });
  rememberedChars += chars;
  return fresh;
}

/** Answers remembered by `rememberedAt`, per instance: bounded like the lists' (oldest forgotten first). */
const rememberedValues = new Map<string, { version: string; value: unknown; chars: number }>();
let rememberedValueChars = 0;

/**
 * The answer `compute` gives, remembered with `version`, the version of its family that the
 * request's authorising statement read (an operation's `listVersion`): asked again at the same
 * version, nothing was written since, and the remembered answer is returned without a statement.
 * The version is read before `compute` runs, so a remembered answer is never older than its
 * version (a write in between moves the version, and the next request computes again).
 * Without a version (not read), it computes.
 */
export async function rememberedAt<T>(key: string, version: string | undefined, compute: () => Promise<T>): Promise<T> {
  if (version === undefined) return compute();
  const memo = rememberedValues.get(key);
  // The value was stored by this function with this key's compute: of type T.
  if (memo && memo.version === version) return memo.value as T;
  return sharedAt(`remembered\u0000${key}\u0000${version}`, version, () => rememberValue(key, version, compute));
}

async function rememberValue<T>(key: string, version: string, compute: () => Promise<T>): Promise<T> {
  const memo = rememberedValues.get(key);
  const value = await compute();
  const chars = key.length + JSON.stringify(value).length;
  if (memo) {
    rememberedValues.delete(key);
    rememberedValueChars -= memo.chars;
  }
  if (chars > MAX_CHARS / 8) return value;
  while (rememberedValues.size >= MAX_ENTRIES || rememberedValueChars + chars > MAX_CHARS) {
    const [oldest, old] = rememberedValues.entries().next().value!;
    rememberedValues.delete(oldest);
    rememberedValueChars -= old.chars;
  }
  rememberedValues.set(key, { version, value, chars });
  rememberedValueChars += chars;
  return value;
}
