// Tables of the authentication module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';

export const loginFailures = pgTable(
  'login_failures',
  {
    account: text('account').notNull(),
    address: text('address').notNull(),
    count: integer('count').notNull(),
    windowStart: ts('window_start').notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);
