// The statements of the hot path (`database.prepared`) always reuse the plan they were prepared
// with: PostgreSQL would otherwise plan a list page again on every request, which cost more than
// running it (docs/decisions.md, Performance). Every other statement keeps per-value plans, and
// a hot statement that fails leaves the session as it was.
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';

const held = databaseForFile();

const mode = async () => {
  const r = (await held.database.db.execute(sql`SELECT current_setting('plan_cache_mode') AS m`)) as unknown as {
    rows: { m: string }[];
  };
  return r.rows[0].m;
};

describe('prepared statements: one plan for every value', () => {
  const forced = [
    [
      'generic',
      'force_generic_plan',
      'a hot statement whose cost varies with its values (plan generic) runs with generic plans; other statements with per-value plans, before and after it',
    ],
    [
      'per value',
      'force_custom_plan',
      'a hot statement planned per value (plan per value: a substring filter) runs with per-value plans; the session keeps its own mode',
    ],
  ] as const;
  for (const [plan, setting, title] of forced)
    it(title, async () => {
      const { database } = held;
      expect(await mode()).toBe('auto');
      const [row] = await database.prepared<{ m: string }>(
        `test_plan_${plan.replace(' ', '_')}`,
        `SELECT current_setting('plan_cache_mode') AS m, $1::text AS v`,
        ['x'],
        { plan },
      );
      expect(row.m).toBe(setting);
      expect(await mode()).toBe('auto');
    });

  it("a lookup by key without the option settles on its generic plan after five executions (embedded: no SET around it; the server's hot sessions force it)", async () => {
    const { database } = held;
    for (let i = 0; i < 8; i++)
      await database.prepared('test_plan_lookup', `SELECT id FROM companies WHERE id = $1::text`, [`id${i}`]);
    if (database.kind !== 'embedded') return; // pg_prepared_statements is per session: the server's pool has several
    const r = (await database.db.execute(
      sql`SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'test_plan_lookup'`,
    )) as unknown as { rows: { generic_plans: number; custom_plans: number }[] };
    expect(Number(r.rows[0].generic_plans)).toBeGreaterThanOrEqual(3);
    expect(Number(r.rows[0].custom_plans)).toBeLessThanOrEqual(5);
  });

  it('values come back typed as a plain query gives them (numbers, booleans, JSON, arrays, NULL)', async () => {
    const text = `SELECT $1::int + 1 AS n, $2::boolean AS b, json_build_object('k', $3::text) AS j, ARRAY[$3::text] AS a, NULL::text AS z`;
    for (let i = 0; i < 7; i++) {
      const [row] = await held.database.prepared<Record<string, unknown>>('test_plan_types', text, [i, true, 'v']);
      expect(row).toEqual({ n: i + 1, b: true, j: { k: 'v' }, a: ['v'], z: null });
    }
  });

  it('a hot statement that fails is refused as bad input, and the session keeps per-value plans', async () => {
    const failing = held.database.prepared('test_plan_fail', `SELECT 1 / $1::int AS q`, [0], { plan: 'generic' });
    await expect(failing).rejects.toThrow(/division by zero/);
    expect(await mode()).toBe('auto');
    const [row] = await held.database.prepared<{ q: number }>('test_plan_fail', `SELECT 1 / $1::int AS q`, [1]);
    expect(row.q).toBe(1);
  });
});
