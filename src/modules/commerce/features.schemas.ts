// Schema of a company feature (document 1, Company feature).
import { Type } from 'typebox';
import { DateTime, Obj, OneOf } from '../../http/schemas.ts';
import { FEATURE_TYPES } from './offers.schemas.ts';

export const CompanyFeature = Obj({
  featureId: Type.String({ description: "the feature's featureUniqueRef: features are declared on offers" }),
  featureUniqueRef: Type.String(),
  featureName: Type.String(),
  featureType: OneOf(FEATURE_TYPES),
  limitMax: Type.Optional(
    Type.Integer({ description: 'number features: the highest limitMax of the active subscriptions granting it' }),
  ),
  isEnabled: Type.Optional(
    Type.Boolean({ description: 'boolean features: true when an active subscription grants it' }),
  ),
  addedDate: DateTime(),
  lastUpdateDate: DateTime(),
});
