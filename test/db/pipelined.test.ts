// docs/decisions.md, Performance, "Pipelined hot statements" (issue 24, point 5): on a server the
// statements of the hot path (`Database.prepared`) go to sessions that pipeline them
// (src/db/pipelined.ts, another driver than the general pool's). What they answer must be what the
// general pool answers for the same statement, each caller must get its own answer however many
// are in flight on one connection, a failing statement must fail alone, a slow list page must not
// hold up the lookups of other requests, and the statement limit holds on these sessions too.
import { describe, it } from 'node:test';
import pg from 'pg';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import { pipelined } from '../../src/db/pipelined.ts';
import { errorOutcome } from '../../src/errors/handler.ts';

const file = databaseForFile();

// Every type the hot statements answer: their JSON value, the extras' columns (counts, text,
// booleans, json, arrays, dates), and NULL.
const TYPED = `SELECT json_build_object('k', $1::text, 'n', 2, 'b', true, 'nested', json_build_object('d', now()::date)) AS a,
  $1::text AS t, 42::int AS i4, 9007199254740993::int8 AS i8, 12.50::numeric AS num, true AS yes, NULL::text AS nothing,
  ARRAY['x', 'y']::text[] AS arr, ARRAY[1, 2]::int[] AS ints, '2026-11-29T10:00:00.123Z'::timestamptz AS at,
  '{"a": [1, {"b": null}]}'::jsonb AS doc, '\\x0102'::bytea AS bytes`;

describe('pipelined hot statements', () => {
  it('answer every type as node-postgres answered it to the same callers (json, text, integers, int8 and numeric as text, booleans, NULL, arrays, timestamps as Dates, bytea)', async (t) => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return t.skip('a PostgreSQL server only (TEST_DATABASE_URL)');
    const reference = new pg.Client({ connectionString: url });
    await reference.connect();
    try {
      const { rows } = await reference.query({ name: 'typed_answer', text: TYPED, values: ['v'] });
      for (const plan of [undefined, 'generic', 'per value'] as const) {
        const [hot] = await file.database.prepared<Record<string, unknown>>('typed_answer', TYPED, ['v'], { plan });
        expect(hot, String(plan)).toEqual(rows[0]);
        expect([hot.i8, hot.num, hot.at instanceof Date]).toEqual(['9007199254740993', '12.50', true]);
      }
    } finally {
      await reference.end();
    }
  });

  it('give each of 200 statements in flight at once its own answer, in any order of arrival', async () => {
    const { database } = file;
    const text = 'SELECT $1::text AS v, pg_backend_pid() AS pid';
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        database.prepared<{ v: string; pid: number }>('echo_value', text, [`value-${i}`]),
      ),
    );
    expect(answers.map((r) => r[0].v)).toEqual(Array.from({ length: 200 }, (_, i) => `value-${i}`));
    if (database.kind === 'server')
      // On the server they went over the lookups' one connection (DATABASE_LOOKUP_CONNECTIONS=1), one behind the other.
      expect(new Set(answers.map((r) => r[0].pid)).size).toBe(1);
  });

  it('fail a statement alone: the statements pipelined around it answer, and its error keeps its SQLSTATE (bad input is 400)', async () => {
    const { database } = file;
    const text = 'SELECT $1::int AS n';
    const outcomes = await Promise.allSettled(
      ['1', '2', 'not a number', '4'].map((v) => database.prepared<{ n: number }>('to_integer', text, [v])),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value[0].n] : []))).toEqual([1, 2, 4]);
    const failed = outcomes[2];
    expect(failed.status === 'rejected' && errorOutcome(failed.reason).errorCode).toBe(400);
  });

  it('keep a slow list page off the connection of the lookups: a lookup sent after it answers before it', async (t) => {
    const { database } = file;
    if (database.kind !== 'server') return t.skip('the embedded database runs one statement at a time');
    const order: string[] = [];
    const slow = database
      .prepared('slow_page', 'SELECT pg_sleep($1::float8) AS slept', ['2'], { plan: 'generic' })
      .then(() => order.push('list page'));
    const lookup = database.prepared('quick_lookup', 'SELECT $1::text AS v', ['x']).then(() => order.push('lookup'));
    await Promise.all([slow, lookup]);
    expect(order).toEqual(['lookup', 'list page']);
  });

  it('cancel a statement past the statement limit on these sessions too (SQLSTATE 57014)', async (t) => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return t.skip('a PostgreSQL server only (TEST_DATABASE_URL)');
    const sessions = pipelined({
      url,
      connections: 1,
      connectTimeoutSeconds: 5,
      statementTimeoutMs: 200,
      plan: 'force_generic_plan',
    });
    try {
      const slow = sessions.run('SELECT pg_sleep(5)', []);
      await expect(slow).rejects.toMatchObject({ code: '57014' });
      // The connection serves the next statement.
      expect(await sessions.run<{ v: string }>('SELECT $1::text AS v', ['after'])).toEqual([{ v: 'after' }]);
    } finally {
      await sessions.end();
    }
  });
});
