// Table of the Idempotency-Key answers (src/http/idempotency.ts).
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from '../db/columns.ts';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').$type<'running' | 'done'>().notNull(),
    statusCode: integer('status_code'),
    headers: jsonb('headers'),
    body: text('body'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_created_idx').on(t.createdAt)],
);
