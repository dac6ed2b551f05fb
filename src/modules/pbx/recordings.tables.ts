// Call recordings of a CloudPBX (document 2; routes.md ingestRecording...deleteRecordings; issue
// 26, point 5). The audio lives behind the files port under `storageKey`; the row is the
// descriptor, with the recorded party's names and numbers copied at ingestion (the list filters
// on them as substrings, and a recording outlives its subscriber).
import { sql } from 'drizzle-orm';
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { audioColumns } from './greetings.tables.ts';

export const recordings = pgTable(
  'pbx_recordings',
  {
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    date: ts('date').notNull(),
    /** in, out. */
    direction: text('direction').notNull(),
    otherNumber: text('other_number').notNull(),
    recordedUserId: text('recorded_user_id'),
    recordedGroupId: text('recorded_group_id'),
    recordedPhoneNumberId: text('recorded_phone_number_id'),
    recordedName: text('recorded_name').notNull().default(''),
    recordedNumber: text('recorded_number').notNull().default(''),
    ...audioColumns(),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    index('pbx_recordings_pbx_date_idx').on(t.cloudPbxId, t.date, t.id),
    index('pbx_recordings_date_idx').on(t.date),
    // The list's other orders (document 2: sortField), each an index of its own so that a page,
    // or the anchors of its deep pages (src/db/long-lists.ts), is a walk of an index, not a sort of
    // every recording of the range.
    index('pbx_recordings_pbx_duration_idx').on(t.cloudPbxId, t.duration, t.id),
    index('pbx_recordings_pbx_recorded_name_idx').on(t.cloudPbxId, t.recordedName, t.id),
    index('pbx_recordings_pbx_recorded_number_idx').on(t.cloudPbxId, t.recordedNumber, t.id),
    index('pbx_recordings_pbx_other_number_idx').on(t.cloudPbxId, t.otherNumber, t.id),
    // The substring filters of the list (recordedName, recordedNumber, otherNumber: ILIKE '%…%'),
    // served by trigrams for three characters or more instead of reading the CloudPBX's recordings.
    index('pbx_recordings_recorded_name_trgm_idx').using('gin', sql`${t.recordedName} gin_trgm_ops`),
    index('pbx_recordings_recorded_number_trgm_idx').using('gin', sql`${t.recordedNumber} gin_trgm_ops`),
    index('pbx_recordings_other_number_trgm_idx').using('gin', sql`${t.otherNumber} gin_trgm_ops`),
  ],
);
