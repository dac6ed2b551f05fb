// Tables of the users module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import { sites } from '../sites/sites.tables.ts';
import type { Role } from '../../../authz/roles.ts';
import type { AdminType, UserEmail, UserPhoneNumber } from './users.schemas.ts';

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    // Must name a company: checked as a set per statement by the triggers of migration
    // 0036_keys_checked_as_sets (docs/decisions.md, Keys checked as sets), not by a foreign key.
    companyId: text('company_id').notNull(),
    // The organisation of his company (document 3: a company's users are attached to its
    // organisation). A copy kept by triggers of migration 0003_user_organisation, in the
    // transaction that links, unlinks or moves: reads of a user need no second statement.
    organisationId: text('organisation_id'),
    loginEmail: text('login_email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    roles: text('roles')
      .array()
      .$type<Role[]>()
      .notNull()
      .default(sql`ARRAY['user']::text[]`),
    adminType: text('admin_type').$type<AdminType>(),
    siteId: text('site_id').references(() => sites.id, { onDelete: 'set null' }),
    language: text('language'),
    timezone: text('timezone'),
    // The profile fields of the original interface's createUser that the CSV import's reference
    // template carries (document 3, Bulk import: nickName, title, jobTitle, department, country,
    // email0, businessPhone0, mobilePhone0); issue 27, point 1.
    nickName: text('nick_name'),
    title: text('title'),
    jobTitle: text('job_title'),
    department: text('department'),
    country: text('country'),
    // `[{email, type}]` and `[{number, type, deviceType}]`, as the original interface gives them.
    emails: jsonb('emails')
      .$type<UserEmail[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    phoneNumbers: jsonb('phone_numbers')
      .$type<UserPhoneNumber[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isTerminated: boolean('is_terminated').notNull().default(false),
    // User values of the customisation keys: same_than_company (absent), enabled or disabled.
    customisations: jsonb('customisations')
      .notNull()
      .default(sql`'{}'::jsonb`),
    selectedAppCustomisationTemplate: text('selected_app_customisation_template'),
    // The user's XMPP address: `<id>@<XMPP_USER_DOMAIN>`, filled on insert by a trigger
    // (migration jid_im_trigger) so that every way of creating a user gets one.
    jidIm: text('jid_im'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_login_email_uq').on(sql`lower(${t.loginEmail})`),
    uniqueIndex('users_jid_im_uq').on(t.jidIm),
    index('users_company_idx').on(t.companyId, t.lastName),
    index('users_roles_idx').using('gin', t.roles),
    index('users_site_idx').on(t.siteId),
    // The name filter of listUsers (a prefix of the first or last name, ILIKE) through trigrams.
    index('users_last_name_trgm_idx').using('gin', sql`${t.lastName} gin_trgm_ops`),
    index('users_first_name_trgm_idx').using('gin', sql`${t.firstName} gin_trgm_ops`),
  ],
);
