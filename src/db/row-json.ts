// Rows read as one JSON value each (`row_to_json(row)` or `to_jsonb(row)`), turned back into the rows drizzle's select
// gives: each column's value through the column's own mapping (timestamps become Dates, arrays
// and JSON stay as they are). A result of one JSON column is decoded at once, where a column per
// value costs every value its own decoding (on the embedded database, in JavaScript).
import { Column, getTableColumns } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

export function jsonRowReader<T = Record<string, unknown>>(table: PgTable): (json: Record<string, unknown>) => T {
  // Columns whose mapping is the identity (text, booleans...) are copied as they are: a company row
  // has some ninety columns and each request reads one.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- compared, never called
  const identity = Column.prototype.mapFromDriverValue;
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>).map(([prop, c]) => ({
    prop,
    name: c.name,
    map: c.mapFromDriverValue === identity ? undefined : (v: unknown) => c.mapFromDriverValue(v),
  }));
  return (json) => {
    const out: Record<string, unknown> = {};
    for (const { prop, name, map } of columns) {
      const v = json[name];
      out[prop] = v === null || v === undefined ? null : map ? map(v) : v;
    }
    return out as T;
  };
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
