// Tables of commerce (document 1): offers, catalogs holding them, and subscriptions.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import type { BusinessModel } from './offers.schemas.ts';
import type { PrepaidRenewalOption, RenewalTermOption, SubscriptionStatus } from './subscriptions.schemas.ts';

/** One price of an offer: ISO 4217 currency, decimal amount as text (never a float). */
export interface OfferPrice {
  currency: string;
  amount: string;
}

/** A provisioning entry of an offer (document 1): what a subscription to it needs on a provider. */
export interface OfferProvisioning {
  providerType: 'media' | 'conference';
  mediaType?: string;
  bridgeEnterpriseId?: string;
}

/** A feature an offer grants; a company's features aggregate those of its subscriptions' offers. */
export interface OfferFeature {
  featureUniqueRef: string;
  featureName: string;
  featureType: 'number' | 'boolean';
  limitMax?: number;
  isEnabled?: boolean;
}

// Offer (document 1, Offer). Every company receives a subscription to the default offer
// (document 3, create company rule 7): the commerce module seeds it.
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
    businessModel: text('business_model').$type<BusinessModel>(),
    isExclusive: boolean('is_exclusive').notNull().default(false),
    isPrepaid: boolean('is_prepaid').notNull().default(false),
    prepaidDuration: integer('prepaid_duration'),
    autoSubscribe: boolean('auto_subscribe').notNull().default(false),
    // Flags of the Offer counter of document 1, kept on the offer they describe.
    isBundle: boolean('is_bundle').notNull().default(false),
    hasConference: boolean('has_conference').notNull().default(false),
    hasVoice: boolean('has_voice').notNull().default(false),
    groupName: text('group_name'),
    erpReference: text('erp_reference'),
    offerReference: text('offer_reference'),
    billingOfferId: text('billing_offer_id'),
    billingProductRatePlanId: text('billing_product_rate_plan_id'),
    billingProductRatePlanChargeId: text('billing_product_rate_plan_charge_id'),
    provisioningNeeded: jsonb('provisioning_needed')
      .$type<OfferProvisioning[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    prices: jsonb('prices')
      .$type<OfferPrice[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    features: jsonb('features')
      .$type<OfferFeature[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    creationDate: ts('creation_date').notNull().defaultNow(),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('offers_default_uq')
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
    // listAllOffers in its default order; the billing system finds an offer by its rate plan.
    index('offers_name_idx').on(sql`lower(${t.name})`, t.id),
    index('offers_rate_plan_idx').on(t.billingProductRatePlanId),
  ],
);

// Catalogs (route table, Commerce, +): named sets of offers. A company sells from (and buys from)
// its own catalog, else its BP's, else the default catalog (docs/decisions.md, Commerce).
export const catalogs = pgTable(
  'catalogs',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    isDefault: boolean('is_default').notNull().default(false),
    creationDate: ts('creation_date').notNull().defaultNow(),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('catalogs_default_uq')
      .on(t.isDefault)
      .where(sql`${t.isDefault}`),
    uniqueIndex('catalogs_name_uq').on(sql`lower(${t.name})`),
  ],
);

// The offers of each catalog: an offer may be in several catalogs.
export const catalogOffers = pgTable(
  'catalog_offers',
  {
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id, { onDelete: 'cascade' }),
    offerId: text('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.catalogId, t.offerId] }), index('catalog_offers_offer_idx').on(t.offerId)],
);

/** createdBy of a subscription (document 1). */
export interface SubscriptionCreator {
  bpApplicantNumber: string | null;
  loginEmail: string;
  userId: string;
}

/** A provisioning entry of a subscription: the offer's entry and its progress on the provider. */
export interface SubscriptionProvisioning extends OfferProvisioning {
  provisioningOngoing: boolean;
  provisioningStartDate: string | null;
  providerId?: string;
}

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    offerId: text('offer_id')
      .notNull()
      .references(() => offers.id),
    status: text('status').$type<SubscriptionStatus>().notNull().default('active'),
    isDefault: boolean('is_default').notNull().default(false),
    syncOngoing: boolean('sync_ongoing').notNull().default(false),
    maxNumberUsers: integer('max_number_users'),
    // Licences assigned from this subscription, kept by the same statement that adds or removes a
    // licence row, guarded by maxNumberUsers: exact under concurrency without counting rows.
    numberAssignedUsers: integer('number_assigned_users').notNull().default(0),
    updatingMaxNumberUsers: integer('updating_max_number_users'),
    purchaseOrderNumber: text('purchase_order_number'),
    createdBy: jsonb('created_by').$type<SubscriptionCreator>(),
    creationDate: ts('creation_date').notNull().defaultNow(),
    // Prepaid renewal (document 1, create and update subscription).
    autoRenew: boolean('auto_renew'),
    renewalTerm: integer('renewal_term'),
    renewalTermOption: text('renewal_term_option').$type<RenewalTermOption>(),
    prepaidDuration: integer('prepaid_duration'),
    prepaidRenewalOption: text('prepaid_renewal_option').$type<PrepaidRenewalOption>(),
    /** The end of a prepaid subscription (creation + prepaidDuration months); it ends there when autoRenew is false. */
    expirationDate: ts('expiration_date'),
    // Document 1, update rule 6: licences added to a prepaid subscription this month (an add-on) can be taken back until the month ends.
    prepaidAddOnSize: integer('prepaid_add_on_size').notNull().default(0),
    prepaidAddOnDate: ts('prepaid_add_on_date'),
    // Identifiers in the partner order system and the billing system, filled by the synchronisation.
    bsSubscriptionId: text('bs_subscription_id'),
    billingSubscriptionId: text('billing_subscription_id'),
    /** The offer's provisioning entries with their progress on the providers (providerId once provisioned). */
    provisioning: jsonb('provisioning')
      .$type<SubscriptionProvisioning[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    // A synchronisation that gave up after its retries: why and when (docs/decisions.md, Subscriptions).
    syncError: text('sync_error'),
    syncFailedAt: ts('sync_failed_at'),
    /** Bumped by every change: two concurrent updates cannot both win (conditional UPDATE). */
    version: integer('version').notNull().default(0),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
    terminationDate: ts('termination_date'),
  },
  (t) => [
    index('subscriptions_company_idx').on(t.companyId),
    index('subscriptions_offer_idx').on(t.offerId),
    uniqueIndex('subscriptions_default_uq')
      .on(t.companyId)
      .where(sql`${t.isDefault}`),
  ],
);

// Licences (document 1, licence counters; route table, Users, assignUserLicence): a user holds a
// licence of a subscription. The user's company is kept on the row because the counters of an IR
// BP split the licences between the BP's own users and those of its End Customers.
export const licences = pgTable(
  'licences',
  {
    // A subscription's and a user's: checked as sets per statement, and deleted with either, by
    // the triggers of migration 0036_keys_checked_as_sets (docs/decisions.md, Keys checked as sets).
    subscriptionId: text('subscription_id').notNull(),
    userId: text('user_id').notNull(),
    userCompanyId: text('user_company_id').notNull(),
    assignedAt: ts('assigned_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.userId] }),
    index('licences_user_idx').on(t.userId),
    index('licences_company_idx').on(t.userCompanyId),
  ],
);
