// Subscribers of a CloudPBX (document 2; routes.md createSubscriber...): a user of the PBX's
// company with a short number of its numbering plan. The subscriber's id is its `phoneNumberId`.
// The row copies neither the company nor the site: the relations read them on the CloudPBX.
import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { users } from '../admin/users/users.tables.ts';
import { cloudPbxs } from './pbx.tables.ts';

/** Document 2, update subscriber overflow: busy/no-reply and unavailable overflow, and its delay. */
export interface SubscriberOverflow {
  value: 'default' | 'custom' | 'disabled';
  unavailableOverflow: 'default' | 'custom' | 'disabled';
  noReplyDelay: number;
}

export const subscribers = pgTable(
  'pbx_subscribers',
  {
    /** The subscriber's `phoneNumberId`. */
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    /** One subscriber per user (issue 25, point 4). */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Inside the PBX's numbering plan, unique in the PBX (allocated numbers: subscribers and groups). */
    shortNumber: text('short_number').notNull(),
    /** Its numeric value, for the numbering plan's free numbers computed in SQL. */
    shortNumberValue: integer('short_number_value').notNull(),
    /** The subscriber on the voice platform (ports.voice). */
    vcpSubscriberId: text('vcp_subscriber_id').notNull(),
    customSipHeader1: text('custom_sip_header_1'),
    customSipHeader2: text('custom_sip_header_2'),
    /** Barring: one permission id and one restriction id (restriction `default`: the PBX's). */
    barringPermission: text('barring_permission').notNull().default('int_nat_local'),
    barringRestriction: text('barring_restriction').notNull().default('default'),
    externalCallForward: text('external_call_forward').notNull().default('company_policy'),
    overflow: jsonb('overflow')
      .$type<SubscriberOverflow>()
      .notNull()
      .default(sql`'{"value":"default","unavailableOverflow":"default","noReplyDelay":20}'::jsonb`),
    recordingProfile: text('recording_profile').notNull().default('none'),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pbx_subscribers_user_uq').on(t.userId),
    uniqueIndex('pbx_subscribers_short_number_uq').on(t.cloudPbxId, t.shortNumberValue),
  ],
);
