// The overflows of a welcome service (document 2, Welcome service: openHoursOverflow and
// closedHoursOverflow; issue 26, point 6): one row per service and kind of hours. The
// destination is a foreign key of its kind, each cascading: when a subscriber, a hunting group, a
// welcome service or a welcome is deleted, the overflows pointing to it go in the same
// transaction (as the groups' forwards do, pbx_group_forwards), so that no overflow points to
// nothing; the service then answers that overflow as null (docs/decisions.md, Welcome services).
// In its own file because pbx_groups (groups.tables.ts) already references pbx_ivrs.
import { index, pgTable, primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { ivrs } from './ivrs.tables.ts';
import { groups } from './groups.tables.ts';
import { subscribers } from './subscribers.tables.ts';

export const ivrOverflows = pgTable(
  'pbx_ivr_overflows',
  {
    ivrId: text('ivr_id')
      .notNull()
      .references(() => ivrs.id, { onDelete: 'cascade' }),
    /** `open` (openHoursOverflow) or `closed` (closedHoursOverflow). */
    hours: text('hours').notNull(),
    /** user, hunting_group, auto_attendant, voicemail, closed_hours, office_hours. */
    type: text('type').notNull(),
    /** user, voicemail (a subscriber's): the subscriber (its phoneNumberId). */
    targetSubscriberId: text('target_subscriber_id').references(() => subscribers.id, { onDelete: 'cascade' }),
    /** hunting_group, voicemail (a hunting group's): the group. */
    targetGroupId: text('target_group_id').references(() => groups.id, { onDelete: 'cascade' }),
    /** auto_attendant (another welcome service), closed_hours and office_hours (a welcome). */
    targetIvrId: text('target_ivr_id').references((): AnyPgColumn => ivrs.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.ivrId, t.hours] }),
    index('pbx_ivr_overflows_subscriber_idx').on(t.targetSubscriberId),
    index('pbx_ivr_overflows_group_idx').on(t.targetGroupId),
    index('pbx_ivr_overflows_ivr_idx').on(t.targetIvrId),
  ],
);
