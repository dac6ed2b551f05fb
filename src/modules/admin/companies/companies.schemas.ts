// Schemas of the companies operations (document 3, Company: writable and read-only fields).
import { Type, type Static, type TProperties } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf, nameSchemas } from '../../../http/schemas.ts';
import { mapProps } from '../../../http/schema-maps.ts';
import { formatQuery } from '../../../http/format.ts';
import { pagingQuery } from '../../../http/paging.ts';

const lit = <T extends string>(values: readonly T[], description?: string) =>
  OneOf(values, description ? { description } : {});
const str = (min: number, max: number) => Type.String({ minLength: min, maxLength: max });
const nullable = Nullable;

export const STATUSES = ['initializing', 'active', 'alerting', 'hold', 'terminated'] as const;
export const VISIBILITIES = ['public', 'private', 'organization', 'closed', 'isolated', 'hotspot'] as const;
export const BP_TYPES = ['IR', 'VAD', 'DR'] as const;
export const BP_BUSINESS_TYPES = ['voice_by_partner', 'voice_by_vendor', 'conference', 'default'] as const;
export const SIZES = [
  'self-employed',
  '1-10 employees',
  '11-50 employees',
  '51-200 employees',
  '201-500 employees',
  '501-1000 employees',
  '1001-5000 employees',
  '5001-10,000 employees',
  '10,001+ employees',
] as const;
export const US_STATES = [
  'AA',
  'AE',
  'AP',
  'AK',
  'AL',
  'AR',
  'AZ',
  'CA',
  'CO',
  'CT',
  'DC',
  'DE',
  'FL',
  'GA',
  'GU',
  'HI',
  'IA',
  'ID',
  'IL',
  'IN',
  'KS',
  'KY',
  'LA',
  'MA',
  'MD',
  'ME',
  'MI',
  'MN',
  'MO',
  'MS',
  'MT',
  'NC',
  'ND',
  'NE',
  'NH',
  'NJ',
  'NM',
  'NV',
  'NY',
  'OH',
  'OK',
  'OR',
  'PA',
  'PR',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VA',
  'VI',
  'VT',
  'WA',
  'WI',
  'WV',
  'WY',
] as const;
export const CA_PROVINCES = ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'] as const;
export const BP_BUSINESS_MODELS = ['referral', 'resell'] as const;
export const BILLING_MODELS = ['monthly', 'prepaid_1y', 'prepaid_3y', 'prepaid_5y'] as const;
export const OFFER_TYPES = ['freemium', 'premium'] as const;
export const AVATAR_SHAPES = ['square', 'circle'] as const;
export const SUBSCRIPTION_UPDATE_OPS = ['all', 'increase_only'] as const;
export const ENABLED_DISABLED = ['enabled', 'disabled'] as const;
export const DEVICE_FIRMWARES = ['released', 'latest'] as const;
export const CURRENCIES = ['USD', 'EUR', 'CNY'] as const;
// The unions the columns carry (companies.tables.ts): one list for the schema and the column.
export type CompanyStatus = (typeof STATUSES)[number];
export type CompanyVisibility = (typeof VISIBILITIES)[number];
export type BpType = (typeof BP_TYPES)[number];
export type BpBusinessType = (typeof BP_BUSINESS_TYPES)[number];
export type BpBusinessModel = (typeof BP_BUSINESS_MODELS)[number];
export type CompanySize = (typeof SIZES)[number];
export type BillingModel = (typeof BILLING_MODELS)[number];
export type OfferType = (typeof OFFER_TYPES)[number];
export type AvatarShape = (typeof AVATAR_SHAPES)[number];
export type SubscriptionUpdateOps = (typeof SUBSCRIPTION_UPDATE_OPS)[number];
export type EnabledDisabled = (typeof ENABLED_DISABLED)[number];
export type DeviceFirmware = (typeof DEVICE_FIRMWARES)[number];
export type CompanyCurrency = (typeof CURRENCIES)[number];
export type CompanyState = (typeof US_STATES)[number] | (typeof CA_PROVINCES)[number];
const ECONOMIC = 'ABCDEFGHIJKLMNOPQRSTU'.split('');
const enabled = lit(ENABLED_DISABLED);

const Theme = Obj({
  dark: Type.Optional(Type.String({ maxLength: 64 })),
  light: Type.Optional(Type.String({ maxLength: 64 })),
});
export type Theme = Static<typeof Theme>;
const ThemeCustomers = Obj({
  dark: Type.Optional(Type.String({ maxLength: 64 })),
  light: Type.Optional(Type.String({ maxLength: 64 })),
  force: Type.Optional(Type.Boolean()),
  locked: Type.Optional(Type.Boolean()),
});
// Free-form, bounded (docs/security.md, Input: no request breaks it): 100 keys of at most 64 characters; its
// depth and the size of the lists in it are bounded by the JSON body parser (src/http/json-body.ts).
const CustomData = Type.Object(
  {},
  {
    additionalProperties: true,
    maxProperties: 100,
    propertyNames: { maxLength: 64 },
    description: 'free JSON object: at most 100 keys of at most 64 characters',
  },
);

/** Fields writable at creation and on update (document 3, Company: writable fields). */
const common = {
  adminAllowedUpdateSubscriptionsOps: lit(SUBSCRIPTION_UPDATE_OPS),
  adminCanSetCustomData: Type.Boolean(),
  adminEmail: Type.String({ format: 'email', minLength: 3, maxLength: 255 }),
  supportEmail: Type.String({ format: 'email', minLength: 3, maxLength: 255 }),
  adminHasRightToUpdateSubscriptions: Type.Boolean(),
  alertNotificationReception: enabled,
  alertNotificationSending: enabled,
  allowDeviceFirmwareSelection: Type.Boolean(),
  allowUsersSelectPublicTheme: Type.Boolean(),
  allowUsersSelectTheme: Type.Boolean(),
  avatarShape: lit(AVATAR_SHAPES),
  billingModel: lit(BILLING_MODELS),
  bpApplicantNumber: str(0, 255),
  bpCRDid: str(0, 255),
  bpBusinessModel: lit(BP_BUSINESS_MODELS),
  bpBusinessType: Type.Array(lit(BP_BUSINESS_TYPES), { maxItems: 4 }),
  bpHasRightToConnect: Type.Boolean(),
  bpHasRightToSell: Type.Boolean(),
  bpId: nullable(Id('the BP company')),
  bpIsContractAccepted: Type.Boolean(),
  bpType: lit(BP_TYPES),
  catalogId: nullable(Type.String({ maxLength: 64 })),
  city: str(0, 255),
  street: str(0, 255),
  companyCallNumber: Type.String({ maxLength: 64 }),
  companyContactId: nullable(Type.String({ maxLength: 64 })),
  country: Type.String({
    minLength: 3,
    maxLength: 3,
    description: 'ISO 3166-1 alpha-3 code of GET /enduser/v1.0/countries; create only (the data location follows it)',
  }),
  currency: lit(CURRENCIES),
  // null clears; {} changes nothing (route table, conventions: src/http/empty-objects.ts).
  customData: nullable(CustomData),
  ddiReadOnly: Type.Boolean(),
  defaultLicenseGroup: Type.String({ maxLength: 255 }),
  defaultOptionsGroups: Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 }),
  description: str(0, 2000),
  disableCCareAdminAccess: Type.Boolean(),
  disableCCareAdminAccessCustomers: Type.Boolean(),
  disableCCareAdminAccessResellers: Type.Boolean(),
  economicActivityClassification: lit(ECONOMIC),
  externalReference: str(0, 64),
  externalReference2: str(0, 64),
  gifEnabled: Type.Boolean(),
  isBP: Type.Boolean(),
  isCentrex: Type.Boolean(),
  mobilePermanentConnectionMode: Type.Boolean(),
  offerType: lit(OFFER_TYPES),
  postalCode: str(0, 64),
  privateDC: Type.String({ maxLength: 64, description: 'private data centre tag; create only' }),
  crmAccountId: str(0, 64),
  selectedDeviceFirmware: lit(DEVICE_FIRMWARES),
  selectedTheme: nullable(Theme),
  selectedThemeCustomers: nullable(ThemeCustomers),
  sendPrepaidSubscriptionsNotification: Type.Boolean(),
  size: lit(SIZES),
  slogan: str(0, 255),
  state: nullable(lit([...US_STATES, ...CA_PROVINCES], 'required when country is USA or CAN')),
  status: lit(STATUSES),
  superadminComment: str(0, 256),
  supportUrlFAQ: str(0, 2000),
  website: str(0, 2000),
  userSelfRegisterAllowedDomains: Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 }),
  userSelfRegisterEnabled: Type.Boolean(),
  visibility: lit(VISIBILITIES),
  visibleBy: Type.Array(Id('company id'), { maxItems: 1000 }),
  useDialOutCustomisation: enabled,
};

/** Update only (document 3). */
const updateOnly = {
  allowCloudPbxRecording: Type.Boolean(),
  allowPhoneNumbersVisibility: Type.Boolean({ description: 'BP companies only' }),
  cloudPbxRecordingInboundOnly: Type.Boolean(),
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
};

const optional = <P extends TProperties>(p: P) => mapProps(p, 'optional');

export const CreateCompanyBody = Obj({ name: str(1, 255), ...optional(common) });
export const UpdateCompanyBody = Obj({
  name: Type.Optional(str(1, 255)),
  ...optional(common),
  ...optional(updateOnly),
});
export const CustomDataBody = Obj({ customData: CustomData });

export const WRITABLE_FIELDS = ['name', ...Object.keys(common), ...Object.keys(updateOnly)] as const;

const Subscription = Obj({
  profileName: nullable(Type.String()),
  profileId: nullable(Type.String()),
  offerName: Type.String(),
  offerId: Type.String(),
  _id: Type.String(),
  creationDate: DateTime(),
  status: Type.String(),
  isDefault: Type.Boolean(),
  maxNumberUsers: nullable(Type.Integer()),
});

const ContractAcceptation = Obj({
  acceptationDate: Type.Optional(DateTime()),
  bpAdminId: Type.Optional(Type.String()),
  bpAdminLoginEmail: Type.Optional(Type.String()),
});
// The types the JSON columns carry (companies.tables.ts).
export type ThemeCustomers = Static<typeof ThemeCustomers>;
export type ContractAcceptation = Static<typeof ContractAcceptation>;

export const Company = Obj(
  {
    id: Id(),
    name: Type.String(),
    ...mapProps({ ...common, ...updateOnly }, 'nullable'),
    selectedTheme: Type.Union([Theme, Type.String(), Type.Null()], {
      description: 'an object with selectedThemeObj=true, else the light theme id',
    }),
    latin_name: Type.String(),
    organisationId: nullable(Type.String()),
    numberUsers: Type.Optional(
      Type.Integer({ description: 'only when the reader reads his own company or one he manages' }),
    ),
    dataLocation: Obj({ name: Type.String(), location: Type.String(), country: Type.String() }),
    settings: Obj({ iceServers: Type.Array(Type.Never()) }),
    forceHandshake: Type.Boolean(),
    visiblityRequests: Type.Array(Type.Never()),
    bpContractAcceptationInfo: nullable(ContractAcceptation),
    officeSuiteScopesGranted: Type.Array(Type.Never()),
    lastAvatarUpdateDate: nullable(DateTime()),
    lastBannerUpdateDate: nullable(DateTime()),
    subscriptions: Type.Array(Subscription),
    selectedAppCustomisationTemplate: nullable(Type.String()),
    creationDate: DateTime(),
    statusUpdatedDate: DateTime(),
  },
  { description: 'a company; fields per format level in docs/formats.md' },
);

/** Document 3: getCompany and listCompanies default to `small`; other operations say `full`. */
export const COMPANY_FORMATS = {
  default: 'small',
  small: ['name', 'id'],
  medium: [
    'name',
    'id',
    'latin_name',
    'status',
    'country',
    'state',
    'visibility',
    'isBP',
    'bpType',
    'bpId',
    'organisationId',
    'offerType',
    'externalReference',
    'crmAccountId',
    'creationDate',
    'statusUpdatedDate',
  ],
} as const;

export const CompanyIdParams = Type.Object({ companyId: Id() });

export const GetCompanyQuery = Type.Object({
  format: formatQuery(),
  selectedThemeObj: Type.Optional(Type.Boolean({ description: 'return selectedTheme as an object' })),
});

export const COMPANY_SORT_FIELDS = ['name', 'creationDate', 'status', 'country', 'externalReference'] as const;

const csv = (d: string) =>
  Type.Optional(Type.String({ maxLength: 1000, description: `${d}; comma-separated values match any` }));
const eqText = (d: string) => Type.Optional(Type.String({ maxLength: 255, description: d }));

export const ListCompaniesQuery = Type.Object({
  format: formatQuery(),
  selectedThemeObj: Type.Optional(Type.Boolean()),
  bpId: eqText('companies whose BP is this company'),
  catalogId: eqText('catalog id'),
  offerId: eqText('companies holding a subscription to this offer'),
  offerCanBeSold: Type.Optional(
    Type.Boolean({
      description: 'companies holding a subscription to an offer that can (true) or cannot (false) be sold',
    }),
  ),
  externalReference: eqText('exact value'),
  externalReference2: eqText('exact value'),
  crmAccountId: eqText('exact value'),
  selectedAppCustomisationTemplate: eqText('customisation template id'),
  offerGroupName: eqText('companies holding a subscription to an offer of this groupName'),
  bpBusinessType: csv('bpBusinessType values'),
  name: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'keywords separated by spaces; each must appear in the name, case-insensitive',
    }),
  ),
  status: csv('status values'),
  visibility: csv('visibility values'),
  organisationId: eqText('organisation id'),
  isBP: Type.Optional(Type.Boolean()),
  hasBP: Type.Optional(Type.Boolean({ description: 'true: companies with a BP (bpId set); false: without' })),
  bpType: csv('bpType values'),
  ...pagingQuery(COMPANY_SORT_FIELDS, 'name'),
});

export const CustomDataResponse = Obj({ id: Id(), customData: nullable(CustomData) });

export const Administrator = Obj({
  id: Id(),
  loginEmail: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  displayName: Type.String(),
  companyId: Id(),
  companyName: Type.String(),
  isTerminated: Type.Boolean(),
});
export const ADMINISTRATOR_FORMATS = {
  small: ['id', 'loginEmail', 'displayName', 'companyId'],
  medium: ['id', 'loginEmail', 'firstName', 'lastName', 'displayName', 'companyId', 'companyName', 'isTerminated'],
} as const;
export const ADMIN_SORT_FIELDS = ['displayName', 'loginEmail', 'lastName', 'firstName'] as const;
export const ListAdministratorsQuery = Type.Object({
  format: formatQuery(),
  ...pagingQuery(ADMIN_SORT_FIELDS, 'displayName'),
});

export const Country = Obj({ code: Type.String({ description: 'ISO 3166-1 alpha-3' }), name: Type.String() });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({
  CreateCompanyBody,
  UpdateCompanyBody,
  CustomDataBody,
  Company,
  CustomDataResponse,
  Administrator,
  Country,
});
