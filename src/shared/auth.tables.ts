// Tables of the platform's authentication: sessions (revocation) and the keys the instances share.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../db/columns.ts';
import { users } from '../modules/admin/users/users.tables.ts';

// One row per issued token (login, renew, OAuth access token). The JWT's jti is the id;
// revocation lives here so that every instance refuses a logged-out token.
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id'),
    kind: text('kind').$type<'login' | 'renew' | 'oauth'>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

// Secrets the instances share: the JWT signing key and the application-secret sealing key.
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
