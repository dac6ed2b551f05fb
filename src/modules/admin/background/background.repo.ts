// SQL of the background-work listings: pg-boss's job table (schema pgboss, absent until a queue
// has started once) and the outbox.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { rowsOf } from '../../../db/raw.ts';
import type { Paging } from '../../../http/paging.ts';
import { jobTablesExist, outboxStateSql, type OUTBOX_STATES } from '../../../jobs/counts.ts';
import type { JOB_STATES } from '../../../jobs/queue.ts';
import type { JOB_SORT_FIELDS, OUTBOX_SORT_FIELDS } from './background.schemas.ts';

type Time = Date | string | null;
const iso = (v: Time) => (v === null ? null : new Date(v).toISOString());

/** A row of pg-boss's job table as listJobs reads it (its times as the driver gives them). */
interface JobRow {
  id: string;
  name: string;
  state: (typeof JOB_STATES)[number];
  retry_count: number;
  retry_limit: number;
  created_on: Date | string;
  start_after: Date | string;
  started_on: Time;
  completed_on: Time;
  error: string | null;
  total: number;
}

interface OutboxRow {
  id: string;
  recipient: string;
  seq: number | string;
  kind: string;
  state: (typeof OUTBOX_STATES)[number];
  attempts: number;
  last_error: string | null;
  created_at: Date | string;
  delivered_at: Time;
  next_attempt_at: Time;
}
const where = (conds: SQL[]) => (conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``);

const JOB_SORT = { createdOn: sql`created_on`, name: sql`name`, state: sql`state::text` };

export async function listJobs(
  db: Db,
  f: { states?: string[]; name?: string },
  p: Paging<(typeof JOB_SORT_FIELDS)[number]>,
) {
  if (!(await jobTablesExist(db))) return { items: [], total: 0 };
  // pg-boss's own queues (cron, internal sends) are its machinery, not the service's work.
  const conds: SQL[] = [sql`name NOT LIKE '\\_\\_pgboss%'`];
  if (f.states?.length)
    conds.push(
      sql`state::text IN (${sql.join(
        f.states.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  if (f.name) conds.push(sql`name = ${f.name}`);
  const dir = p.sortOrder === 1 ? sql`ASC` : sql`DESC`;
  const rows = rowsOf<JobRow>(
    await db.execute(sql`
    SELECT id::text, name, state::text AS state, retry_count, retry_limit, created_on, start_after, started_on, completed_on,
           CASE WHEN state::text IN ('failed', 'retry') THEN output->>'message' END AS error,
           count(*) OVER ()::int AS total
    FROM pgboss.job ${where(conds)}
    ORDER BY ${JOB_SORT[p.sortField]} ${dir}, id ${dir}
    LIMIT ${p.limit} OFFSET ${p.offset}`),
  );
  let total = rows[0]?.total ?? 0;
  if (!rows.length && p.offset > 0)
    total = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM pgboss.job ${where(conds)}`))[0]
      .n;
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      retryCount: r.retry_count,
      retryLimit: r.retry_limit,
      createdOn: new Date(r.created_on).toISOString(),
      startAfter: new Date(r.start_after).toISOString(),
      startedOn: iso(r.started_on),
      completedOn: iso(r.completed_on),
      error: r.error ?? null,
    })),
  };
}

const OUTBOX_SORT = { createdAt: sql`created_at`, recipient: sql`recipient` };

export async function listOutbox(
  db: Db,
  f: { states?: string[]; recipient?: string },
  p: Paging<(typeof OUTBOX_SORT_FIELDS)[number]>,
) {
  const conds: SQL[] = [];
  if (f.states?.length)
    conds.push(
      sql`${outboxStateSql} IN (${sql.join(
        f.states.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  if (f.recipient) conds.push(sql`recipient = ${f.recipient}`);
  const dir = p.sortOrder === 1 ? sql`ASC` : sql`DESC`;
  const rows = rowsOf<OutboxRow>(
    await db.execute(sql`
    SELECT id, recipient, seq, kind, ${outboxStateSql} AS state, attempts, last_error, created_at, delivered_at, next_attempt_at
    FROM outbox ${where(conds)}
    ORDER BY ${OUTBOX_SORT[p.sortField]} ${dir}, seq ${dir}, id ${dir}
    LIMIT ${p.limit} OFFSET ${p.offset}`),
  );
  const total = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM outbox ${where(conds)}`))[0]
    .n;
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      recipient: r.recipient,
      seq: Number(r.seq),
      kind: r.kind,
      state: r.state,
      attempts: r.attempts,
      lastError: r.last_error ?? null,
      createdAt: new Date(r.created_at).toISOString(),
      deliveredAt: iso(r.delivered_at),
      nextAttemptAt: iso(r.next_attempt_at),
    })),
  };
}
