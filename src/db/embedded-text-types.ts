// The types Drizzle reads as text, kept as text by the embedded database itself (its thread,
// src/db/embedded-worker.ts).
//
// Drizzle's PGlite session asks every statement to keep dates, timestamps, intervals and five
// array types as text, by passing a parser for each. PGlite then merges them into a copy of its
// instance's table of some 320 parsers, for that statement: 118 µs a statement on this machine
// (2026-11-30), more than a simple statement's own 87 µs; in the authorisation matrix's test file,
// about a seventh of the database thread's time. Here the instance's table keeps those types as
// text once, so a statement that asks for them passes nothing; a statement that did not ask
// (the service's prepared statements, pg-boss) gets those columns parsed afterwards, as PGlite
// would have parsed them (docs/decisions.md, Performance, "Drizzle's text types kept as text by
// the embedded database"; test/db/embedded-text-types.test.ts compares every value with PGlite's).
import { types, type PGlite, type Results } from '@electric-sql/pglite';

/** Each type Drizzle's session reads as text (drizzle-orm/pglite/session), with its element type for arrays. */
const DRIZZLE_TEXT_TYPES: ReadonlyMap<number, number | undefined> = new Map([
  [types.DATE, undefined],
  [types.TIMESTAMP, undefined],
  [types.TIMESTAMPTZ, undefined],
  [types.INTERVAL, undefined],
  [1231, types.NUMERIC],
  [1115, types.TIMESTAMP],
  [1185, types.TIMESTAMPTZ],
  [1187, types.INTERVAL],
  [1182, types.DATE],
]);

type Parse = (text: string) => unknown;
/** The parser of a type read as text. */
export const keepText = (v: string) => v;

export interface TextTypes {
  /** The types of `asked` that the instance does not keep as text already: parsers to pass. */
  notKept(asked: readonly number[] | undefined): number[] | undefined;
  /** Parses, as PGlite would have, the kept columns of a result whose statement did not ask for them as text. */
  parseUnasked<T>(result: Results<T>, asked: readonly number[] | undefined, rowMode: 'array' | 'object'): Results<T>;
}

/** Makes the instance keep Drizzle's types as text; call once, after it is ready. */
export function keepDrizzleTypesAsText(db: PGlite): TextTypes {
  // What PGlite would do with each type, taken before the table changes (an array's parser looks
  // its element's up in the table when called: PGlite's _initArrayTypes).
  const usual = new Map<number, Parse>();
  for (const [oid, element] of DRIZZLE_TEXT_TYPES) {
    if (element === undefined) {
      const parse = db.parsers[oid];
      if (parse) usual.set(oid, (text) => parse(text, oid));
    } else {
      const parseElement = db.parsers[element];
      usual.set(oid, (text) => types.arrayParser(text, parseElement, oid));
    }
  }
  for (const oid of DRIZZLE_TEXT_TYPES.keys()) db.parsers[oid] = keepText;

  return {
    notKept(asked) {
      const left = asked?.filter((oid) => !DRIZZLE_TEXT_TYPES.has(oid));
      return left?.length ? left : undefined;
    },
    parseUnasked(result, asked, rowMode) {
      const fields = result.fields;
      // In object rows the last field of a name is the one kept (Object.fromEntries).
      const at = new Map<string | number, Parse>();
      fields.forEach((f, i) => {
        const parse = asked?.includes(f.dataTypeID) ? undefined : usual.get(f.dataTypeID);
        const key = rowMode === 'array' ? i : f.name;
        if (parse) at.set(key, parse);
        else at.delete(key);
      });
      if (at.size === 0) return result;
      for (const row of result.rows as Record<string | number, unknown>[])
        for (const [key, parse] of at) {
          const v = row[key];
          if (typeof v === 'string') row[key] = parse(v);
        }
      return result;
    },
  };
}
