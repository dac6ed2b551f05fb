// Tables of the customisation module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { boolean, jsonb, pgTable, text } from 'drizzle-orm/pg-core';

// Customisation templates (document 3): named sets of customisation key values.
export const customisationTemplates = pgTable('customisation_templates', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  values: jsonb('values').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
});
