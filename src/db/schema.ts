// The relational schema, one truth for both databases (PGlite and PostgreSQL).
// drizzle-kit generates the migration folder from this file (`npm run db:generate`).
import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const organisations = pgTable('organisations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  visibility: text('visibility').notNull().default('private'),
  creationDate: ts('creation_date').notNull().defaultNow(),
});

// Document 3, Company: every writable field is a column (typed, filterable in SQL); the
// read-only ones are columns or derived when read (src/modules/admin/companies).
export const companies = pgTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    // 'default' and 'terminated' mark the two system companies of document 3.
    systemRole: text('system_role'),
    status: text('status').notNull().default('active'),
    isBP: boolean('is_bp').notNull().default(false),
    bpType: text('bp_type'),
    bpId: text('bp_id'),
    bpBusinessModel: text('bp_business_model'),
    bpBusinessType: text('bp_business_type').array(),
    bpApplicantNumber: text('bp_applicant_number'),
    bpCRDid: text('bp_crd_id'),
    bpHasRightToConnect: boolean('bp_has_right_to_connect').notNull().default(true),
    bpHasRightToSell: boolean('bp_has_right_to_sell'),
    bpIsContractAccepted: boolean('bp_is_contract_accepted').notNull().default(false),
    bpContractAcceptationInfo: jsonb('bp_contract_acceptation_info'),
    organisationId: text('organisation_id').references(() => organisations.id, { onDelete: 'set null' }),
    country: text('country').notNull().default('FRA'),
    state: text('state'),
    city: text('city'),
    street: text('street'),
    postalCode: text('postal_code'),
    timezone: text('timezone'),
    currency: text('currency'),
    description: text('description'),
    slogan: text('slogan'),
    website: text('website'),
    supportUrlFAQ: text('support_url_faq'),
    adminEmail: text('admin_email'),
    supportEmail: text('support_email'),
    size: text('size').notNull().default('self-employed'),
    economicActivityClassification: text('economic_activity_classification'),
    externalReference: text('external_reference'),
    externalReference2: text('external_reference2'),
    crmAccountId: text('crm_account_id'),
    superadminComment: text('superadmin_comment'),
    privateDC: text('private_dc'),
    catalogId: text('catalog_id'),
    billingModel: text('billing_model'),
    offerType: text('offer_type').notNull().default('freemium'),
    defaultLicenseGroup: text('default_license_group'),
    defaultOptionsGroups: text('default_options_groups').array(),
    adminAllowedUpdateSubscriptionsOps: text('admin_allowed_update_subscriptions_ops'),
    adminHasRightToUpdateSubscriptions: boolean('admin_has_right_to_update_subscriptions'),
    adminCanSetCustomData: boolean('admin_can_set_custom_data'),
    sendPrepaidSubscriptionsNotification: boolean('send_prepaid_subscriptions_notification'),
    alertNotificationReception: text('alert_notification_reception').notNull().default('disabled'),
    alertNotificationSending: text('alert_notification_sending').notNull().default('disabled'),
    useDialOutCustomisation: text('use_dial_out_customisation').notNull().default('enabled'),
    allowCloudPbxRecording: boolean('allow_cloud_pbx_recording').notNull().default(false),
    cloudPbxRecordingInboundOnly: boolean('cloud_pbx_recording_inbound_only').notNull().default(true),
    allowDeviceFirmwareSelection: boolean('allow_device_firmware_selection').notNull().default(false),
    selectedDeviceFirmware: text('selected_device_firmware').notNull().default('released'),
    allowPhoneNumbersVisibility: boolean('allow_phone_numbers_visibility').notNull().default(false),
    allowUsersSelectPublicTheme: boolean('allow_users_select_public_theme').notNull().default(true),
    allowUsersSelectTheme: boolean('allow_users_select_theme').notNull().default(true),
    selectedTheme: jsonb('selected_theme'),
    selectedThemeCustomers: jsonb('selected_theme_customers'),
    avatarShape: text('avatar_shape'),
    companyCallNumber: text('company_call_number'),
    companyContactId: text('company_contact_id'),
    customData: jsonb('custom_data'),
    ddiReadOnly: boolean('ddi_read_only'),
    disableCCareAdminAccess: boolean('disable_ccare_admin_access'),
    disableCCareAdminAccessCustomers: boolean('disable_ccare_admin_access_customers'),
    disableCCareAdminAccessResellers: boolean('disable_ccare_admin_access_resellers'),
    gifEnabled: boolean('gif_enabled'),
    isCentrex: boolean('is_centrex').notNull().default(false),
    mobilePermanentConnectionMode: boolean('mobile_permanent_connection_mode').notNull().default(false),
    userSelfRegisterAllowedDomains: text('user_self_register_allowed_domains').array(),
    userSelfRegisterEnabled: boolean('user_self_register_enabled').notNull().default(true),
    visibility: text('visibility').notNull().default('private'),
    visibleBy: text('visible_by').array(),
    // Customisation (document 3): company values of the customisation keys, the template applied
    // last, and the feature customisation elements.
    customisations: jsonb('customisations').notNull().default(sql`'{}'::jsonb`),
    selectedAppCustomisationTemplate: text('selected_app_customisation_template'),
    featureCustomisation: jsonb('feature_customisation').notNull().default(sql`'{}'::jsonb`),
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
    // Every documented filter of listCompanies has an index (issue 6). Those of few values lead
    // with the filter, then the default sort (lower(name), id), so a filtered page is an index
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
  ],
);

export const sites = pgTable(
  'sites',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    companyId: text('company_id').notNull().references(() => companies.id),
    status: text('status').notNull().default('active'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    statusUpdatedDate: ts('status_updated_date').notNull().defaultNow(),
  },
  (t) => [index('sites_company_idx').on(t.companyId), index('sites_status_idx').on(t.status)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull().references(() => companies.id),
    // The organisation of his company (document 3: a company's users are attached to its
    // organisation). A copy kept by triggers of migration 0003_user_organisation, in the
    // transaction that links, unlinks or moves: reads of a user need no second statement.
    organisationId: text('organisation_id'),
    loginEmail: text('login_email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    roles: text('roles').array().notNull().default(sql`ARRAY['user']::text[]`),
    adminType: text('admin_type'),
    siteId: text('site_id').references(() => sites.id, { onDelete: 'set null' }),
    language: text('language'),
    timezone: text('timezone'),
    isTerminated: boolean('is_terminated').notNull().default(false),
    // User values of the customisation keys: same_than_company (absent), enabled or disabled.
    customisations: jsonb('customisations').notNull().default(sql`'{}'::jsonb`),
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

// One row per issued token (login, renew, OAuth access token). The JWT's jti is the id;
// revocation lives here so that every instance refuses a logged-out token.
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    appId: text('app_id'),
    kind: text('kind').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const applications = pgTable(
  'applications',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    ownerId: text('owner_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    companyId: text('company_id').notNull().references(() => companies.id),
    redirectUris: text('redirect_uris').array().notNull().default(sql`ARRAY[]::text[]`),
    secretHash: text('secret_hash').notNull(),
    // The x-svc-app-auth proof of the original interface is sha256(appSecret + password):
    // verifying it needs the secret itself, so an encrypted copy is kept (docs/decisions.md).
    secretSealed: text('secret_sealed').notNull(),
    apiKeyHash: text('api_key_hash').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    creationDate: ts('creation_date').notNull().defaultNow(),
    lastUpdateDate: ts('last_update_date').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('applications_api_key_uq').on(t.apiKeyHash), index('applications_company_idx').on(t.companyId), index('applications_owner_idx').on(t.ownerId)],
);

export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  appId: text('app_id').notNull().references(() => applications.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  scope: text('scope'),
  codeChallenge: text('code_challenge'),
  codeChallengeMethod: text('code_challenge_method'),
  expiresAt: ts('expires_at').notNull(),
});

export const oauthRefreshTokens = pgTable(
  'oauth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    appId: text('app_id').notNull().references(() => applications.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id'),
    scope: text('scope'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('oauth_refresh_user_idx').on(t.userId)],
);

// Secrets the instances share: the JWT signing key and the application-secret sealing key.
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const loginFailures = pgTable(
  'login_failures',
  {
    account: text('account').notNull(),
    address: text('address').notNull(),
    count: integer('count').notNull(),
    windowStart: ts('window_start').notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.address] })],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull(),
    statusCode: integer('status_code'),
    headers: jsonb('headers'),
    body: text('body'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_created_idx').on(t.createdAt)],
);

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

// Document 3, join-company links: a link id lets a user create his account in the company.
export const joinCompanyLinks = pgTable(
  'join_company_links',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull().references(() => companies.id),
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
    companyId: text('company_id').notNull().references(() => companies.id),
    email: text('email').notNull(),
    invitedToBeCompanyAdmin: boolean('invited_to_be_company_admin').notNull().default(false),
    invitedToBeBpAdmin: boolean('invited_to_be_bp_admin').notNull().default(false),
    invitedToBeBpFinance: boolean('invited_to_be_bp_finance').notNull().default(false),
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('pending'),
    createdByAdminId: text('created_by_admin_id'),
    creationDate: ts('creation_date').notNull().defaultNow(),
    expirationDate: ts('expiration_date').notNull(),
    acceptedDate: ts('accepted_date'),
    acceptedUserId: text('accepted_user_id'),
  },
  (t) => [index('join_invitations_company_idx').on(t.companyId)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

// Document 3, avatar and banner: the uploaded original and the resized variants served, cached
// so that a size is computed once.
export const companyImages = pgTable(
  'company_images',
  {
    companyId: text('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    mime: text('mime').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    data: bytea('data').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind] })],
);

export const companyImageVariants = pgTable(
  'company_image_variants',
  {
    companyId: text('company_id').notNull(),
    kind: text('kind').notNull(),
    size: integer('size').notNull(),
    mime: text('mime').notNull(),
    data: bytea('data').notNull(),
    sourceUpdatedAt: ts('source_updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.kind, t.size] })],
);

// Customisation templates (document 3): named sets of customisation key values.
export const customisationTemplates = pgTable('customisation_templates', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description'),
  values: jsonb('values').notNull(),
  isDefault: boolean('is_default').notNull().default(false),
});

// A version per family of lists, bumped in the same transaction as any write to its tables
// (triggers of migration 0006). A list remembers its exact count with the version it was
// counted at, and counts again only when the version moved (src/db/list-count.ts).
export const listVersions = pgTable('list_versions', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
