// Tables of the sites module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import { companies } from '../companies/companies.tables.ts';
import type { SiteStatus } from './sites.schemas.ts';

export const sites = pgTable(
  'sites',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    status: text('status').$type<SiteStatus>().notNull().default('active'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    statusUpdatedDate: ts('status_updated_date').notNull().defaultNow(),
  },
  (t) => [index('sites_company_idx').on(t.companyId), index('sites_status_idx').on(t.status)],
);
