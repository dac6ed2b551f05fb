// The embedded database's thread keeps Drizzle's text types (dates, timestamps, intervals and five
// array types) as text in its PGlite instance, so that Drizzle's statements pass no parsers, and
// parses them afterwards for the statements that did not ask (src/db/embedded-text-types.ts).
// Guarantee: every value reaches the caller exactly as an untouched PGlite gives it, whether the
// statement asked for those types as text (all of them, some of them) or not, in object and array
// rows, through exec, inside a transaction, and through Drizzle. Embedded only.
import { after, before, describe, it } from 'node:test';
import { PGlite, types, type QueryOptions } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { freshDatabase } from '../support/harness.ts';
import type { Database } from '../../src/db/client.ts';
import type { EmbeddedClient } from '../../src/db/embedded-client.ts';

const embedded = !process.env.TEST_DATABASE_URL;
let database: Database;
let client: EmbeddedClient;
let untouched: PGlite;

// Every kept type, NULLs, infinities, an empty array, NULL elements, and a name given twice.
const ALL = `SELECT '2026-11-30'::date AS d, '2026-11-30 12:34:56.789'::timestamp AS ts,
  '2026-11-30 12:34:56.789+01'::timestamptz AS tz, '1 day 02:03:04'::interval AS i,
  ARRAY[1.5, NULL, 2]::numeric[] AS na, ARRAY['2026-01-01 00:00:00', NULL]::timestamp[] AS tsa,
  ARRAY['2026-01-01 00:00:00+00', '-infinity']::timestamptz[] AS tza, ARRAY['1 hour']::interval[] AS ia,
  ARRAY['2026-01-01', 'infinity']::date[] AS da, '{}'::date[] AS empty, NULL::date AS nd,
  'infinity'::timestamp AS inf, 42 AS n, 'text' AS t, '2026-01-02'::date AS twice, 'later' AS twice`;
const DRIZZLE_TEXT = [1082, 1114, 1184, 1186, 1231, 1115, 1185, 1187, 1182];
const asText = (oids: number[]): QueryOptions['parsers'] => Object.fromEntries(oids.map((o) => [o, (v: string) => v]));

before(async () => {
  if (!embedded) return;
  database = await freshDatabase();
  client = (database.queueConnection as { pglite: EmbeddedClient }).pglite;
  untouched = new PGlite({ loadDataDir: await client.dumpDataDir() });
  await untouched.waitReady;
});
after(async () => {
  if (!embedded) return;
  await untouched.close();
  await database.close();
});

describe("Drizzle's text types kept as text by the embedded database", { skip: !embedded && 'embedded only' }, () => {
  const cases: [string, QueryOptions | undefined][] = [
    ['no parsers asked (object rows)', undefined],
    ['no parsers asked (array rows)', { rowMode: 'array' }],
    ["Drizzle's types asked as text (object rows)", { parsers: asText(DRIZZLE_TEXT) }],
    ["Drizzle's types asked as text (array rows)", { rowMode: 'array', parsers: asText(DRIZZLE_TEXT) }],
    ['some of them asked as text', { parsers: asText([types.TIMESTAMP, 1182]) }],
    ['a type outside them asked as text', { parsers: asText([types.INT4, types.DATE]) }],
  ];
  for (const [name, options] of cases)
    it(`every value as an untouched PGlite gives it: ${name}`, async () => {
      const got = await client.query(ALL, [], options);
      const want = await untouched.query(ALL, [], options);
      expect(got.rows).toEqual(want.rows);
      expect(got.fields).toEqual(want.fields);
    });

  it('every value as an untouched PGlite gives it: exec, and a query inside a transaction', async () => {
    const got = await client.exec(`${ALL}; ${ALL.replace('AS n,', 'AS n2,')}`);
    const want = await untouched.exec(`${ALL}; ${ALL.replace('AS n,', 'AS n2,')}`);
    expect(got.map((r) => r.rows)).toEqual(want.map((r) => r.rows));
    const inTx = await client.transaction((tx) => tx.query(ALL));
    expect(inTx.rows).toEqual((await untouched.query(ALL)).rows);
  });

  it('every value as an untouched PGlite gives it: through Drizzle (execute)', async () => {
    const got = await drizzle(client as unknown as PGlite).execute(sql.raw(ALL));
    const want = await drizzle(untouched).execute(sql.raw(ALL));
    expect(got.rows).toEqual(want.rows);
    // Drizzle reads these types as text: a kept parser must never reach it as a Date.
    expect(typeof (got.rows[0] as Record<string, unknown>).ts).toBe('string');
  });
});
