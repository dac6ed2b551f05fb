// Tables of the companies module.
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../../db/columns.ts';
import { organisations } from '../organisations/organisations.tables.ts';
import { catalogs } from '../../commerce/commerce.tables.ts';
import type {
  AvatarShape,
  BillingModel,
  BpBusinessModel,
  BpBusinessType,
  BpType,
  CompanySize,
  CompanyCurrency,
  CompanyState,
  CompanyStatus,
  CompanyVisibility,
  ContractAcceptation,
  DeviceFirmware,
  EnabledDisabled,
  OfferType,
  SubscriptionUpdateOps,
  Theme,
  ThemeCustomers,
} from './companies.schemas.ts';

// Document 3, Company: every writable field is a column (typed, filterable in SQL); the
// read-only ones are columns or derived when read (src/modules/admin/companies).
export const companies = pgTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    // 'default' and 'terminated' mark the two system companies of document 3.
    systemRole: text('system_role'),
    status: text('status').$type<CompanyStatus>().notNull().default('active'),
    isBP: boolean('is_bp').notNull().default(false),
    bpType: text('bp_type').$type<BpType>(),
    bpId: text('bp_id'),
    bpBusinessModel: text('bp_business_model').$type<BpBusinessModel>(),
    bpBusinessType: text('bp_business_type').array().$type<BpBusinessType[]>(),
    bpApplicantNumber: text('bp_applicant_number'),
    bpCRDid: text('bp_crd_id'),
    bpHasRightToConnect: boolean('bp_has_right_to_connect').notNull().default(true),
    bpHasRightToSell: boolean('bp_has_right_to_sell'),
    bpIsContractAccepted: boolean('bp_is_contract_accepted').notNull().default(false),
    bpContractAcceptationInfo: jsonb('bp_contract_acceptation_info').$type<ContractAcceptation>(),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'set null' }),
    country: text('country').notNull().default('FRA'),
    state: text('state').$type<CompanyState>(),
    city: text('city'),
    street: text('street'),
    postalCode: text('postal_code'),
    timezone: text('timezone'),
    currency: text('currency').$type<CompanyCurrency>(),
    description: text('description'),
    slogan: text('slogan'),
    website: text('website'),
    supportUrlFAQ: text('support_url_faq'),
    adminEmail: text('admin_email'),
    supportEmail: text('support_email'),
    size: text('size').$type<CompanySize>().notNull().default('self-employed'),
    economicActivityClassification: text('economic_activity_classification'),
    externalReference: text('external_reference'),
    externalReference2: text('external_reference2'),
    crmAccountId: text('crm_account_id'),
    superadminComment: text('superadmin_comment'),
    privateDC: text('private_dc'),
    // The catalog the company sells from and buys from (commerce module: catalogs).
    catalogId: text('catalog_id').references(() => catalogs.id),
    billingModel: text('billing_model').$type<BillingModel>(),
    offerType: text('offer_type').$type<OfferType>().notNull().default('freemium'),
    defaultLicenseGroup: text('default_license_group'),
    defaultOptionsGroups: text('default_options_groups').array(),
    adminAllowedUpdateSubscriptionsOps: text('admin_allowed_update_subscriptions_ops').$type<SubscriptionUpdateOps>(),
    adminHasRightToUpdateSubscriptions: boolean('admin_has_right_to_update_subscriptions'),
    adminCanSetCustomData: boolean('admin_can_set_custom_data'),
    sendPrepaidSubscriptionsNotification: boolean('send_prepaid_subscriptions_notification'),
    alertNotificationReception: text('alert_notification_reception')
      .$type<EnabledDisabled>()
      .notNull()
      .default('disabled'),
    alertNotificationSending: text('alert_notification_sending').$type<EnabledDisabled>().notNull().default('disabled'),
    useDialOutCustomisation: text('use_dial_out_customisation').$type<EnabledDisabled>().notNull().default('enabled'),
    allowCloudPbxRecording: boolean('allow_cloud_pbx_recording').notNull().default(false),
    cloudPbxRecordingInboundOnly: boolean('cloud_pbx_recording_inbound_only').notNull().default(true),
    allowDeviceFirmwareSelection: boolean('allow_device_firmware_selection').notNull().default(false),
    selectedDeviceFirmware: text('selected_device_firmware').$type<DeviceFirmware>().notNull().default('released'),
    allowPhoneNumbersVisibility: boolean('allow_phone_numbers_visibility').notNull().default(false),
    allowUsersSelectPublicTheme: boolean('allow_users_select_public_theme').notNull().default(true),
    allowUsersSelectTheme: boolean('allow_users_select_theme').notNull().default(true),
    selectedTheme: jsonb('selected_theme').$type<Theme>(),
    selectedThemeCustomers: jsonb('selected_theme_customers').$type<ThemeCustomers>(),
    avatarShape: text('avatar_shape').$type<AvatarShape>(),
    companyCallNumber: text('company_call_number'),
    companyContactId: text('company_contact_id'),
    customData: jsonb('custom_data').$type<Record<string, unknown>>(),
    ddiReadOnly: boolean('ddi_read_only'),
    disableCCareAdminAccess: boolean('disable_ccare_admin_access'),
    disableCCareAdminAccessCustomers: boolean('disable_ccare_admin_access_customers'),
    disableCCareAdminAccessResellers: boolean('disable_ccare_admin_access_resellers'),
    gifEnabled: boolean('gif_enabled'),
    isCentrex: boolean('is_centrex').notNull().default(false),
    mobilePermanentConnectionMode: boolean('mobile_permanent_connection_mode').notNull().default(false),
    userSelfRegisterAllowedDomains: text('user_self_register_allowed_domains').array(),
    userSelfRegisterEnabled: boolean('user_self_register_enabled').notNull().default(true),
    visibility: text('visibility').$type<CompanyVisibility>().notNull().default('private'),
    visibleBy: text('visible_by').array(),
    // Customisation (document 3): company values of the customisation keys, the template applied
    // last, and the feature customisation elements.
    customisations: jsonb('customisations')
      .notNull()
      .default(sql`'{}'::jsonb`),
    selectedAppCustomisationTemplate: text('selected_app_customisation_template'),
    featureCustomisation: jsonb('feature_customisation')
      .notNull()
      .default(sql`'{}'::jsonb`),
    lastAvatarUpdateDate: ts('last_avatar_update_date'),
    lastBannerUpdateDate: ts('last_banner_update_date'),
    createdByUserId: text('created_by_user_id'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    statusUpdatedDate: ts('status_updated_date').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('companies_system_role_uq').on(t.systemRole),
    // A BP's (or an organisation's) companies by status and kind, in name order: the page of a
    // partner's customers is an ordered index range, and its count an index-only scan.
    // (name last: the small page {name, id} is read from the index alone.)
    index('companies_bp_idx').on(t.bpId, t.status, t.isBP, sql`lower(${t.name})`, t.id, t.name),
    index('companies_org_idx').on(t.organisationId, sql`lower(${t.name})`, t.id),
    index('companies_name_idx').on(sql`lower(${t.name})`, t.id),
    // Every documented filter of listCompanies has an index (docs/decisions.md, Performance). Those of few
    // values lead with the filter, then the default sort (lower(name), id), so a filtered page is an index
    // range read in order.
    index('companies_status_idx').on(t.status, sql`lower(${t.name})`, t.id),
    index('companies_is_bp_idx').on(t.isBP, sql`lower(${t.name})`, t.id),
    index('companies_bp_type_idx').on(t.bpType, sql`lower(${t.name})`, t.id),
    index('companies_visibility_idx').on(t.visibility, sql`lower(${t.name})`, t.id),
    index('companies_catalog_idx').on(t.catalogId),
    index('companies_ext_ref_idx').on(t.externalReference),
    index('companies_ext_ref2_idx').on(t.externalReference2),
    index('companies_crm_idx').on(t.crmAccountId),
    index('companies_template_idx').on(t.selectedAppCustomisationTemplate),
    index('companies_bp_business_type_idx').using('gin', t.bpBusinessType),
    // Name keywords (ILIKE '%kw%') through trigrams (pg_trgm, loaded by migration 0003).
    index('companies_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    // The embedded order system's applicant check (document 1, quotation rule 4, create subscription rule 2): one lookup.
    index('companies_bp_applicant_idx')
      .on(t.bpApplicantNumber)
      .where(sql`${t.isBP}`),
  ],
);
