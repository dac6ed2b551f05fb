// Deep pages of long lists (issue 26, point 9). A page at OFFSET n makes PostgreSQL walk the n
// rows before it, even through an index: a page 99,000 rows deep in 100,000 recordings read
// 99,020 index entries, some 700 such pages a second from outside where the first pages gave
// thousands. Instead, for a list (its filters and order) at a version of its family, each instance
// remembers its anchors: the sort key and id of every ANCHOR_STEP-th row, read in one pass. A deep
// page then starts after the nearest anchor before it (a keyset condition the index serves) and
// skips fewer than ANCHOR_STEP rows. The anchors are exact for the snapshot whose version they
// carry; the page's statement reads the version again, and a page whose version differs is
// computed again without them (src/modules/pbx/recordings.repo.ts).
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createHash } from 'node:crypto';
import type { Database } from './client.ts';
import { rememberedAt, versionOf, type ListFamily } from './list-count.ts';

export const ANCHOR_STEP = 1_000;

const dialect = new PgDialect();

/** The rows of a list, as its page statement reads them, and its order. */
export interface AnchoredList {
  family: ListFamily;
  /** `FROM <table> <alias> WHERE <filters>` (the page statement's own). */
  from: SQL;
  /** The sort key (never NULL: a keyset condition skips NULLs) and the id that breaks its ties. */
  key: SQL;
  id: SQL;
  /** The SQL type the sort key is read back as from its text (`timestamptz`, `float8`, `text`...). */
  keyType: 'timestamptz' | 'float8' | 'int' | 'text';
  descending: boolean;
}

/** Where a deep page starts: after the row (`k`, `id`), the `skipped` rows up to it being passed. */
export interface PageAnchor {
  k: string;
  id: string;
  skipped: number;
  /** The version of the family the anchors are exact at. */
  version: string;
}

interface Anchors {
  version: string;
  /** [key as text, id] of the rows at positions STEP, 2 × STEP... (1-based). */
  rows: [string, string][];
}

async function readAnchors(database: Database, list: AnchoredList): Promise<Anchors> {
  const dir = sql.raw(list.descending ? 'DESC' : 'ASC');
  const q = dialect.sqlToQuery(sql`SELECT ${versionOf(list.family)}::text AS v,
    (SELECT json_agg(json_build_array(x.k, x.id) ORDER BY x.n) FROM (
      SELECT ${list.key}::text AS k, ${list.id} AS id, row_number() OVER (ORDER BY ${list.key} ${dir}, ${list.id} ${dir}) AS n
      ${list.from}) x WHERE x.n % ${sql.raw(String(ANCHOR_STEP))} = 0) AS a`);
  const name = `a_${createHash('sha1').update(q.sql).digest('hex').slice(0, 20)}`;
  const [row] = await database.prepared<{ v: string; a: [string, string][] | null }>(name, q.sql, q.params);
  return { version: String(row?.v), rows: row?.a ?? [] };
}

/**
 * The anchor a page at `offset` of the list named `listKey` starts after, read at `version` (the
 * version of its family the request's authorising statement read), or undefined for a page within
 * the first ANCHOR_STEP rows or without a version. The anchors are read once per list and version
 * and remembered (bounded with the lists' answers, src/db/list-count.ts).
 */
export async function pageAnchor(
  database: Database,
  listKey: string,
  version: string | undefined,
  offset: number,
  list: () => AnchoredList,
): Promise<PageAnchor | undefined> {
  if (version === undefined || offset < ANCHOR_STEP) return undefined;
  const anchors = await rememberedAt(`anchors\u0000${listKey}`, version, () => readAnchors(database, list()));
  const at = Math.min(Math.floor(offset / ANCHOR_STEP), anchors.rows.length);
  if (at === 0) return undefined;
  const [k, id] = anchors.rows[at - 1];
  return { k, id, skipped: at * ANCHOR_STEP, version: anchors.version };
}

/** The condition of the rows after the anchor, in the list's order. */
export function afterAnchor(
  list: Pick<AnchoredList, 'key' | 'id' | 'keyType' | 'descending'>,
  anchor: PageAnchor,
): SQL {
  const op = sql.raw(list.descending ? '<' : '>');
  return sql`(${list.key}, ${list.id}) ${op} (CAST(${anchor.k} AS ${sql.raw(list.keyType)}), ${anchor.id})`;
}
