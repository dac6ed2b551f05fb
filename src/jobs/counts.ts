// Counts of background work by state: for the superadmin listing and the periodic log line.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rowsOf } from '../db/raw.ts';

export const OUTBOX_STATES = ['pending', 'retrying', 'delivered'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** The state of an outbox row, as SQL: delivered, waiting after failed attempts, or not tried yet. */
export const outboxStateSql = sql`CASE WHEN delivered_at IS NOT NULL THEN 'delivered' WHEN attempts > 0 THEN 'retrying' ELSE 'pending' END`;

/** Whether pg-boss has created its schema yet (it does at the queue's first start). */
export async function jobTablesExist(db: Db): Promise<boolean> {
  const r = rowsOf<{ t: string | null }>(await db.execute(sql`SELECT to_regclass('pgboss.job')::text AS t`));
  return !!r[0]?.t;
}

export async function backgroundCounts(
  db: Db,
): Promise<{ jobs: Record<string, number>; outbox: Record<string, number> }> {
  const jobs: Record<string, number> = {};
  if (await jobTablesExist(db)) {
    for (const r of rowsOf<{ state: string; n: number }>(
      await db.execute(
        sql`SELECT state::text AS state, count(*)::int AS n FROM pgboss.job WHERE name NOT LIKE '\_\_pgboss%' GROUP BY 1`,
      ),
    ))
      jobs[r.state] = r.n;
  }
  const outbox: Record<string, number> = {};
  for (const r of rowsOf<{ state: string; n: number }>(
    await db.execute(sql`SELECT ${outboxStateSql} AS state, count(*)::int AS n FROM outbox GROUP BY 1`),
  ))
    outbox[r.state] = r.n;
  return { jobs, outbox };
}
