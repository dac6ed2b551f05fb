// The transactional outbox: events written in the transaction of the change that causes them,
// delivered after the commit by the dispatcher (src/events/dispatcher.ts).
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One stanza for one recipient. Its id is the stanza id, so a recipient can tell a redelivery. */
export const outbox = pgTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    recipient: text('recipient').notNull(),
    /** Position in the recipient's queue: the order of the commits (see outboxRecipients). */
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The event's name (the child element's name), for listings and logs. */
    kind: text('kind').notNull(),
    /** The stanza as XML, without to/from/id (set at delivery). */
    stanza: text('stanza').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at'),
  },
  (t) => [
    uniqueIndex('outbox_recipient_seq_uq').on(t.recipient, t.seq),
    index('outbox_undelivered_idx')
      .on(t.createdAt)
      .where(sql`${t.deliveredAt} IS NULL`),
  ],
);

/**
 * One row per recipient. Emitting locks it (last_seq + 1) until the transaction ends, so two
 * transactions writing to one recipient take their numbers in the order they commit. The lease
 * lets one dispatcher at a time, on any instance, deliver a recipient's queue.
 */
export const outboxRecipients = pgTable(
  'outbox_recipients',
  {
    recipient: text('recipient').primaryKey(),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    deliveredSeq: bigint('delivered_seq', { mode: 'number' }).notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
  },
  (t) => [
    index('outbox_recipients_pending_idx')
      .on(t.recipient)
      .where(sql`${t.deliveredSeq} < ${t.lastSeq}`),
  ],
);
