// Groups of a CloudPBX (document 2; routes.md createGroup...getGroupForwards; issue 26, points 1
// and 2): hunting groups (members, policy, a short number of the numbering plan) and
// manager-assistant groups (managers and assistants), and the two forwards of a group.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import { ivrs } from './ivrs.tables.ts';

/** A group's id is its `vcpGroupId` (numbering plan, DDIs' `vcpGroupId`). */
export const groups = pgTable(
  'pbx_groups',
  {
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** hunting_group, manager_assistant. */
    type: text('type').notNull(),
    /** A number of the numbering plan, free among subscribers and groups; none for a manager-assistant group. */
    shortNumber: text('short_number'),
    shortNumberValue: integer('short_number_value'),
    /** parallel (default), sequential, circular: hunting groups. */
    policy: text('policy').notNull().default('parallel'),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pbx_groups_short_number_uq')
      .on(t.cloudPbxId, t.shortNumberValue)
      .where(sql`${t.shortNumberValue} IS NOT NULL`),
    index('pbx_groups_pbx_name_idx').on(t.cloudPbxId, t.name),
  ],
);

/** The subscribers of a group: `member` (hunting group), `manager` or `assistant`, in order. */
export const groupMembers = pgTable(
  'pbx_group_members',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    subscriberId: text('subscriber_id')
      .notNull()
      .references(() => subscribers.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.role, t.subscriberId] }),
    index('pbx_group_members_subscriber_idx').on(t.subscriberId),
  ],
);

/**
 * A group's forward of one type (immediate, overflow); no row: inactive, no destination. The
 * destination's references cascade, so that a forward whose destination disappears (a subscriber,
 * a group, a welcome service) goes in the same transaction (issue 26, point 2).
 */
export const groupForwards = pgTable(
  'pbx_group_forwards',
  {
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    activate: boolean('activate').notNull().default(false),
    /** internalnumber, externalnumber, autoattendant, voicemail. */
    destinationType: text('destination_type'),
    /** The short number (internal) or the E.164 number (external). */
    number: text('number'),
    noReplyDelay: integer('no_reply_delay'),
    /** The internal destination that holds `number`: a subscriber or a group. */
    targetSubscriberId: text('target_subscriber_id').references(() => subscribers.id, { onDelete: 'cascade' }),
    targetGroupId: text('target_group_id').references(() => groups.id, { onDelete: 'cascade' }),
    /** The welcome service of an `autoattendant` forward. */
    vcpAutoAttendantId: text('vcp_auto_attendant_id').references(() => ivrs.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.type] }),
    index('pbx_group_forwards_subscriber_idx').on(t.targetSubscriberId),
    index('pbx_group_forwards_group_idx').on(t.targetGroupId),
    index('pbx_group_forwards_ivr_idx').on(t.vcpAutoAttendantId),
  ],
);
