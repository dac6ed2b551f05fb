// Greetings of a CloudPBX (document 2; routes.md listGreetings...uploadGreeting,
// createGroupGreeting...updateGroupGreetingAudio; issue 26, points 3, 4 and 8). The rows hold
// what was uploaded; the audio lives behind the files port under `storageKey`, written before
// the row commits and removed after it is deleted. The default files of the nine languages are
// not rows: they are the service's own (a greeting whose scope has no active row plays its default).
import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { groups } from './groups.tables.ts';

/** Audio stored behind the files port: its key, type, size in bytes, duration in seconds. */
export const audioColumns = () => ({
  storageKey: text('storage_key').notNull(),
  mediaType: text('media_type').notNull(),
  size: integer('size').notNull(),
  duration: doublePrecision('duration').notNull(),
});

/** An uploaded greeting file (`fileId`) of one scope and greetingId. */
export const greetingFiles = pgTable(
  'pbx_greeting_files',
  {
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    /** company, group, ivr, autoattendantmenu, attendant (issue 26, point 3). */
    scope: text('scope').notNull(),
    /** The groupId, ivrId or autoAttendantMenuId of the scope; '' for company and attendant. */
    scopeId: text('scope_id').notNull().default(''),
    greetingId: text('greeting_id').notNull(),
    fileName: text('file_name').notNull(),
    isActive: boolean('is_active').notNull().default(false),
    ...audioColumns(),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    index('pbx_greeting_files_scope_idx').on(t.cloudPbxId, t.scope, t.scopeId, t.greetingId),
    uniqueIndex('pbx_greeting_files_active_uq')
      .on(t.cloudPbxId, t.scope, t.scopeId, t.greetingId)
      .where(sql`${t.isActive}`),
  ],
);

/** A hunting group's voicemail greeting: one per type (busy, unavailable). */
export const groupGreetings = pgTable(
  'pbx_group_greetings',
  {
    id: text('id').primaryKey(),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    ...audioColumns(),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pbx_group_greetings_type_uq').on(t.groupId, t.type)],
);
