// Rows read as one JSON value each (`row_to_json(row)` or `to_jsonb(row)`), turned back into the rows drizzle's select
// gives: each column's value through the column's own mapping (timestamps become Dates, arrays
// and JSON stay as they are). A result of one JSON column is decoded at once, where a column per
// value costs every value its own decoding (on the embedded database, in JavaScript).
import { Column, getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A function of `params` answering one object literal of these keys and value expressions (with a
 * scratch variable `v`). The keys are a table's own property names and the expressions read its
 * column names, both written as JSON literals: nothing from a request reaches the code.
 */
function literalOf(params: string[], entries: [key: string, expr: string][]): (...args: unknown[]) => unknown {
  const body = entries.map(([k, e]) => `${JSON.stringify(k)}: ${e}`).join(',\n');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated from a table's names only
  return new Function(...params, `let v;\nreturn {\n${body}\n};`) as (...args: unknown[]) => unknown;
}

/**
 * SQL text: the JSON object of these columns (property names) of the row `alias` of `table`, keyed
 * by their column names as `row_to_json` keys them: a row read for the few columns an answer shows.
 */
export function columnsJsonSql(table: PgTable, alias: string, props: readonly string[]): string {
  const byProp = getTableColumns(table) as Record<string, Column>;
  const pairs = props.map((prop) => {
    const c = byProp[prop];
    if (!c) throw new Error(`${getTableName(table)}: no column ${prop}`);
    return `'${c.name}', ${alias}."${c.name}"`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

export function jsonRowReader<T = Record<string, unknown>>(
  table: PgTable,
  /** Only these columns (property names): the row holds them alone, the others absent. */
  only?: readonly string[],
): (json: Record<string, unknown>) => T {
  // Columns whose mapping is the identity (text, booleans...) are copied as they are: a company row
  // has some ninety columns and each request reads one.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
  const identity = Column.prototype.mapFromDriverValue;
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>).filter(
    ([prop]) => !only || only.includes(prop),
  );
  const maps = columns.map(([, c]) =>
    c.mapFromDriverValue === identity ? undefined : (v: unknown) => c.mapFromDriverValue(v),
  );
  // The reader is compiled once per table into one object literal with the columns as constant
  // keys: every row then has the same shape from its creation, and each value is a named load.
  // A loop storing `out[prop]` by a computed key went through V8's generic (megamorphic) property
  // stores and loads for every column of every row read, the largest single cost of mapping a
  // wide row.
  const read = literalOf(
    ['maps', 'json'],
    columns.map(([prop, c], i) => {
      const load = `json[${JSON.stringify(c.name)}]`;
      return [prop, maps[i] ? `(v = ${load}) == null ? null : maps[${i}](v)` : `${load} ?? null`];
    }),
  );
  return (json) => read(maps, json) as T;
}

/**
 * A copy of a row of `table` without the `omit` columns, compiled as jsonRowReader is (one object
 * literal, named loads): what `const { a, b, ...rest } = row` gives, without V8's generic copy of
 * every property, which was a fifth of mapping a company's whole row to its answer. A column the
 * row does not hold (a row read for a small format level) is copied as undefined.
 */
export function rowWithout<T extends object, K extends keyof T & string>(
  table: PgTable,
  omit: readonly K[],
): (row: T) => Omit<T, K> {
  const props = Object.keys(getTableColumns(table)).filter((p) => !omit.includes(p as K));
  const copy = literalOf(
    ['row'],
    props.map((p) => [p, `row[${JSON.stringify(p)}]`]),
  );
  return (row) => copy(row) as Omit<T, K>;
}

/**
 * The rows of whole pages (arrays of JSON rows, as a list statement's `json_agg(to_jsonb(page))`
 * gives them), each page read once: a remembered answer (src/db/list-count.ts) returns the same
 * array, and its rows are not read again.
 */
export function jsonPageReader<T = Record<string, unknown>>(table: PgTable): (page: Record<string, unknown>[]) => T[] {
  const read = jsonRowReader<T>(table);
  const pages = new WeakMap<object, T[]>();
  return (page) => {
    let rows = pages.get(page);
    if (!rows) pages.set(page, (rows = page.map(read)));
    return rows;
  };
}
