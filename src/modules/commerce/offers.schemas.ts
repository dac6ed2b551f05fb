// Schemas of offers (document 1, Offer and Provisioning entry; prices, features and the counter
// flags: docs/decisions.md, Commerce).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf, nameSchemas } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { pagingQuery } from '../../http/paging.ts';
import { AMOUNT_PATTERN, CURRENCY_PATTERN } from './money.ts';

export const BUSINESS_MODELS = ['nb_users', 'nb_services', 'usage', 'flat_fee'] as const;
export const PROVIDER_TYPES = ['media', 'conference'] as const;
export const FEATURE_TYPES = ['number', 'boolean'] as const;
/** The union the businessModel columns carry (commerce.tables.ts). */
export type BusinessModel = (typeof BUSINESS_MODELS)[number];

const str = (max: number, description?: string) =>
  Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Name = Type.String({ minLength: 1, maxLength: 255 });

export const Price = Obj(
  {
    currency: Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 currency code (EUR, USD...)' }),
    amount: Type.String({
      pattern: AMOUNT_PATTERN,
      description:
        'decimal text, at most 6 decimals: per user per month (nb_users, nb_services), per month (flat_fee), per unit consumed (usage)',
    }),
  },
  { description: 'a price of the offer in one currency' },
);

/** A provisioning entry as an offer declares it (the subscription adds its progress). */
const ProvisioningIn = Obj({
  providerType: OneOf(PROVIDER_TYPES, {
    description: 'media: a media server (with mediaType); conference: a conference bridge (with bridgeEnterpriseId)',
  }),
  mediaType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  bridgeEnterpriseId: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});
export const Provisioning = Obj({
  providerType: OneOf(PROVIDER_TYPES),
  mediaType: Type.Optional(Type.String()),
  bridgeEnterpriseId: Type.Optional(Type.String()),
  provisioningOngoing: Type.Boolean({ description: 'always false on an offer: provisioning runs for subscriptions' }),
  provisioningStartDate: Type.Optional(Nullable(DateTime())),
});

export const Feature = Obj({
  featureUniqueRef: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' }),
  featureName: Type.String({ minLength: 1, maxLength: 255 }),
  featureType: OneOf(FEATURE_TYPES),
  limitMax: Type.Optional(Type.Integer({ minimum: 0, description: 'number features' })),
  isEnabled: Type.Optional(Type.Boolean({ description: 'boolean features' })),
});

/** Document 1, Offer, with prices, features and the flags of the Offer counter. */
export const Offer = Obj(
  {
    id: Id(),
    name: Type.String(),
    description: Nullable(Type.String()),
    technicalDescription: Nullable(Type.String()),
    profileId: Nullable(Type.String()),
    profileName: Nullable(Type.String()),
    isDefault: Type.Boolean({ description: 'the default free offer every company holds; set by the service only' }),
    canBeSold: Type.Boolean(),
    isDemo: Type.Boolean(),
    businessModel: Nullable(OneOf(BUSINESS_MODELS)),
    isExclusive: Type.Boolean(),
    isPrepaid: Type.Boolean(),
    prepaidDuration: Nullable(Type.Integer({ description: 'months' })),
    autoSubscribe: Type.Boolean(),
    isBundle: Type.Boolean(),
    hasConference: Type.Boolean(),
    hasVoice: Type.Boolean(),
    provisioningNeeded: Type.Array(Provisioning),
    billingOfferId: Nullable(Type.String()),
    billingProductRatePlanId: Nullable(Type.String()),
    billingProductRatePlanChargeId: Nullable(Type.String()),
    erpReference: Nullable(Type.String()),
    offerReference: Nullable(Type.String()),
    groupName: Nullable(Type.String()),
    prices: Type.Array(Price),
    features: Type.Array(Feature),
    creationDate: DateTime(),
    lastUpdateDate: DateTime(),
  },
  { description: 'an offer; fields per format level in docs/formats.md' },
);

export const OFFER_FORMATS = {
  small: ['id', 'name', 'businessModel', 'isDefault', 'canBeSold', 'isPrepaid', 'groupName'],
  medium: [
    'id',
    'name',
    'description',
    'profileId',
    'profileName',
    'businessModel',
    'isDefault',
    'canBeSold',
    'isDemo',
    'isExclusive',
    'isPrepaid',
    'prepaidDuration',
    'autoSubscribe',
    'groupName',
    'offerReference',
    'erpReference',
    'prices',
    'creationDate',
  ],
} as const;

/** The writable fields, all optional; null clears a string or a number (update). */
const writable = {
  description: Type.Optional(Nullable(str(2000))),
  technicalDescription: Type.Optional(Nullable(str(2000))),
  profileId: Type.Optional(Nullable(str(64))),
  profileName: Type.Optional(Nullable(str(255))),
  canBeSold: Type.Optional(Type.Boolean()),
  isDemo: Type.Optional(Type.Boolean()),
  businessModel: Type.Optional(Nullable(OneOf(BUSINESS_MODELS))),
  isExclusive: Type.Optional(Type.Boolean()),
  isPrepaid: Type.Optional(Type.Boolean()),
  prepaidDuration: Type.Optional(
    Nullable(Type.Integer({ minimum: 12, maximum: 60, description: 'months, 12 to 60; prepaid offers only' })),
  ),
  autoSubscribe: Type.Optional(Type.Boolean()),
  isBundle: Type.Optional(Type.Boolean()),
  hasConference: Type.Optional(Type.Boolean()),
  hasVoice: Type.Optional(Type.Boolean()),
  provisioningNeeded: Type.Optional(Type.Array(ProvisioningIn, { maxItems: 10 })),
  billingOfferId: Type.Optional(Nullable(str(255))),
  billingProductRatePlanId: Type.Optional(Nullable(str(255))),
  billingProductRatePlanChargeId: Type.Optional(Nullable(str(255))),
  erpReference: Type.Optional(Nullable(str(255))),
  offerReference: Type.Optional(Nullable(str(255))),
  groupName: Type.Optional(Nullable(str(255))),
  prices: Type.Optional(Type.Array(Price, { maxItems: 50 })),
  features: Type.Optional(Type.Array(Feature, { maxItems: 100 })),
};

export const CreateOfferBody = Obj({ name: Name, ...writable });
export const UpdateOfferBody = Obj({ name: Type.Optional(Name), ...writable });

export const OFFER_SORT_FIELDS = ['name', '_id'] as const;

const eqText = (d: string) => Type.Optional(Type.String({ maxLength: 255, description: d }));
const bool = (d: string) => Type.Optional(Type.Boolean({ description: d }));

/** Document 1, list offers of a company: every filter, the sort and the page. */
const offerFilters = {
  format: formatQuery(),
  name: Type.Optional(
    Type.String({ maxLength: 255, description: 'offers whose name contains this text, case-insensitive' }),
  ),
  canBeSold: bool('true or false'),
  autoSubscribe: bool('true or false'),
  isExclusive: bool('true or false'),
  isPrepaid: bool('true or false'),
  profileId: eqText('exact value'),
  offerReference: eqText('exact value'),
  erpReference: eqText('exact value'),
  ...pagingQuery(OFFER_SORT_FIELDS, 'name'),
};
export const ListCompanyOffersQuery = Type.Object(offerFilters);
export const ListAllOffersQuery = Type.Object({ ...offerFilters, catalogId: eqText('the offers of this catalog') });

export const OfferIdParams = Type.Object({ offerId: Id() });
export const CompanyIdParams = Type.Object({ companyId: Id() });
export const CompanyOfferParams = Type.Object({ companyId: Id(), offerId: Id() });
export const FormatQuery = Type.Object({ format: formatQuery('full') });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ Price, Provisioning, Feature, Offer, CreateOfferBody, UpdateOfferBody });
