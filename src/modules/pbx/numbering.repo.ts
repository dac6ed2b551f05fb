// SQL of a CloudPBX's numbering plan (document 2, Numbering plan; routes.md getNumberingPlan,
// listFreeInternalNumbers): its allocated numbers, and its free internal numbers computed in SQL.
import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { subscribers } from './subscribers.tables.ts';
import { devices } from './devices.tables.ts';

const displayName = sql<string>`coalesce((${userNamesOf(subscribers.userId)})->>'displayName', '')`;

/** The subscribers' numbers, in number order (one statement). */
export function allocatedSubscribers(exec: Executor, cloudPbxId: string) {
  return exec
    .select({ shortNumber: subscribers.shortNumber, userId: subscribers.userId, userDisplayName: displayName })
    .from(subscribers)
    .where(eq(subscribers.cloudPbxId, cloudPbxId))
    .orderBy(asc(subscribers.shortNumberValue));
}

/** The SIP devices assigned to subscribers, with their subscriber's number (one statement). */
export function allocatedDevices(exec: Executor, cloudPbxId: string) {
  return exec
    .select({
      shortNumber: subscribers.shortNumber,
      userId: subscribers.userId,
      macAddress: devices.macAddress,
      userDisplayName: displayName,
    })
    .from(devices)
    .innerJoin(subscribers, eq(subscribers.id, devices.subscriberId))
    .where(eq(devices.cloudPbxId, cloudPbxId))
    .orderBy(asc(subscribers.shortNumberValue), asc(devices.id));
}

/**
 * The first `limit` numbers of the ranges (disjoint, ascending; inclusive bounds) that no
 * subscriber of the CloudPBX holds, ascending. One statement: the subscribers' numbers inside
 * the ranges (an index range scan of pbx_subscribers_short_number_uq) give the gaps between
 * them; the gaps' sizes add up in order, and only the gaps before the `limit`-th free number are
 * expanded (generate_series bounded by what is still missing), so the work is the subscribers of
 * the ranges plus `limit` numbers, whatever the size of the plan.
 */
export async function freeNumbers(
  exec: Executor,
  cloudPbxId: string,
  ranges: { lo: number; hi: number }[],
  limit: number,
): Promise<number[]> {
  if (ranges.length === 0 || limit <= 0) return [];
  const los = sql.param(ranges.map((r) => r.lo));
  const his = sql.param(ranges.map((r) => r.hi));
  const result = await exec.execute(sql`WITH r AS (
      SELECT lo, hi FROM unnest(${los}::bigint[], ${his}::bigint[]) AS r(lo, hi)
    ), taken AS (
      SELECT r.lo AS rlo, r.hi AS rhi, s.short_number_value::bigint AS v
      FROM r JOIN ${subscribers} s ON s.cloudpbx_id = ${cloudPbxId} AND s.short_number_value BETWEEN r.lo AND r.hi
    ), gaps AS (
      SELECT r.lo AS glo, coalesce((SELECT min(t.v) FROM taken t WHERE t.rlo = r.lo), r.hi + 1) - 1 AS ghi FROM r
      UNION ALL
      SELECT v + 1, coalesce(lead(v) OVER (PARTITION BY rlo ORDER BY v), rhi + 1) - 1 FROM taken
    ), sized AS (
      SELECT glo, ghi, coalesce(sum(ghi - glo + 1) OVER (ORDER BY glo ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint AS before
      FROM gaps WHERE ghi >= glo
    )
    SELECT n::int AS n FROM sized, generate_series(glo, least(ghi, glo + (${limit}::bigint - before) - 1)) AS n
    WHERE before < ${limit}::bigint
    ORDER BY n`);
  return rowsOf<{ n: number }>(result).map((r) => Number(r.n));
}
