// Tables of the applications module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import { users } from '../admin/users/users.tables.ts';

export const applications = pgTable(
  'applications',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    // NULL for the service's built-in applications (the console), which belong to no user: deleting
    // a user deletes his applications, and the console must outlive every account.
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    redirectUris: text('redirect_uris')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    // RFC 6749 2.1: a confidential client authenticates with its secret; a public client (a
    // browser application such as the console, which cannot keep one) has none and must use PKCE.
    clientType: text('client_type').$type<'confidential' | 'public'>().notNull().default('confidential'),
    // Created by the service at start (the console): the applications routes cannot change or delete it.
    builtIn: boolean('built_in').notNull().default(false),
    // NULL for public clients, which have no secret and no API key.
    secretHash: text('secret_hash'),
    // The x-svc-app-auth proof of the original interface is sha256(appSecret + password):
    // verifying it needs the secret itself, so an encrypted copy is kept (docs/decisions.md).
    secretSealed: text('secret_sealed'),
    apiKeyHash: text('api_key_hash'),
    isActive: boolean('is_active').notNull().default(true),
    creationDate: ts('creation_date').notNull().defaultNow(),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('applications_api_key_uq').on(t.apiKeyHash),
    index('applications_company_idx').on(t.companyId),
    index('applications_owner_idx').on(t.ownerId),
    check('applications_client_type', sql`${t.clientType} IN ('confidential', 'public')`),
    // A confidential client always has its secret and key; only built-in applications have no owner.
    check(
      'applications_confidential_secrets',
      sql`${t.clientType} = 'public' OR (${t.secretHash} IS NOT NULL AND ${t.secretSealed} IS NOT NULL AND ${t.apiKeyHash} IS NOT NULL)`,
    ),
    check('applications_owner', sql`${t.builtIn} OR ${t.ownerId} IS NOT NULL`),
  ],
);
