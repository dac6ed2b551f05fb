// The hooks of the commerce module's face (commerce.api.ts; src/shared/hooks.ts): billing reads
// subscriptions and offers, so commerce cannot import billing; billing registers, at install,
// what it records when a subscription is bought or changed (its charges: docs/billing.md, Charges).
import type { Config } from '../../config.ts';
import type { BillingCompany } from '../admin/companies/companies.api.ts';
import { hook } from '../../shared/hooks.ts';
import type { SubscriptionRow, SubscriptionWithOffer } from './subscriptions.repo.ts';

/** A subscription bought (before: null) or changed, in the transaction that stores it. */
export interface SubscriptionChange {
  /** The subscription as created, or as it was before the change. */
  subscription: SubscriptionRow;
  offer: SubscriptionWithOffer['offer'];
  before: { quantity: number; prepaidMonths?: number } | null;
  after: { quantity: number; prepaidMonths?: number };
  now: Date;
  /** The company and the BPs above it, when the caller read them already (the creation's authorising statement). */
  bps?: { company: BillingCompany; parent: BillingCompany | null; grandParent: BillingCompany | null };
  /** The instance's configuration (its tax table), when the caller has it. */
  config?: Pick<Config, 'billingTaxRates'>;
}

export const subscriptionChanged = hook<[change: SubscriptionChange]>();
