// SQL of company features (document 1, list company features): the features of the offers of a
// company's active subscriptions, with the dates the aggregation reports.
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { offers, subscriptions, type OfferFeature } from './commerce.tables.ts';

export interface GrantingSubscription {
  features: OfferFeature[];
  subscribedAt: Date;
  offerUpdatedAt: Date;
}

export function activeSubscriptionFeatures(exec: Executor, companyId: string): Promise<GrantingSubscription[]> {
  return exec
    .select({
      features: offers.features,
      subscribedAt: subscriptions.creationDate,
      offerUpdatedAt: offers.lastUpdateDate,
    })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.status, 'active')));
}
