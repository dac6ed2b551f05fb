// Tables of the organisations module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import type { OrganisationVisibility } from './organisations.schemas.ts';

export const organisations = pgTable('organisations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  visibility: text('visibility').$type<OrganisationVisibility>().notNull().default('private'),
  creationDate: ts('creation_date').notNull().defaultNow(),
});
