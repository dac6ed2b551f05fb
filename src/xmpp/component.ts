// The XMPP transport of the service: an external component (XEP-0114) on @xmpp/component, which
// reconnects on its own (@xmpp/reconnect) after the server goes away.
//
// Several instances of the service share one component address. A server lets one connection
// hold it (Prosody refuses a second with `conflict`; the others keep retrying and take over when
// it drops), or spreads replies over several (ejabberd). Either way the instance that receives a
// reply is not always the one that asked, so requests go through the database: the asker writes
// the request (its id is the iq's id), whichever instance is connected sends it, whichever
// receives the reply writes it on the row, and the asker reads it there (at once when the reply
// came to itself).
import { component, type Component } from '@xmpp/component';
import xml, { type Element } from '@xmpp/xml';
import parse from '@xmpp/xml/lib/parse.js';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import { newId } from '../shared/ids.ts';
import { xmppRequests } from './xmpp.tables.ts';
import { errorCondition, XmppRequestFailed, type PresenceListener, type XmppTransport } from './transport.ts';

export interface ComponentOptions {
  service: string;
  domain: string;
  secret: string;
  database: Database;
  /** This process's name among the instances (requests it asked are marked with it). */
  instanceId: string;
  log?: FastifyBaseLogger;
  requestTimeoutMs: number;
  /** How long the server may take to acknowledge delivered stanzas. */
  ackTimeoutMs?: number;
  /** How often the connected instance looks for requests other instances asked, and askers for replies. */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
const domainOf = (jid: string) => jid.replace(/^[^@]*@/, '').replace(/\/.*$/, '');

export function createComponentTransport(o: ComponentOptions): XmppTransport {
  const db = o.database.db;
  const pollMs = o.pollMs ?? 100;
  let entity: Component | undefined;
  let online = false;
  let stopped = true;
  let pump: NodeJS.Timeout | undefined;
  const waiters = new Map<string, (reply: Element) => void>();
  const presenceListeners: PresenceListener[] = [];
  const onlineListeners: (() => Promise<void>)[] = [];
  // Presences are handled one after the other, in the order of the stream: a gateway that logs
  // out and in again must be seen in that order.
  let presences: Promise<void> = Promise.resolve();

  function onPresence(el: Element): void {
    const type = el.attrs.type;
    // Available (no type) and unavailable only: subscriptions, probes and errors say nothing of a login.
    if ((type !== undefined && type !== 'unavailable') || !el.attrs.from) return;
    const presence = { from: String(el.attrs.from), available: type === undefined };
    for (const listener of presenceListeners) {
      presences = presences
        .then(() => listener(presence))
        .catch((err) => o.log?.error({ err, xmpp: { from: presence.from } }, 'xmpp presence could not be recorded'));
    }
  }

  async function onStanza(el: Element): Promise<void> {
    const type = el.attrs.type;
    const id = el.attrs.id;
    // Only ids of the shape of ours (the replies to the acknowledgement pings are xmpp.js's own).
    if (!el.is('iq') || (type !== 'result' && type !== 'error') || !id || !/^[0-9a-f]{24}$/.test(id)) return;
    const rows = await db
      .update(xmppRequests)
      .set({ state: type, reply: el.toString(), answeredAt: sql`now()` })
      .where(and(eq(xmppRequests.id, id), inArray(xmppRequests.state, ['pending', 'sent'])))
      .returning({ id: xmppRequests.id });
    if (rows.length) waiters.get(id)?.(el);
  }

  async function sendRequest(row: { id: string; recipient: string; stanza: string }): Promise<void> {
    const iq = parse(row.stanza);
    iq.attrs.to = row.recipient;
    iq.attrs.id = row.id;
    iq.attrs.from = o.domain;
    await entity!.send(iq);
  }

  /** Sends the requests asked by instances that are not connected. */
  async function pumpOnce(): Promise<void> {
    if (!online) return;
    const claimed = await db
      .update(xmppRequests)
      .set({ state: 'sent', sentBy: o.instanceId })
      .where(
        sql`${xmppRequests.id} IN (SELECT id FROM xmpp_requests WHERE state = 'pending' AND deadline > now() ORDER BY created_at LIMIT 50 FOR UPDATE SKIP LOCKED)`,
      )
      .returning();
    for (const row of claimed) {
      try {
        await sendRequest(row);
      } catch (err) {
        o.log?.warn({ err, request: row.id }, 'xmpp request could not be sent; it will be retried');
        await db
          .update(xmppRequests)
          .set({ state: 'pending', sentBy: null })
          .where(and(eq(xmppRequests.id, row.id), eq(xmppRequests.state, 'sent')));
      }
    }
  }

  function settle(state: string, reply: Element | undefined, to: string): Element {
    if (state === 'result' && reply) return reply;
    if (state === 'error' && reply) {
      const condition = errorCondition(reply);
      throw new XmppRequestFailed('error', `${to} answered with an error${condition ? ` (${condition})` : ''}`, {
        condition,
        reply,
      });
    }
    throw new XmppRequestFailed('timeout', `no reply from ${to}`);
  }

  return {
    kind: 'component',
    connected: () => online,

    async deliver(stanzas) {
      if (!online || !entity) throw new Error('XMPP component not connected');
      for (const s of stanzas) {
        s.attrs.from = o.domain;
        await entity.send(s);
      }
      // The acknowledgement: the server answers a ping only after it has read (and routed or
      // stored) everything sent before it on this stream. Any answer will do, an error too.
      const to = domainOf(stanzas[stanzas.length - 1]?.attrs.to ?? o.domain);
      try {
        await entity.iqCaller.request(
          xml('iq', { type: 'get', to, from: o.domain }, xml('ping', { xmlns: 'urn:xmpp:ping' })),
          o.ackTimeoutMs ?? 10_000,
        );
      } catch (err) {
        if (!(err instanceof Error) || err.name !== 'StanzaError') throw err;
      }
    },

    async request(to, iq, opts = {}) {
      const timeoutMs = opts.timeoutMs ?? o.requestTimeoutMs;
      const id = newId();
      const stanza = parse(iq.toString());
      delete stanza.attrs.to;
      delete stanza.attrs.id;
      const local = new Promise<Element>((resolve) => waiters.set(id, resolve));
      try {
        await db.insert(xmppRequests).values({
          id,
          recipient: to,
          stanza: stanza.toString(),
          askedBy: o.instanceId,
          deadline: new Date(Date.now() + timeoutMs),
        });
        if (online) {
          const [mine] = await db
            .update(xmppRequests)
            .set({ state: 'sent', sentBy: o.instanceId })
            .where(and(eq(xmppRequests.id, id), eq(xmppRequests.state, 'pending')))
            .returning();
          if (mine)
            await sendRequest(mine).catch(async () => {
              await db
                .update(xmppRequests)
                .set({ state: 'pending', sentBy: null })
                .where(and(eq(xmppRequests.id, id), eq(xmppRequests.state, 'sent')));
            });
        }
        const end = Date.now() + timeoutMs;
        for (;;) {
          const here = await Promise.race([
            local,
            sleep(Math.max(0, Math.min(pollMs, end - Date.now()))).then(() => undefined),
          ]);
          if (here) return settle(here.attrs.type === 'result' ? 'result' : 'error', here, to);
          const [row] = await db
            .select({ state: xmppRequests.state, reply: xmppRequests.reply })
            .from(xmppRequests)
            .where(eq(xmppRequests.id, id));
          if (row && (row.state === 'result' || row.state === 'error'))
            return settle(row.state, row.reply ? parse(row.reply) : undefined, to);
          if (Date.now() >= end) {
            const timedOut = await db
              .update(xmppRequests)
              .set({ state: 'timeout', answeredAt: sql`now()` })
              .where(and(eq(xmppRequests.id, id), inArray(xmppRequests.state, ['pending', 'sent'])))
              .returning({ id: xmppRequests.id });
            if (timedOut.length) return settle('timeout', undefined, to);
          }
        }
      } finally {
        waiters.delete(id);
      }
    },

    onPresence(listener) {
      presenceListeners.push(listener);
    },

    onOnline(listener) {
      onlineListeners.push(listener);
    },

    async start() {
      stopped = false;
      entity = component({ service: o.service, domain: o.domain, password: o.secret });
      entity.on('error', (err: Error & { condition?: string }) => {
        // A standby instance is refused the address every second while another holds it: expected, not a warning.
        if (err.condition === 'conflict') o.log?.debug('xmpp component address held by another instance; standing by');
        else
          o.log?.warn(
            { err: { message: err.message, name: err.name, condition: err.condition } },
            'xmpp component error',
          );
      });
      entity.on('online', () => {
        online = true;
        o.log?.info({ domain: o.domain }, 'xmpp component online');
        for (const listener of onlineListeners)
          void listener().catch((err) => o.log?.warn({ err }, 'xmpp: work on connection failed'));
      });
      entity.on('offline', () => void (online = false));
      entity.on('disconnect', () => void (online = false));
      entity.on('stanza', (el: Element) => {
        if (el.is('presence')) return onPresence(el);
        void onStanza(el).catch((err) => o.log?.error({ err }, 'xmpp reply could not be recorded'));
      });
      // The first connection may fail (server down, address held by another instance): keep
      // trying, as @xmpp/reconnect does once a connection has existed.
      const connect = async (): Promise<void> => {
        while (!stopped && entity && !online) {
          // stop() may clear `entity` while a try is under way (a standby instance stopping).
          const e = entity;
          try {
            await e.start();
            return;
          } catch {
            if (e.status === 'online') return;
            await e.stop().catch(() => undefined);
            await sleep(1000);
          }
        }
      };
      void connect();
      pump = setInterval(
        () => void pumpOnce().catch((err) => o.log?.warn({ err }, 'xmpp request pump failed')),
        Math.max(pollMs * 2, 200),
      );
      pump.unref();
    },

    async stop() {
      stopped = true;
      if (pump) clearInterval(pump);
      online = false;
      const e = entity;
      entity = undefined;
      if (e) {
        e.reconnect.stop();
        await e.stop().catch(() => undefined);
      }
      // The presences received are recorded before the caller closes the database.
      await presences;
    },
  };
}
