// Schema of an offer counter (document 1, Offer counter: one per subscribed offer).
import { Type } from 'typebox';
import { Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { BUSINESS_MODELS } from './offers.schemas.ts';

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const OfferCounter = Obj({
  offerId: Type.String(),
  offerName: Type.String(),
  offerReference: Nullable(Type.String()),
  erpReference: Nullable(Type.String()),
  groupName: Nullable(Type.String()),
  businessModel: Nullable(OneOf(BUSINESS_MODELS)),
  isDefault: Type.Boolean(),
  canBeSold: Type.Boolean(),
  isDemo: Type.Boolean(),
  isExclusive: Type.Boolean(),
  isPrepaid: Type.Boolean(),
  isBundle: Type.Boolean(),
  hasConference: Type.Boolean(),
  hasVoice: Type.Boolean(),
  prepaidDuration: Nullable(Type.Number()),
  myCompanyNbLicences: count("licences bought (maxNumberUsers) by the BP's own subscriptions to the offer"),
  myCompanyNumberAssignedUsers: count("licences of the BP's own subscriptions assigned to users"),
  myResellersNbLicences: count(
    'licences bought by the companies under the BP (its End Customers and BP IR companies, and theirs)',
  ),
  myResellersNumberAssignedUsers: count('licences of those subscriptions assigned to users'),
  totalNbLicences: count('myCompanyNbLicences + myResellersNbLicences'),
  totalNumberAssignedUsers: count('myCompanyNumberAssignedUsers + myResellersNumberAssignedUsers'),
});
