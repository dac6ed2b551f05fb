// Tables of the applications module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import { users } from '../admin/users/users.tables.ts';

export const applications = pgTable(
  'applications',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    redirectUris: text('redirect_uris')
      .array()
      .notNull()
      .default(sql`ARRAY[]::text[]`),
    secretHash: text('secret_hash').notNull(),
    // The x-svc-app-auth proof of the original interface is sha256(appSecret + password):
    // verifying it needs the secret itself, so an encrypted copy is kept (docs/decisions.md).
    secretSealed: text('secret_sealed').notNull(),
    apiKeyHash: text('api_key_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    creationDate: ts('creation_date').notNull().defaultNow(),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('applications_api_key_uq').on(t.apiKeyHash),
    index('applications_company_idx').on(t.companyId),
    index('applications_owner_idx').on(t.ownerId),
  ],
);
