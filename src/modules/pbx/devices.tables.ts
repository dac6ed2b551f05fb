// SIP devices of a CloudPBX and their programmable keys (document 2, SIP device, Programmable
// key). A device belongs to the PBX and is assigned to at most one subscriber; its SIP account
// lives on the voice platform's registrar (ports.voice, device accounts).
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import { groups } from './groups.tables.ts';

export const devices = pgTable(
  'pbx_devices',
  {
    id: text('id').primaryKey(),
    cloudPbxId: text('cloudpbx_id')
      .notNull()
      .references(() => cloudPbxs.id, { onDelete: 'cascade' }),
    description: text('description').notNull(),
    /** One form (lower-case hex pairs joined by ':'), unique across the platform; null for a generic SIP device. */
    macAddress: text('mac_address'),
    /** The device model's id (options.data.ts DEVICE_MODELS). */
    deviceTypeId: integer('device_type_id').notNull(),
    /** The subscriber it is assigned to; null when unassigned. */
    subscriberId: text('subscriber_id').references(() => subscribers.id, { onDelete: 'set null' }),
    /** The user name of its SIP account on the registrar. */
    sipUsername: text('sip_username').notNull(),
    /** The device's admin password, sealed with the server's key (src/shared/keys.ts). */
    adminPassword: text('admin_password').notNull(),
    /** The end of the granted debug session, null when none. */
    debugSessionEndDate: ts('debug_session_end_date'),
    /** Set by a reset to factory settings: inoperative until reconfigured (assigned or updated). */
    resetDate: ts('reset_date'),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pbx_devices_mac_uq')
      .on(t.macAddress)
      .where(sql`${t.macAddress} IS NOT NULL`),
    uniqueIndex('pbx_devices_sip_username_uq').on(t.sipUsername),
    index('pbx_devices_pbx_mac_idx').on(t.cloudPbxId, t.macAddress),
    index('pbx_devices_subscriber_idx').on(t.subscriberId),
  ],
);

export const programmableKeys = pgTable(
  'pbx_programmable_keys',
  {
    deviceId: text('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    keyNum: integer('key_num').notNull(),
    /** speeddial, monitor, reserved. */
    keyType: text('key_type').notNull(),
    /** service, system, admin: only `admin` keys are deleted through the API. */
    keyOwner: text('key_owner').notNull().default('admin'),
    userId: text('user_id'),
    phoneNumberId: text('phone_number_id'),
    displayName: text('display_name'),
    number: text('number'),
    /** A `service` monitor key's manager-assistant group (issue 26, point 1): goes with the group. */
    serviceGroupId: text('service_group_id').references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.keyNum] })],
);
