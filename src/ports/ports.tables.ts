// State of the embedded implementations of the external systems (src/ports/<name>/embedded.ts):
// one table, one row per record of a port (an order, an account, an invoice, a subscriber...).
import { bigint, jsonb, pgTable, primaryKey, text, timestamp, index } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const portRecords = pgTable(
  'port_records',
  {
    port: text('port').notNull(),
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    /** The record it belongs to (an account's subscriptions, a tenant's subscribers...). */
    parentId: text('parent_id'),
    data: jsonb('data').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * The order of insertion: a record's children are listed in it. created_at cannot tell two
     * records written in the same clock tick apart (the embedded database's clock counts
     * milliseconds), and the ids are random.
     */
    position: bigint('position', { mode: 'number' }).generatedAlwaysAsIdentity(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.port, t.kind, t.id] }),
    index('port_records_parent_idx').on(t.port, t.kind, t.parentId),
  ],
);
