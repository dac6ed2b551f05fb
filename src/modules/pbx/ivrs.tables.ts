// Welcome services of a CloudPBX (document 2; routes.md createWelcome...updateOfficeHours; issue
// 26, points 6 and 7): a `welcome` (office hours in a time zone) and a `welcomeservice` (an IVR
// that uses a welcome, with its overflows (pbx_ivr_overflows, ivrs.overflows.tables.ts, whose
// destinations are foreign keys); its external number is the DDI whose `vcp_ivr_id`
// names it, pbx_ddis), one table, one id space, so
// that `GET C/ivrs/{ivrId}` reads either.
import { boolean, index, jsonb, pgTable, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { cloudPbxs } from './pbx.tables.ts';

/** Document 2, office hours: seven day arrays from Sunday, and dated exceptions (checked by office-hours.ts). */
export interface OfficeHours {
  openhours: string[][][];
  exceptions: { year: number; month: number; mday: number; periods: string[][]; open: boolean }[];
}

/** An IVR's id is its `vcpIVRId` (DDIs' `vcpIVRId`, forwards' `vcpAutoAttendantId`). */
export const ivrs = pgTable(
  'pbx_ivrs',
  {
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    /** welcome, welcomeservice. */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    /** A welcome's IANA time zone (the company's at creation). */
    timezone: text('timezone'),
    isDefaultIvr: boolean('is_default_ivr').notNull().default(false),
    /** A welcome's office hours. */
    officeHours: jsonb('office_hours').$type<OfficeHours>(),
    /**
     * A welcome service's welcome: a welcome in use cannot be deleted (409). The reference is
     * checked at the end of the statement, so a CloudPBX's delete takes both.
     */
    welcomeId: text('welcome_id').references((): AnyPgColumn => ivrs.id),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    index('pbx_ivrs_pbx_kind_idx').on(t.cloudPbxId, t.kind, t.name),
    index('pbx_ivrs_welcome_idx').on(t.welcomeId),
  ],
);
