// Pages of long lists (issue 26, point 9: 100,000 recordings of a CloudPBX). Two costs grow with
// the list when each page is computed on its own:
//   * its total: counting the 57,000 rows of a month took 10 to 15 ms, for every page first read;
//   * its OFFSET: a page 99,000 rows deep makes PostgreSQL walk the 99,000 rows before it, even
//     through an index (some 700 such pages a second from outside).
// Instead, for a list (its filters and order) at a version of its family (src/db/list-count.ts),
// each instance remembers its total, read once, and, when a page past the first ANCHOR_STEP rows
// is asked, its anchors: the sort key and id of every ANCHOR_STEP-th row, read in one pass. A page
// then reads only its rows: a deep one starts after the nearest anchor before it (a keyset
// condition its index serves) and skips fewer than ANCHOR_STEP rows. The total and the anchors are
// exact for the snapshot whose version they carry; the page's statement reads the version in its
// own snapshot, and a page read at another version is computed again with its own count
// (src/modules/pbx/recordings.repo.ts).
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, PreparedOptions } from './client.ts';
import { rememberedAt, versionOf, type ListFamily } from './list-count.ts';

export const ANCHOR_STEP = 1_000;

const dialect = new PgDialect();

/** The rows of a list, as its page statement reads them, and its order. */
export interface LongList {
  family: ListFamily;
  /** `FROM <table> <alias> WHERE <filters>` (the page statement's own). */
  from: SQL;
  /** The sort key (never NULL: a keyset condition skips NULLs) and the id that breaks its ties. */
  key: SQL;
  id: SQL;
  /** The SQL type the sort key is read back as from its text. */
  keyType: 'timestamptz' | 'float8' | 'int' | 'text';
  descending: boolean;
  /** How its statements are planned (src/db/client.ts). */
  plan: NonNullable<PreparedOptions['plan']>;
}

/** Where a deep page starts: after the row (`k`, `id`), the `skipped` rows up to it being passed. */
export interface PageAnchor {
  k: string;
  id: string;
  skipped: number;
  /** The version of the family the anchor is exact at. */
  version: string;
}

/** Runs a statement of these lists as a prepared statement named after its text; its one row. */
export async function listStatementRow<T>(database: Database, prefix: string, query: SQL, plan: LongList['plan']) {
  const q = dialect.sqlToQuery(query);
  const name = `${prefix}_${createHash('sha1').update(q.sql).digest('hex').slice(0, 20)}`;
  const [row] = await database.prepared<T>(name, q.sql, q.params, { plan });
  if (!row) throw new Error('list statement: no row');
  return row;
}

const versionText = (list: LongList) => sql`${versionOf(list.family)}::text`;

/**
 * The total of the list named `listKey` at the version its row carries, read once per `version`
 * (the one the request's authorising statement read) and remembered with the lists' answers.
 */
export function listTotal(
  database: Database,
  listKey: string,
  version: string | undefined,
  list: () => LongList,
): Promise<{ version: string; total: number }> {
  return rememberedAt(`total\u0000${listKey}`, version, async () => {
    const l = list();
    const row = await listStatementRow<{ v: string; n: number }>(
      database,
      'lt',
      sql`SELECT ${versionText(l)} AS v, (SELECT count(*)::int ${l.from}) AS n`,
      l.plan,
    );
    return { version: String(row.v), total: Number(row.n) };
  });
}

/**
 * The anchor a page at `offset` of the list named `listKey` starts after, or undefined for a page
 * within the first ANCHOR_STEP rows or without a version. The anchors are read once per list and
 * `version` and remembered (bounded with the lists' answers).
 */
export async function pageAnchor(
  database: Database,
  listKey: string,
  version: string | undefined,
  offset: number,
  list: () => LongList,
): Promise<PageAnchor | undefined> {
  if (version === undefined || offset < ANCHOR_STEP) return undefined;
  const anchors = await rememberedAt(`anchors\u0000${listKey}`, version, async () => {
    const l = list();
    const dir = sql.raw(l.descending ? 'DESC' : 'ASC');
    // The rows at positions ANCHOR_STEP, 2 × ANCHOR_STEP... (1-based), as [key as text, id].
    const row = await listStatementRow<{ v: string; a: [string, string][] | null }>(
      database,
      'la',
      sql`SELECT ${versionText(l)} AS v, (SELECT json_agg(json_build_array(x.k, x.id) ORDER BY x.n) FROM (
        SELECT ${l.key}::text AS k, ${l.id} AS id, row_number() OVER (ORDER BY ${l.key} ${dir}, ${l.id} ${dir}) AS n
        ${l.from}) x WHERE x.n % ${sql.raw(String(ANCHOR_STEP))} = 0) AS a`,
      l.plan,
    );
    return { version: String(row.v), rows: row.a ?? [] };
  });
  const at = Math.min(Math.floor(offset / ANCHOR_STEP), anchors.rows.length);
  if (at === 0) return undefined;
  const [k, id] = anchors.rows[at - 1];
  return { k, id, skipped: at * ANCHOR_STEP, version: anchors.version };
}

/** The condition of the rows after the anchor, in the list's order. */
export function afterAnchor(list: LongList, anchor: PageAnchor): SQL {
  const op = sql.raw(list.descending ? '<' : '>');
  return sql`(${list.key}, ${list.id}) ${op} (CAST(${anchor.k} AS ${sql.raw(list.keyType)}), ${anchor.id})`;
}

/**
 * A bound on the rows a page reads when it skips fewer than ANCHOR_STEP rows (a deep page after its
 * anchor, or a page of the first thousand), as a literal: the smallest power of two not below the
 * rows skipped and read. A generic plan does not know a page's LIMIT and OFFSET (parameters), and
 * took such a page for a large scan worth a parallel worker, whose start was 6 of its 9 ms; told
 * that at most this many rows are read, it walks the index. Powers of two keep the statements few.
 */
export function rowsBound(skip: number, limit: number): number | undefined {
  if (skip >= ANCHOR_STEP) return undefined;
  return 2 ** Math.max(5, Math.ceil(Math.log2(skip + limit)));
}
