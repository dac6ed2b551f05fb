// Statements of the busiest write paths, run on the executor's own session (the pool, or the
// open transaction's connection) without Drizzle's query builder. Drizzle turns a query into text
// again on every call (about 25 to 100 µs of the service's CPU per statement, most of it checking
// what each piece is); these statements are written with Drizzle's `sql` fragments, turned into
// text once when their module loads, and then only bound to their values. On a PostgreSQL server
// the general pool names them (src/db/statement-names.ts), so they are also planned once per
// connection. Values come back as the driver gives them (timestamps as Dates, JSON parsed).
import { getTableColumns, getTableName, Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Database, Executor } from './client.ts';
import { jsonRowReader } from './row-json.ts';

/** The session under a Drizzle database or transaction: node-postgres's Pool or PoolClient, PGlite or its transaction. */
interface Session {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The session an executor runs its statements on (Drizzle keeps it as `session.client` for both drivers). */
export function sessionOf(exec: Executor): Session {
  const client = (exec as unknown as { session?: { client?: Session } }).session?.client;
  if (!client || typeof client.query !== 'function')
    throw new Error('this executor has no session to run a statement on');
  return client;
}

/**
 * The rows of `execute(sql...)`: both drivers answer `{ rows }` (node-postgres's QueryResult,
 * PGlite's Results); their type is the statement's, which the caller names.
 */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const dialect = new PgDialect();

/** A statement rendered once: its text, and how to bind the values of a call (placeholders by name, constants as they are). */
export interface Statement<P extends string> {
  readonly text: string;
  /** The values of a call in the order of the text's parameters. */
  bind(values: Record<P, unknown>): unknown[];
  rows<T>(exec: Executor, values: Record<P, unknown>): Promise<T[]>;
}

/** Renders a statement written with `sql` and `sql.placeholder(name)` for the values of each call. */
export function statement<P extends string = string>(query: SQL): Statement<P> {
  const rendered = dialect.sqlToQuery(query);
  const params = rendered.params;
  const bind = (values: Record<P, unknown>) => params.map((p) => (p instanceof Placeholder ? values[p.name as P] : p));
  return {
    text: rendered.sql,
    bind,
    async rows<T>(exec: Executor, values: Record<P, unknown>): Promise<T[]> {
      return (await sessionOf(exec).query(rendered.sql, bind(values))).rows as T[];
    },
  };
}

/**
 * INSERT of one row of `table`, given as Drizzle's insert takes it, returning the row as Drizzle's
 * select gives it. The text is made once per set of columns given (a call site gives the same set
 * every time); values go through each column's own mapping (JSON as text, timestamps as ISO text),
 * and the row comes back as one JSON value read by jsonRowReader. Columns left out take their
 * defaults from the database: the tables it serves declare no defaults computed by Drizzle.
 */
export function rowInserter<T extends PgTable>(
  table: T,
): (exec: Executor, row: T['$inferInsert']) => Promise<T['$inferSelect']> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const name = getTableName(table);
  const read = jsonRowReader<T['$inferSelect']>(table);
  const shapes = new Map<string, { text: string; props: string[] }>();
  return async (exec, row) => {
    const given = row as Record<string, unknown>;
    const props = Object.keys(given).filter((k) => given[k] !== undefined && columns[k] !== undefined);
    const key = props.join(',');
    let shape = shapes.get(key);
    if (!shape) {
      const names = props.map((p) => `"${columns[p].name}"`).join(', ');
      const params = props.map((_, i) => `$${i + 1}`).join(', ');
      shape = {
        text: `INSERT INTO "${name}" (${names}) VALUES (${params}) RETURNING to_jsonb("${name}") AS row`,
        props,
      };
      shapes.set(key, shape);
    }
    const values = shape.props.map((p) => {
      const v = given[p];
      if (v !== null && typeof v === 'object' && 'getSQL' in v)
        throw new Error(`rowInserter: ${name}.${p} is SQL; give it a value`);
      return v === null ? null : columns[p].mapToDriverValue(v);
    });
    const { rows } = await sessionOf(exec).query(shape.text, values);
    return read((rows[0] as { row: Record<string, unknown> }).row);
  };
}

/** How a column's value travels in rowsInserter's JSON. */
type Kind = 'json' | 'array' | 'plain';

/**
 * INSERT of many rows of `table` in one statement whose only value is the rows as one JSON array
 * of arrays, a row's values in the order of its columns (`jsonb_array_elements`, each read with
 * `->>` and cast to its column's type): the text is made once per set of columns, and the values
 * cost one JSON.stringify instead of a bound parameter per cell (the CSV import's batches: issue
 * 27, point 8). Arrays rather than objects: the database reads an element by its position instead
 * of matching every key of every row to a column (`jsonb_populate_recordset`), and the service
 * builds no object with a key per column (docs/decisions.md, Performance, "An import's rows as
 * arrays"). Every row must give the same columns (the others take their defaults). Rows that meet
 * a unique constraint are skipped when `skipConflicts`; answers the `returning` column of those
 * made, which every row must give. The database answers one row whatever the number inserted: NULL
 * when every row was made (nearly always; the values are then the rows' own), else the values made
 * as one array. A result row per inserted row cost the service a tenth of an import's allocations.
 */
export function rowsInserter<T extends PgTable>(
  table: T,
  opts: { skipConflicts?: boolean; returning?: keyof T['$inferSelect'] & string } = {},
): (exec: Executor, rows: readonly T['$inferInsert'][]) => Promise<unknown[]> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const name = getTableName(table);
  /**
   * How a column's value enters a row's JSON and is read back: JSON columns as they are (a JSON
   * null is SQL NULL, as for every other column), arrays as Drizzle writes them (PostgreSQL's array
   * text), dates as ISO text; the others cast from their text. Decided once per column.
   */
  const kinds = new Map(
    Object.entries(columns).map(([p, c]) => {
      const t = c.columnType;
      const kind: Kind = t === 'PgJsonb' || t === 'PgJson' ? 'json' : t === 'PgArray' ? 'array' : 'plain';
      const read = (i: number) =>
        kind === 'json'
          ? `NULLIF(e->${i}, 'null'::jsonb)${t === 'PgJson' ? '::json' : ''}`
          : `(e->>${i})::${c.getSQLType()}`;
      return [p, { kind, read }] as const;
    }),
  );
  /** Per set of columns given: the statement, and each column's kind in the rows' order. */
  const shapes = new Map<string, { text: string; kinds: Kind[] }>();
  return async (exec, rows) => {
    if (rows.length === 0) return [];
    const first = rows[0] as Record<string, unknown>;
    // A nullable column without a default that no row fills is left out: it is NULL either way,
    // and the import's users leave most of their optional columns empty (a fifth of the JSON the
    // service writes and the database reads back).
    const props = Object.keys(first).filter(
      (k) =>
        first[k] !== undefined &&
        columns[k] !== undefined &&
        (columns[k].notNull || columns[k].hasDefault || rows.some((r) => (r as Record<string, unknown>)[k] != null)),
    );
    const key = props.join(',');
    let shape = shapes.get(key);
    if (!shape) {
      const names = props.map((p) => `"${columns[p].name}"`).join(', ');
      const reads = props.map((p, i) => kinds.get(p)!.read(i)).join(', ');
      const insert =
        `INSERT INTO "${name}" (${names}) SELECT ${reads} FROM jsonb_array_elements($1::jsonb) AS r(e)` +
        (opts.skipConflicts ? ' ON CONFLICT DO NOTHING' : '');
      const text = opts.returning
        ? `WITH made AS (${insert} RETURNING "${columns[opts.returning].name}" AS v) ` +
          // NULL: every row made (no list to send back); none made is an empty list, not
          // array_agg's NULL over no rows.
          "SELECT CASE WHEN count(*) = $2 THEN NULL ELSE coalesce(array_agg(v), '{}') END AS v FROM made"
        : insert;
      shape = { text, kinds: props.map((p) => kinds.get(p)!.kind) };
      shapes.set(key, shape);
    }
    const { text, kinds: rowKinds } = shape;
    const width = props.length;
    const rowsJson = JSON.stringify(
      rows.map((r) => {
        const row = r as Record<string, unknown>;
        const out: unknown[] = new Array(width);
        for (let i = 0; i < width; i++) {
          const v = row[props[i]];
          const kind = rowKinds[i];
          out[i] =
            v === null || v === undefined
              ? null
              : kind === 'json'
                ? v
                : kind === 'array'
                  ? columns[props[i]].mapToDriverValue(v)
                  : v instanceof Date
                    ? v.toISOString()
                    : v;
        }
        return out;
      }),
    );
    const returning = opts.returning;
    if (!returning) {
      await sessionOf(exec).query(text, [rowsJson]);
      return [];
    }
    const { rows: answer } = await sessionOf(exec).query(text, [rowsJson, rows.length]);
    const made = (answer[0] as { v: unknown[] | null } | undefined)?.v;
    return made ?? rows.map((r) => (r as Record<string, unknown>)[returning]);
  };
}

/**
 * The database seen from inside a transaction: its hot-path statements (`prepared`) run on the
 * transaction's own session, so they see what the transaction wrote and, on the embedded
 * database, do not wait for the one session it holds (src/http/run-command.ts: a command run in
 * an import's line).
 */
export function databaseOn(database: Database, exec: Executor): Database {
  if (exec === database.db) return database;
  return {
    ...database,
    prepared: async <T>(_name: string, text: string, params: unknown[]) =>
      (await sessionOf(exec).query(text, params)).rows as T[],
  };
}
