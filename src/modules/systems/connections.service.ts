// A system's connection history (document 3, System.connectionHistory): the logins and logouts
// of its gateway on the XMPP server. The gateway, logged in as `jid_pbxpcg` with the resource
// `gateway`, sends its presence to the service's component address; the XMPP server sends the
// `unavailable` presence itself when that session ends, whatever the cause (RFC 6121, 4.6.3:
// directed presence). Decisions in docs/decisions.md, "Connection history".
import type { Executor } from '../../db/client.ts';
import type { XmppPresence } from '../../xmpp/transport.ts';
import { GATEWAY_RESOURCE } from './gateway.ts';
import * as repo from './connections.repo.ts';
import { updateSystemRow } from './systems.repo.ts';

/** How many events of a system are kept (the oldest go first). */
export const CONNECTION_HISTORY_LIMIT = 50;

export type ConnectionEvent = { eventType: 'LOGIN' | 'LOGOUT'; eventDate: string };

/** The statuses a first login of the gateway moves to `activated`. */
const ACTIVATED_BY_LOGIN = new Set(['created', 'activating']);

/**
 * Records a presence of a system's gateway: available is a LOGIN, unavailable a LOGOUT. The same
 * event as the last one is not repeated (a presence update of a connected gateway is no login).
 * A login of a `created` or `activating` system makes it `activated`. A presence of any other
 * sender or resource is no gateway's: ignored. Returns the event recorded, if any.
 */
export async function recordGatewayPresence(db: Executor, presence: XmppPresence, now: Date): Promise<ConnectionEvent | undefined> {
  const [bare, resource] = splitJid(presence.from);
  if (resource !== GATEWAY_RESOURCE) return undefined;
  return db.transaction(async (exec) => {
    const system = await repo.lockSystemOfGateway(exec, bare);
    if (!system) return undefined;
    const eventType = presence.available ? 'LOGIN' : 'LOGOUT';
    const last = await repo.lastEvent(exec, system.id);
    if (last?.eventType === eventType) return undefined;
    const seq = (last?.seq ?? 0) + 1;
    await repo.insertEvent(exec, { systemId: system.id, seq, eventType, eventDate: now });
    await repo.trimEvents(exec, system.id, seq, CONNECTION_HISTORY_LIMIT);
    if (eventType === 'LOGIN' && ACTIVATED_BY_LOGIN.has(system.status)) await updateSystemRow(exec, system.id, { status: 'activated', statusUpdatedDate: now });
    return { eventType, eventDate: now.toISOString() } as const;
  });
}

/** The bare JID (lowercased, as XMPP servers compare them) and the resource. */
function splitJid(jid: string): [string, string | undefined] {
  const slash = jid.indexOf('/');
  return slash < 0 ? [jid.toLowerCase(), undefined] : [jid.slice(0, slash).toLowerCase(), jid.slice(slash + 1)];
}

/** The connection history of each of the given systems, oldest first. */
export async function connectionHistories(exec: Executor, systemIds: string[]): Promise<Map<string, ConnectionEvent[]>> {
  const out = new Map<string, ConnectionEvent[]>(systemIds.map((id) => [id, []]));
  for (const e of await repo.eventsOf(exec, systemIds)) out.get(e.systemId)?.push({ eventType: e.eventType as ConnectionEvent['eventType'], eventDate: e.eventDate.toISOString() });
  return out;
}
