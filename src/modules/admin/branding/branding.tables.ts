// Tables of the branding module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { customType, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import { companies } from '../companies/companies.tables.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

// Document 3, avatar and banner: the uploaded original and the resized variants served, cached
// so that a size is computed once.
export const companyImages = pgTable(
  'company_images',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    mime: text('mime').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    data: bytea('data').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind] })],
);

export const companyImageVariants = pgTable(
  'company_image_variants',
  {
    companyId: text('company_id').notNull(),
    kind: text('kind').notNull(),
    size: integer('size').notNull(),
    mime: text('mime').notNull(),
    data: bytea('data').notNull(),
    sourceUpdatedAt: ts('source_updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.size] })],
);
