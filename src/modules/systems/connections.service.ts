// A system's connection history (document 3, System.connectionHistory): the logins and logouts
// of its gateway on the XMPP server. The gateway, logged in as `jid_pbxpcg` with the resource
// `gateway`, sends its presence to the service's component address; the XMPP server sends the
// `unavailable` presence itself when that session ends, whatever the cause (RFC 6121, 4.6.3:
// directed presence). Decisions in docs/decisions.md, "Connection history".
import type { Executor } from '../../db/client.ts';
import pLimit from 'p-limit';
import xml from '@xmpp/xml';
import { XmppRequestFailed, type XmppPresence, type XmppTransport } from '../../xmpp/transport.ts';
import { GATEWAY_RESOURCE } from './gateway.ts';
import * as repo from './connections.repo.ts';
import { updateSystemRow, type SystemRow } from './systems.repo.ts';
import { field, isOneOf } from '../../shared/json-values.ts';

/** How many events of a system are kept (the oldest go first). */
export const CONNECTION_HISTORY_LIMIT = 50;

export const CONNECTION_EVENT_TYPES = ['LOGIN', 'LOGOUT'] as const;
export type ConnectionEvent = { eventType: (typeof CONNECTION_EVENT_TYPES)[number]; eventDate: string };

/** The statuses a first login of the gateway moves to `activated`. */
const ACTIVATED_BY_LOGIN = new Set(['created', 'activating']);

/**
 * Records a presence of a system's gateway: available is a LOGIN, unavailable a LOGOUT. The same
 * event as the last one is not repeated (a presence update of a connected gateway is no login).
 * A login of a `created` or `activating` system makes it `activated`. A presence of any other
 * sender or resource is no gateway's: ignored. Returns the event recorded, if any.
 */
export async function recordGatewayPresence(
  db: Executor,
  presence: XmppPresence,
  now: Date,
): Promise<ConnectionEvent | undefined> {
  const [bare, resource] = splitJid(presence.from);
  if (resource !== GATEWAY_RESOURCE) return undefined;
  return db.transaction(async (exec) => {
    const system = await repo.lockSystemOfGateway(exec, bare);
    return system ? record(exec, system, presence.available ? 'LOGIN' : 'LOGOUT', now) : undefined;
  });
}

/** Adds the event unless it is the last one (or, with `ifLastSeq`, unless another came meanwhile). */
async function record(
  exec: Executor,
  system: SystemRow,
  eventType: ConnectionEvent['eventType'],
  now: Date,
  ifLastSeq?: number,
): Promise<ConnectionEvent | undefined> {
  const last = await repo.lastEvent(exec, system.id);
  if (last?.eventType === eventType) return undefined;
  if (ifLastSeq !== undefined && last?.seq !== ifLastSeq) return undefined;
  const seq = (last?.seq ?? 0) + 1;
  await repo.insertEvent(exec, { systemId: system.id, seq, eventType, eventDate: now });
  await repo.trimEvents(exec, system.id, seq, CONNECTION_HISTORY_LIMIT);
  if (eventType === 'LOGIN' && ACTIVATED_BY_LOGIN.has(system.status))
    await updateSystemRow(exec, system.id, { status: 'activated', statusUpdatedDate: now });
  return { eventType, eventDate: now.toISOString() };
}

/** How long the check of a gateway's session waits for its answer. */
const PING_TIMEOUT_MS = 5000;

/**
 * When this instance's connection to the XMPP server opens: the gateways the history shows
 * connected may have logged out while no instance was connected (their unavailable presence
 * then reached no one). Each is sent a ping (XEP-0199) at `<jid_pbxpcg>/gateway`; when the
 * server answers that this session does not exist (service-unavailable) a LOGOUT is recorded,
 * unless an event of the gateway came in the meantime. Any other outcome changes nothing.
 * Returns how many LOGOUTs were recorded.
 */
export async function checkConnectedGateways(db: Executor, xmpp: XmppTransport, now: () => Date): Promise<number> {
  const open = await repo.systemsLoggedIn(db);
  const limit = pLimit(8);
  const gone = await Promise.all(
    open.map((s) =>
      limit(async () => {
        try {
          await xmpp.request(
            `${s.jidPbxpcg}/${GATEWAY_RESOURCE}`,
            xml('iq', { type: 'get' }, xml('ping', { xmlns: 'urn:xmpp:ping' })),
            { timeoutMs: PING_TIMEOUT_MS },
          );
          return false;
        } catch (err) {
          if (!(err instanceof XmppRequestFailed) || err.reason !== 'error' || err.condition !== 'service-unavailable')
            return false;
        }
        return db.transaction(async (exec) => {
          const system = await repo.lockSystem(exec, s.systemId);
          return !!system && !!(await record(exec, system, 'LOGOUT', now(), s.seq));
        });
      }),
    ),
  );
  return gone.filter(Boolean).length;
}

/** The bare JID (lowercased, as XMPP servers compare them) and the resource. */
function splitJid(jid: string): [string, string | undefined] {
  const slash = jid.indexOf('/');
  return slash < 0 ? [jid.toLowerCase(), undefined] : [jid.slice(0, slash).toLowerCase(), jid.slice(slash + 1)];
}

/** The connection history of each of the given systems, oldest first. */
/** The history as CONNECTION_HISTORY_EXTRA reads it, its dates as the API writes them. */
export function historyFromExtra(value: unknown): ConnectionEvent[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((e) => {
    const eventType = field(e, 'eventType');
    return isOneOf(CONNECTION_EVENT_TYPES, eventType)
      ? [{ eventType, eventDate: new Date(String(field(e, 'eventDate'))).toISOString() }]
      : [];
  });
}

export async function connectionHistories(
  exec: Executor,
  systemIds: string[],
): Promise<Map<string, ConnectionEvent[]>> {
  const out = new Map<string, ConnectionEvent[]>(systemIds.map((id) => [id, []]));
  for (const e of await repo.eventsOf(exec, systemIds))
    out.get(e.systemId)?.push({ eventType: e.eventType, eventDate: e.eventDate.toISOString() });
  return out;
}
