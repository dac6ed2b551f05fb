// Issue 6, point 10: the embedded database runs its prepared statements with EXECUTE and the
// values as literals (src/db/literal.ts). Any value must reach the statement exactly as a bound
// parameter would: otherwise a crafted string could change the statement or a value be altered.
// Property-based: fast-check draws strings (any Unicode, quotes, backslashes, braces), arrays of
// them (with NULL elements, nested), dates and nulls, and compares both paths on PGlite.
// PGlite's own: the PostgreSQL pass of .ci/run skips it (SKIP_ENGINE_FREE).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import fc from 'fast-check';
import { PGlite } from '@electric-sql/pglite';
import { expect } from '../support/expect.ts';
import { sqlLiteral, textArrayLiteral } from '../../src/db/literal.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

let pglite: PGlite;

beforeAll(async () => {
  if (SKIP_ENGINE_FREE) return;
  pglite = new PGlite();
  await pglite.exec(`PREPARE lit_text AS SELECT $1::text AS v;
    PREPARE lit_array AS SELECT $1::text[] AS v;
    PREPARE lit_array2 AS SELECT $1::text[][] AS v;
    PREPARE lit_ts AS SELECT (extract(epoch FROM $1::timestamptz) * 1000)::float8 AS v;
    PREPARE lit_int AS SELECT $1::int AS v;
    PREPARE lit_bool AS SELECT $1::boolean AS v;`);
});
afterAll(() => pglite?.close());

/** The value the statement gets through EXECUTE with the literal, and through a bound parameter. */
async function bothPaths(statement: string, cast: string, value: unknown): Promise<[unknown, unknown]> {
  const literal = sqlLiteral(value);
  if (literal === undefined) throw new Error(`no literal for ${JSON.stringify(value)}`);
  const viaLiteral = (await pglite.query<{ v: unknown }>(`EXECUTE ${statement}(${literal})`)).rows[0].v;
  const viaBound = (await pglite.query<{ v: unknown }>(`SELECT $1::${cast} AS v`, [value])).rows[0].v;
  return [viaLiteral, viaBound];
}

// PostgreSQL text holds no NUL character: no path carries one (see the last test).
const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\0'));
const tricky = fc.constantFrom(
  "'",
  "''",
  '\\',
  "\\'",
  '"',
  '{',
  '}',
  ',',
  'NULL',
  'null',
  ' ',
  '$1',
  ');DROP TABLE x;--',
  "E'\\\\'",
  '\u00e9',
  '\u{1F600}',
);
const anyText = fc.oneof(
  text,
  tricky,
  fc.array(tricky, { maxLength: 6 }).map((a) => a.join('')),
);
const RUNS = { numRuns: 300 };

describe('SQL literals of the embedded database (fast-check, PGlite)', { skip: SKIP_ENGINE_FREE }, () => {
  it('any string reaches the statement as the bound parameter would', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (s) => {
        const [a, b] = await bothPaths('lit_text', 'text', s);
        expect(a).toBe(s);
        expect(a).toBe(b);
      }),
      RUNS,
    );
  });

  it('any array of strings and NULLs, and any two-dimensional one, arrives element by element', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(anyText, { nil: null }), { maxLength: 6 }), async (arr) => {
        const [a, b] = await bothPaths('lit_array', 'text[]', arr);
        expect(a).toEqual(arr);
        expect(a).toEqual(b);
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 3 })
          .chain((n) => fc.array(fc.array(anyText, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 3 })),
        async (arr) => {
          const literal = sqlLiteral(arr)!;
          const viaLiteral = (await pglite.query<{ v: unknown }>(`EXECUTE lit_array2(${literal})`)).rows[0].v;
          expect(viaLiteral).toEqual(arr);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("the array text of any strings, bound as one text cast to text[], arrives element by element (the import's logins and ids)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(anyText, { maxLength: 8 }), async (arr) => {
        const viaText = (await pglite.query<{ v: unknown }>('SELECT $1::text[] AS v', [textArrayLiteral(arr)])).rows[0]
          .v;
        expect(viaText).toEqual(arr);
      }),
      RUNS,
    );
  });

  it('any date, null, integer and boolean arrives as the bound parameter would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        async (d) => {
          // Compared as the instant the database holds (in milliseconds): PGlite's own reading of
          // a timestamp back into a Date misreads years below 100, on both paths.
          const literal = sqlLiteral(d)!;
          const viaLiteral = (await pglite.query<{ v: number }>(`EXECUTE lit_ts(${literal})`)).rows[0].v;
          const viaBound = (
            await pglite.query<{ v: number }>('SELECT (extract(epoch FROM $1::timestamptz) * 1000)::float8 AS v', [d])
          ).rows[0].v;
          expect(viaLiteral).toBe(d.getTime());
          expect(viaLiteral).toBe(viaBound);
        },
      ),
      RUNS,
    );
    expect(await bothPaths('lit_text', 'text', null)).toEqual([null, null]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.boolean(), async (n, flag) => {
        expect(await bothPaths('lit_int', 'int', n)).toEqual([n, n]);
        expect(await bothPaths('lit_bool', 'boolean', flag)).toEqual([flag, flag]);
      }),
      { numRuns: 100 },
    );
  });

  it('a value no literal can hold (NUL, invalid date) has none; the database then refuses it through the bound path', async () => {
    expect(sqlLiteral('a\0b')).toBeUndefined();
    expect(sqlLiteral(['ok', 'a\0b'])).toBeUndefined();
    expect(sqlLiteral(new Date(Number.NaN))).toBeUndefined();
    const database: Database = openDatabase({});
    try {
      await expect(database.prepared('lit_nul', 'SELECT $1::text AS v', ['a\0b'])).rejects.toThrow();
      expect(await database.prepared('lit_nul', 'SELECT $1::text AS v', ["it's"])).toEqual([{ v: "it's" }]);
    } finally {
      await database.close();
    }
  });
});
