// Tables of the oauth module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import { users } from '../../admin/users/users.tables.ts';
import { applications } from '../../applications/applications.tables.ts';

export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  appId: text('app_id')
    .notNull()
    .references(() => applications.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  scope: text('scope'),
  codeChallenge: text('code_challenge'),
  codeChallengeMethod: text('code_challenge_method'),
  expiresAt: ts('expires_at').notNull(),
});

export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    appId: text('app_id')
      .notNull()
      .references(() => applications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id'),
    scope: text('scope'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('oauth_refresh_user_idx').on(t.userId)],
);
