// Table of the phone numbers a telephone system reports (document 3, Phone numbers of a system).
// A number holds no company nor site of its own: the relations of the policy read its system's
// (TARGETS.systemPhoneNumber.parent, src/authz/targets.ts).
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../admin/users/users.tables.ts';
import { systems } from './systems.tables.ts';
import type { DEVICE_TYPES, PHONE_TYPES } from './phone-numbers.schemas.ts';

export const systemPhoneNumbers = pgTable(
  'system_phone_numbers',
  {
    id: text('id').primaryKey(),
    systemId: text('system_id')
      .notNull()
      .references(() => systems.id, { onDelete: 'cascade' }),
    pbxId: text('pbx_id').notNull(),
    pbxUserId: text('pbx_user_id'),
    shortNumber: text('short_number').notNull(),
    internalNumber: text('internal_number').notNull(),
    voiceMailNumber: text('voice_mail_number'),
    number: text('number'),
    numberE164: text('number_e164'),
    country: text('country'),
    type: text('type').$type<(typeof PHONE_TYPES)[number]>().notNull().default('work'),
    deviceType: text('device_type').$type<(typeof DEVICE_TYPES)[number]>().notNull().default('landline'),
    deviceName: text('device_name'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    isFromSystem: boolean('is_from_system').notNull().default(true),
    isMonitored: boolean('is_monitored').notNull().default(false),
    isVisibleByOthers: boolean('is_visible_by_others').notNull().default(true),
    isNomadic: boolean('is_nomadic').notNull().default(false),
    isVoipNomadic: boolean('is_voip_nomadic').notNull().default(false),
    isNomadicModeInitialized: boolean('is_nomadic_mode_initialized').notNull().default(false),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    jidIm: text('jid_im'),
    jidTel: text('jid_tel'),
    jidPassword: text('jid_password'),
    svcNumber: text('svc_number'),
    userType: text('user_type'),
    companyPrefix: text('company_prefix'),
  },
  (t) => [
    uniqueIndex('system_phone_numbers_short_uq').on(t.systemId, t.shortNumber),
    index('system_phone_numbers_user_idx').on(t.userId),
  ],
);
