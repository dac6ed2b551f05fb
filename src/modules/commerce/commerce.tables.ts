// Tables of commerce (document 1): offers and subscriptions. Document 3 needs them already; the commerce module will own them.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';

// Commerce (document 1): offers and subscriptions. Document 3 needs them already: every new
// company receives a subscription to the default offer. The commerce issue extends them.
export const offers = pgTable(
  'offers',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    technicalDescription: text('technical_description'),
    profileId: text('profile_id'),
    profileName: text('profile_name'),
    isDefault: boolean('is_default').notNull().default(false),
    canBeSold: boolean('can_be_sold').notNull().default(false),
    isDemo: boolean('is_demo').notNull().default(false),
    businessModel: text('business_model'),
    isExclusive: boolean('is_exclusive').notNull().default(false),
    isPrepaid: boolean('is_prepaid').notNull().default(false),
    prepaidDuration: integer('prepaid_duration'),
    autoSubscribe: boolean('auto_subscribe').notNull().default(false),
    groupName: text('group_name'),
    erpReference: text('erp_reference'),
    offerReference: text('offer_reference'),
    billingOfferId: text('billing_offer_id'),
    billingProductRatePlanId: text('billing_product_rate_plan_id'),
    billingProductRatePlanChargeId: text('billing_product_rate_plan_charge_id'),
    provisioningNeeded: jsonb('provisioning_needed').notNull().default(sql`'[]'::jsonb`),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('offers_default_uq').on(t.isDefault).where(sql`${t.isDefault}`)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull().references(() => companies.id),
    offerId: text('offer_id').notNull().references(() => offers.id),
    status: text('status').notNull().default('active'),
    isDefault: boolean('is_default').notNull().default(false),
    syncOngoing: boolean('sync_ongoing').notNull().default(false),
    maxNumberUsers: integer('max_number_users'),
    updatingMaxNumberUsers: integer('updating_max_number_users'),
    purchaseOrderNumber: text('purchase_order_number'),
    createdBy: jsonb('created_by'),
    creationDate: ts('creation_date').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_company_idx').on(t.companyId),
    index('subscriptions_offer_idx').on(t.offerId),
    uniqueIndex('subscriptions_default_uq').on(t.companyId).where(sql`${t.isDefault}`),
  ],
);
