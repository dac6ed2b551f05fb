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
// so that a size is computed once. The original's bytes are rows of company_image_chunks under
// its `version` (docs/decisions.md, Performance, Originals written in chunks): they are written
// in short statements before the image row names their version, so that an upload never holds
// the embedded database's one session for long, and nothing reads them before it does.
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
    /** The chunks of the original (company_image_chunks.version). */
    version: text('version').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind] })],
);

// The bytes of the originals, in order of `seq`. A version is read only once company_images names
// it; the chunks of a version it no longer names are deleted when it changes (those of an upload
// that failed, by that upload, or past an hour by the next upload of that image).
export const companyImageChunks = pgTable(
  'company_image_chunks',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    version: text('version').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
    writtenAt: ts('written_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.version, t.seq] })],
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
