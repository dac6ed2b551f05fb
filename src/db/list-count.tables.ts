// Versions of the lists whose totals each instance remembers (src/db/list-count.ts).
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { pgTable, text, bigint } from 'drizzle-orm/pg-core';

// A version per family of lists, bumped in the same transaction as any write to its tables
// (triggers of migration 0006). A list remembers its exact count with the version it was
// counted at, and counts again only when the version moved (src/db/list-count.ts).
export const listVersions = pgTable('list_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
