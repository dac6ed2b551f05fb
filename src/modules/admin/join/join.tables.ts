// Tables of the join module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import { companies } from '../companies/companies.tables.ts';
import type { InvitationStatus } from './join.schemas.ts';

// Document 3, join-company links: a link id lets a user create his account in the company.
export const joinCompanyLinks = pgTable(
  'join_company_links',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    createdByAdminId: text('created_by_admin_id'),
    description: text('description'),
    expirationDate: ts('expiration_date'),
    isEnabled: boolean('is_enabled').notNull().default(true),
    maxNumberUsers: integer('max_number_users'),
    nbUsersRegistered: integer('nb_users_registered').notNull().default(0),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [index('join_links_company_idx').on(t.companyId)],
);

// Join invitations (route table): the invited user receives the role the invitation carries;
// the first accepted administrator invitation makes an initializing company active.
export const joinInvitations = pgTable(
  'join_invitations',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    email: text('email').notNull(),
    invitedToBeCompanyAdmin: boolean('invited_to_be_company_admin').notNull().default(false),
    invitedToBeBpAdmin: boolean('invited_to_be_bp_admin').notNull().default(false),
    invitedToBeBpFinance: boolean('invited_to_be_bp_finance').notNull().default(false),
    tokenHash: text('token_hash').notNull(),
    status: text('status').$type<InvitationStatus>().notNull().default('pending'),
    createdByAdminId: text('created_by_admin_id'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    expirationDate: ts('expiration_date').notNull(),
    acceptedDate: ts('accepted_date'),
    acceptedUserId: text('accepted_user_id'),
  },
  (t) => [index('join_invitations_company_idx').on(t.companyId)],
);
