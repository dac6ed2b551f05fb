// Delivers the outbox after commit. Each pass takes recipients with undelivered events; for each,
// it takes a lease on the recipient's row (one dispatcher at a time, across every instance,
// delivers a given recipient's queue, so his events go out in order), sends his next events in
// order through the transport, and marks them delivered once the transport has acknowledged them.
// A failed send keeps them, with a growing delay, until the transport acknowledges: nothing is
// lost while the XMPP server is away. The stanza id is the outbox id, so a redelivery after a lost
// acknowledgement carries the same id and the recipient can tell.
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import parse from '@xmpp/xml/lib/parse.js';
import type { Database } from '../db/client.ts';
import type { XmppTransport } from '../xmpp/transport.ts';
import { outbox, outboxRecipients } from './outbox.tables.ts';
import { errorMessage } from '../shared/json-values.ts';

export interface DispatcherOptions {
  database: Database;
  transport: XmppTransport;
  instanceId: string;
  log?: FastifyBaseLogger;
  pollMs: number;
  /** How long a lease on a recipient lasts (renewed while delivering). */
  leaseSeconds?: number;
  /** Events of one recipient sent per acknowledgement. */
  batch?: number;
}

export interface Dispatcher {
  start(): void;
  stop(): Promise<void>;
  /** One pass now (also what the timer runs); resolves with the number of events delivered. */
  runOnce(): Promise<number>;
  counters: { delivered: number; failedAttempts: number };
}

/** Delay before the next attempt after `attempts` failures: 0.5 s doubling, at most 10 s. */
const retryDelayMs = (attempts: number) => Math.min(10_000, 500 * 2 ** Math.max(0, attempts - 1));

export function createDispatcher(o: DispatcherOptions): Dispatcher {
  const db = o.database.db;
  const lease = o.leaseSeconds ?? 30;
  const batch = o.batch ?? 50;
  const counters = { delivered: 0, failedAttempts: 0 };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;

  async function deliverRecipient(recipient: string): Promise<number> {
    const [claimed] = await db
      .update(outboxRecipients)
      .set({ leaseOwner: o.instanceId, leaseUntil: sql`now() + make_interval(secs => ${lease})` })
      .where(
        and(
          eq(outboxRecipients.recipient, recipient),
          sql`(${outboxRecipients.leaseUntil} IS NULL OR ${outboxRecipients.leaseUntil} < now() OR ${outboxRecipients.leaseOwner} = ${o.instanceId})`,
        ),
      )
      .returning({ deliveredSeq: outboxRecipients.deliveredSeq });
    if (!claimed) return 0;
    try {
      const rows = await db
        .select()
        .from(outbox)
        .where(and(eq(outbox.recipient, recipient), gt(outbox.seq, claimed.deliveredSeq)))
        .orderBy(asc(outbox.seq))
        .limit(batch);
      // Order is kept by stopping at the first event not due yet (waiting after a failure).
      const now = Date.now();
      const due: typeof rows = [];
      for (const r of rows) {
        if (r.nextAttemptAt && r.nextAttemptAt.getTime() > now) break;
        due.push(r);
      }
      if (!due.length) return 0;
      const stanzas = due.map((r) => {
        const el = parse(r.stanza);
        el.attrs.to = r.recipient;
        el.attrs.id = r.id;
        return el;
      });
      try {
        await o.transport.deliver(stanzas);
      } catch (err) {
        counters.failedAttempts++;
        const attempts = due[0].attempts + 1;
        await db
          .update(outbox)
          .set({
            attempts: sql`${outbox.attempts} + 1`,
            lastError: errorMessage(err).slice(0, 500),
            nextAttemptAt: new Date(Date.now() + retryDelayMs(attempts)),
          })
          .where(
            inArray(
              outbox.id,
              due.map((r) => r.id),
            ),
          );
        o.log?.warn(
          { recipient, events: due.length, attempts, err: { message: errorMessage(err) } },
          'event delivery failed; it will be retried',
        );
        return 0;
      }
      const last = due[due.length - 1];
      await db.transaction(async (tx) => {
        await tx
          .update(outbox)
          .set({ deliveredAt: sql`now()`, attempts: sql`${outbox.attempts} + 1`, nextAttemptAt: null })
          .where(
            inArray(
              outbox.id,
              due.map((r) => r.id),
            ),
          );
        await tx
          .update(outboxRecipients)
          .set({ deliveredSeq: last.seq })
          .where(eq(outboxRecipients.recipient, recipient));
      });
      counters.delivered += due.length;
      return due.length;
    } finally {
      await db
        .update(outboxRecipients)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(and(eq(outboxRecipients.recipient, recipient), eq(outboxRecipients.leaseOwner, o.instanceId)));
    }
  }

  async function pass(): Promise<number> {
    if (!o.transport.connected()) return 0;
    const pending = await db
      .select({ recipient: outboxRecipients.recipient })
      .from(outboxRecipients)
      .where(
        and(
          sql`${outboxRecipients.deliveredSeq} < ${outboxRecipients.lastSeq}`,
          sql`(${outboxRecipients.leaseUntil} IS NULL OR ${outboxRecipients.leaseUntil} < now())`,
        ),
      )
      .limit(100);
    let total = 0;
    for (const { recipient } of pending) {
      total += await deliverRecipient(recipient);
    }
    return total;
  }

  const runOnce = async (): Promise<number> => {
    // One pass at a time in this process.
    while (running) await running.catch(() => undefined);
    running = pass().finally(() => void (running = undefined));
    return running;
  };

  return {
    counters,
    runOnce,
    start() {
      stopped = false;
      const loop = async () => {
        if (stopped) return;
        try {
          // Keep going while there is work, then wait for the next poll.
          while (!stopped && (await runOnce()) > 0);
        } catch (err) {
          o.log?.error({ err }, 'event dispatcher pass failed');
        }
        if (!stopped) timer = setTimeout(() => void loop(), o.pollMs);
      };
      timer = setTimeout(() => void loop(), 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
