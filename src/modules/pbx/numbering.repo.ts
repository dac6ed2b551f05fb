// SQL of a CloudPBX's numbering plan (document 2, Numbering plan; routes.md getNumberingPlan,
// listFreeInternalNumbers): its allocated numbers, and its free internal numbers computed in SQL.
import { and, asc, count, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Page } from '../../http/paging.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { subscribers } from './subscribers.tables.ts';
import { devices } from './devices.tables.ts';
import { groups } from './groups.tables.ts';

/** The whole list, or the page asked for (issue 28, point 9: a plan of any size pages on the server). */
const ALL: Page = { limit: Number.MAX_SAFE_INTEGER, offset: 0 };

/** The display name of the user whose id `userId` reads ('' when none). */
const displayNameOf = (userId: SQL) => sql<string>`coalesce((${userNamesOf(userId)})->>'displayName', '')`;

// Each list is paged first and its names read for the page's rows only: a name read per row the
// offset skips cost a page deep in a plan of 5,000 subscribers some 15 ms of the database (a user
// looked up per skipped row), where the page itself costs a tenth of a millisecond.

/** The subscribers' numbers, in number order (one statement). */
export function allocatedSubscribers(exec: Executor, cloudPbxId: string, page: Page = ALL) {
  const p = exec
    .select({ shortNumber: subscribers.shortNumber, userId: subscribers.userId, v: subscribers.shortNumberValue })
    .from(subscribers)
    .where(eq(subscribers.cloudPbxId, cloudPbxId))
    .orderBy(asc(subscribers.shortNumberValue))
    .limit(page.limit)
    .offset(page.offset)
    .as('p');
  return exec
    .select({ shortNumber: p.shortNumber, userId: p.userId, userDisplayName: displayNameOf(sql`${p.userId}`) })
    .from(p)
    .orderBy(asc(p.v));
}

/** Document 2, Numbering plan `groups` (issue 26, point 1): the groups holding a number, in number order. */
export function allocatedGroups(exec: Executor, cloudPbxId: string, page: Page = ALL) {
  return exec
    .select({
      vcpGroupId: groups.id,
      groupName: groups.name,
      type: groups.type,
      shortNumber: sql<string>`${groups.shortNumber}`,
    })
    .from(groups)
    .where(and(eq(groups.cloudPbxId, cloudPbxId), isNotNull(groups.shortNumberValue)))
    .orderBy(asc(groups.shortNumberValue))
    .limit(page.limit)
    .offset(page.offset);
}

/** The SIP devices assigned to subscribers, with their subscriber's number (one statement). */
export function allocatedDevices(exec: Executor, cloudPbxId: string, page: Page = ALL) {
  const p = exec
    .select({
      shortNumber: subscribers.shortNumber,
      userId: subscribers.userId,
      macAddress: devices.macAddress,
      v: subscribers.shortNumberValue,
      id: devices.id,
    })
    .from(devices)
    .innerJoin(subscribers, eq(subscribers.id, devices.subscriberId))
    .where(eq(devices.cloudPbxId, cloudPbxId))
    .orderBy(asc(subscribers.shortNumberValue), asc(devices.id))
    .limit(page.limit)
    .offset(page.offset)
    .as('p');
  return exec
    .select({
      shortNumber: p.shortNumber,
      userId: p.userId,
      macAddress: p.macAddress,
      userDisplayName: displayNameOf(sql`${p.userId}`),
    })
    .from(p)
    .orderBy(asc(p.v), asc(p.id));
}

/** How many numbers each list of the plan holds in all (one statement), for a page's totals. */
export async function allocatedTotals(exec: Executor, cloudPbxId: string) {
  const n = (q: unknown) => sql<number>`(${q})::int`;
  const [row] = await exec
    .select({
      subscribers: n(exec.select({ c: count() }).from(subscribers).where(eq(subscribers.cloudPbxId, cloudPbxId))),
      groups: n(
        exec
          .select({ c: count() })
          .from(groups)
          .where(and(eq(groups.cloudPbxId, cloudPbxId), isNotNull(groups.shortNumberValue))),
      ),
      devices: n(
        exec
          .select({ c: count() })
          .from(devices)
          .innerJoin(subscribers, eq(subscribers.id, devices.subscriberId))
          .where(eq(devices.cloudPbxId, cloudPbxId)),
      ),
    })
    .from(sql`(select 1) as one`);
  return row;
}

/**
 * The first `limit` numbers of the ranges (disjoint, ascending; inclusive bounds) that no
 * subscriber and no group of the CloudPBX holds (issue 26: one numbering plan for both),
 * ascending. One statement that streams and stops at `limit`: the ranges in order (a nested
 * loop); in each, the gaps between the subscribers' numbers, read in order from the index
 * pbx_subscribers_short_number_uq (an index-only range scan, and a window over it with no sort),
 * then the gap after the last one (the index's maximum); each such gap is cut the same way by the
 * groups' numbers inside it (pbx_groups_short_number_uq: a range scan and a maximum per gap); each
 * free gap expanded by generate_series, bounded by `limit`. (A window over the two tables' numbers
 * merged would be simpler, but PostgreSQL sorts a UNION ALL there rather than merging its two
 * index scans: the whole range read before the first number.) The LIMIT stops the scan once
 * `limit` numbers are out, so the work is the numbers held before the `limit`-th free number
 * (plus two index probes of the groups per gap of the subscribers), plus `limit` numbers, whatever
 * the size of the plan (an empty PBX: a few index probes per range). The output order is the
 * plan's (ranges, then gaps in number order); the outer ORDER BY sorts only the numbers kept.
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
  const inRange = sql`s.cloudpbx_id = ${cloudPbxId} AND s.short_number_value BETWEEN r.lo AND r.hi`;
  const inGap = sql`gr.cloudpbx_id = ${cloudPbxId} AND gr.short_number_value BETWEEN gaps.glo AND gaps.ghi`;
  const result = await exec.execute(sql`SELECT n FROM (
      SELECT n::int AS n FROM unnest(${los}::bigint[], ${his}::bigint[]) WITH ORDINALITY AS r(lo, hi, ord)
      CROSS JOIN LATERAL (
        SELECT g.glo, g.ghi FROM (
          SELECT coalesce(lag(s.short_number_value) OVER (ORDER BY s.short_number_value)::bigint, r.lo - 1) + 1 AS glo,
            s.short_number_value::bigint - 1 AS ghi
          FROM ${subscribers} s WHERE ${inRange}
        ) g WHERE g.glo <= g.ghi
        UNION ALL
        SELECT coalesce((SELECT max(s.short_number_value) FROM ${subscribers} s WHERE ${inRange})::bigint, r.lo - 1) + 1, r.hi
      ) gaps
      CROSS JOIN LATERAL (
        SELECT f.flo, f.fhi FROM (
          SELECT coalesce(lag(gr.short_number_value) OVER (ORDER BY gr.short_number_value)::bigint, gaps.glo - 1) + 1 AS flo,
            gr.short_number_value::bigint - 1 AS fhi
          FROM ${groups} gr WHERE ${inGap}
        ) f WHERE f.flo <= f.fhi
        UNION ALL
        SELECT coalesce((SELECT max(gr.short_number_value) FROM ${groups} gr WHERE ${inGap})::bigint, gaps.glo - 1) + 1, gaps.ghi
      ) free
      CROSS JOIN LATERAL generate_series(free.flo, least(free.fhi, free.flo + ${limit}::int - 1)) AS n
      WHERE gaps.glo <= gaps.ghi AND free.flo <= free.fhi
      LIMIT ${limit}::int
    ) kept ORDER BY n`);
  return rowsOf<{ n: number }>(result).map((r) => Number(r.n));
}
