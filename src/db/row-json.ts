// Rows read as one JSON value each (`to_jsonb(row)`), turned back into the rows drizzle's select
// gives: each column's value through the column's own mapping (timestamps become Dates, arrays
// and JSON stay as they are). A result of one JSON column is decoded at once, where a column per
// value costs every value its own decoding (on the embedded database, in JavaScript).
import { getTableColumns, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

export function jsonRowReader<T = Record<string, unknown>>(table: PgTable): (json: Record<string, unknown>) => T {
  const columns = Object.entries(getTableColumns(table) as Record<string, Column>).map(([prop, c]) => [prop, c.name, c] as const);
  return (json) => {
    const out: Record<string, unknown> = {};
    for (const [prop, name, column] of columns) {
      const v = json[name];
      out[prop] = v === null || v === undefined ? null : column.mapFromDriverValue(v);
    }
    return out as T;
  };
}
