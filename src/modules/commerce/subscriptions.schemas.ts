// Schemas of subscriptions (document 1, Subscription; create and update subscription; the
// synchronisation's failure fields: docs/decisions.md, Subscriptions).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { optionalPageQuery } from '../../http/paging.ts';
import { BUSINESS_MODELS, Provisioning } from './offers.schemas.ts';

export const SUBSCRIPTION_STATUSES = ['creating', 'active', 'terminated'] as const;
export const RENEWAL_TERM_OPTIONS = ['1_year', 'initial'] as const;
export const PREPAID_RENEWAL_OPTIONS = ['billed', 'allocated'] as const;
// The unions the columns carry (commerce.tables.ts).
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type RenewalTermOption = (typeof RENEWAL_TERM_OPTIONS)[number];
export type PrepaidRenewalOption = (typeof PREPAID_RENEWAL_OPTIONS)[number];

const str = Nullable(Type.String());
const count = Type.Optional(Type.Integer());

export const Subscription = Obj(
  {
    id: Id(),
    companyId: Id(),
    offerId: Id(),
    offerName: Type.String(),
    offerDescription: str,
    offerTechnicalDescription: str,
    offerReference: str,
    erpReference: str,
    profileId: str,
    profileName: str,
    isDefault: Type.Boolean(),
    isExclusive: Type.Boolean(),
    isDemo: Type.Boolean(),
    isPrepaid: Type.Boolean(),
    businessModel: Nullable(OneOf(BUSINESS_MODELS)),
    billingOfferId: str,
    billingProductRatePlanId: str,
    billingProductRatePlanChargeId: str,
    billingSubscriptionId: str,
    bsSubscriptionId: str,
    creationDate: DateTime(),
    createdBy: Nullable(
      Obj({ bpApplicantNumber: Nullable(Type.String()), loginEmail: Type.String(), userId: Type.String() }),
    ),
    status: OneOf(SUBSCRIPTION_STATUSES),
    syncOngoing: Type.Boolean(),
    syncError: Nullable(
      Type.String({
        description: 'why the last synchronisation gave up after its retries (a superadmin retries it); null otherwise',
      }),
    ),
    syncFailedAt: Nullable(DateTime()),
    maxNumberUsers: Nullable(Type.Integer()),
    updatingMaxNumberUsers: Nullable(Type.Integer()),
    numberAssignedUsers: Type.Integer(),
    purchaseOrderNumber: str,
    bpBusinessType: str,
    groupName: str,
    provisioningNeeded: Type.Array(Provisioning),
    autoRenew: Nullable(Type.Boolean()),
    renewalTerm: Nullable(Type.Integer()),
    renewalTermOption: Nullable(OneOf(RENEWAL_TERM_OPTIONS)),
    prepaidDuration: Nullable(Type.Integer()),
    prepaidRenewalOption: Nullable(OneOf(PREPAID_RENEWAL_OPTIONS)),
    expirationDate: Nullable(DateTime()),
    terminationDate: Nullable(DateTime()),
    lastUpdateDate: DateTime(),
    // Licence counters (IR companies, nb_users offers): list at full, get always.
    nbBPLicences: count,
    nbAssignedBPUsers: count,
    nbLicencesAssignedToECs: count,
    nbLicencesUsed: count,
    nbFreeLicences: count,
  },
  { description: 'a subscription of a company to an offer; fields per format level in docs/formats.md' },
);

export const SUBSCRIPTION_FORMATS = {
  small: [
    'id',
    'companyId',
    'offerId',
    'offerName',
    'profileId',
    'profileName',
    'isDefault',
    'businessModel',
    'status',
    'syncOngoing',
    'maxNumberUsers',
    'numberAssignedUsers',
    'groupName',
  ],
  medium: [
    'id',
    'companyId',
    'offerId',
    'offerName',
    'offerReference',
    'erpReference',
    'profileId',
    'profileName',
    'isDefault',
    'isExclusive',
    'isDemo',
    'isPrepaid',
    'businessModel',
    'status',
    'syncOngoing',
    'syncError',
    'maxNumberUsers',
    'updatingMaxNumberUsers',
    'numberAssignedUsers',
    'purchaseOrderNumber',
    'groupName',
    'creationDate',
    'autoRenew',
    'expirationDate',
  ],
} as const;

export const CreateSubscriptionBody = Obj({
  offerId: Id(),
  maxNumberUsers: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000,
      description: 'required and above 0 for nb_users and nb_services offers',
    }),
  ),
  autoRenew: Type.Optional(Type.Boolean({ description: 'prepaid offers only' })),
  purchaseOrderNumber: Type.Optional(Type.String({ maxLength: 255 })),
  renewalTerm: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'months; prepaid offers only' })),
  renewalTermOption: Type.Optional(OneOf(RENEWAL_TERM_OPTIONS)),
});

export const UpdateSubscriptionBody = Obj({
  maxNumberUsers: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  autoRenew: Type.Optional(Type.Boolean({ description: 'prepaid offers only' })),
  prepaidDuration: Type.Optional(Type.Integer({ minimum: 12, maximum: 60, description: 'months, increase only' })),
  prepaidRenewalOption: Type.Optional(OneOf(PREPAID_RENEWAL_OPTIONS)),
  purchaseOrderNumber: Type.Optional(Type.String({ maxLength: 255 })),
  renewalTerm: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
  renewalTermOption: Type.Optional(OneOf(RENEWAL_TERM_OPTIONS)),
});

export const ListSubscriptionsQuery = Type.Object({
  format: formatQuery(),
  showTerminated: Type.Optional(Type.Boolean({ description: 'include terminated subscriptions (default false)' })),
  ...optionalPageQuery(),
});
export const GetSubscriptionQuery = Type.Object({ format: formatQuery('full') });

export const SubscriptionParams = Type.Object({ companyId: Id(), subscriptionId: Id() });
export const ApplicantParams = Type.Object({ bpApplicantNumber: Type.String({ minLength: 1, maxLength: 255 }) });
export const ApplicantCheck = Obj({
  bpApplicantNumber: Type.String(),
  exists: Type.Boolean({ description: 'true when the partner order system knows the number' }),
});
