// SQL of a system's connection history (the logins and logouts of its gateway).
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { systemConnectionEvents, systems } from './systems.tables.ts';
import type { SystemRow } from './systems.repo.ts';

export type ConnectionEventRow = typeof systemConnectionEvents.$inferSelect;

/** The system `id`, locked: its events are numbered one at a time. */
export async function lockSystem(exec: Executor, id: string): Promise<SystemRow | undefined> {
  const [row] = await exec.select().from(systems).where(eq(systems.id, id)).for('update');
  return row;
}

/** The system whose gateway account is `jid`, locked: its events are numbered one at a time. */
export async function lockSystemOfGateway(exec: Executor, jid: string): Promise<SystemRow | undefined> {
  const [row] = await exec.select().from(systems).where(eq(systems.jidPbxpcg, jid)).for('update');
  return row;
}

export async function lastEvent(exec: Executor, systemId: string): Promise<ConnectionEventRow | undefined> {
  const [row] = await exec
    .select()
    .from(systemConnectionEvents)
    .where(eq(systemConnectionEvents.systemId, systemId))
    .orderBy(desc(systemConnectionEvents.seq))
    .limit(1);
  return row;
}

export async function insertEvent(exec: Executor, e: ConnectionEventRow): Promise<void> {
  await exec.insert(systemConnectionEvents).values(e);
}

/** Drops a system's events older than its last `keep`. */
export async function trimEvents(exec: Executor, systemId: string, lastSeq: number, keep: number): Promise<void> {
  await exec
    .delete(systemConnectionEvents)
    .where(and(eq(systemConnectionEvents.systemId, systemId), lte(systemConnectionEvents.seq, lastSeq - keep)));
}

/** The events of the given systems, oldest first. */
export async function eventsOf(exec: Executor, systemIds: string[]): Promise<ConnectionEventRow[]> {
  if (systemIds.length === 0) return [];
  return exec
    .select()
    .from(systemConnectionEvents)
    .where(
      systemIds.length === 1
        ? eq(systemConnectionEvents.systemId, systemIds[0])
        : inArray(systemConnectionEvents.systemId, systemIds),
    )
    .orderBy(asc(systemConnectionEvents.systemId), asc(systemConnectionEvents.seq));
}

/** The systems whose last event is a LOGIN: their gateways are connected, as far as the history knows. */
export async function systemsLoggedIn(exec: Executor): Promise<{ systemId: string; jidPbxpcg: string; seq: number }[]> {
  return exec
    .select({
      systemId: systemConnectionEvents.systemId,
      jidPbxpcg: systems.jidPbxpcg,
      seq: systemConnectionEvents.seq,
    })
    .from(systemConnectionEvents)
    .innerJoin(systems, eq(systems.id, systemConnectionEvents.systemId))
    .where(
      and(
        eq(systemConnectionEvents.eventType, 'LOGIN'),
        sql`${systemConnectionEvents.seq} = (SELECT max(e.seq) FROM system_connection_events e WHERE e.system_id = ${systemConnectionEvents.systemId})`,
      ),
    );
}

/**
 * A system's connection history read in the authorising statement of getSystem (an extra over the
 * target row `t`), so that the answer's status and history come from one snapshot: read apart,
 * a login committed between the two statements showed its LOGIN beside the status before it.
 */
export const CONNECTION_HISTORY_EXTRA = sql.raw(
  `(SELECT COALESCE(json_agg(json_build_object('eventType', e.event_type, 'eventDate', e.event_date) ORDER BY e.seq), '[]'::json) FROM system_connection_events e WHERE e.system_id = t.id)`,
);
