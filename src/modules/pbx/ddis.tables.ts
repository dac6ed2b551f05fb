// The DDI numbers of a CloudPBX (document 2, Phone number (DDI) of a CloudPBX): external numbers
// of the company, in E.164, unique across the platform, each assigned to at most one user (a
// subscriber of the PBX), group, welcome service or auto attendant.
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from '../../db/columns.ts';
import { users } from '../admin/users/users.tables.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { ivrs } from './ivrs.tables.ts';
import { groups } from './groups.tables.ts';

export const ddis = pgTable(
  'pbx_ddis',
  {
    /** The DDI's `phoneNumberId`. */
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    /** As the client sent it. */
    number: text('number').notNull(),
    /** Normalised with the company's country (libphonenumber-js); unique across the platform. */
    numberE164: text('number_e164').notNull(),
    /** ISO 3166-1 alpha-3 of the number. */
    country: text('country'),
    type: text('type').notNull().default('work'),
    deviceType: text('device_type').notNull().default('landline'),
    isCloudPbxDefault: boolean('is_cloudpbx_default').notNull().default(false),
    isMonitored: boolean('is_monitored').notNull().default(false),
    isVisibleByOthers: boolean('is_visible_by_others').notNull().default(true),
    /** The user it is associated to (a subscriber of this PBX), null when unassigned. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    jidIm: text('jid_im'),
    jidTel: text('jid_tel'),
    jidPassword: text('jid_password'),
    /** The hunting group this DDI is assigned to; freed with it. */
    vcpGroupId: text('vcp_group_id').references(() => groups.id, { onDelete: 'set null' }),
    /** The welcome service this DDI is the external number of (issue 26, point 6); freed with it. */
    vcpIvrId: text('vcp_ivr_id').references(() => ivrs.id, { onDelete: 'set null' }),
    vcpAutoAttendantId: text('vcp_auto_attendant_id'),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pbx_ddis_number_e164_uq').on(t.numberE164),
    index('pbx_ddis_pbx_number_idx').on(t.cloudPbxId, t.number),
    // A CloudPBX's DDIs by creation date (listDdis sortField creationDate): its pages read their ids from it.
    index('pbx_ddis_pbx_created_idx').on(t.cloudPbxId, t.creationDate, t.id),
    index('pbx_ddis_user_idx').on(t.userId),
    // One default DDI per CloudPBX.
    uniqueIndex('pbx_ddis_default_uq')
      .on(t.cloudPbxId)
      .where(sql`${t.isCloudPbxDefault}`),
  ],
);
