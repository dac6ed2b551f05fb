// The hooks of the companies module's face (companies.api.ts; src/shared/hooks.ts): commerce
// reads companies, so companies cannot import commerce; commerce provides, at install, what a
// company's creation, deletion, reads and list filters need of subscriptions and catalogs.
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { provided } from '../../../shared/hooks.ts';

/** A subscription as a company read shows it (document 3, Company: subscriptions). */
export interface SubscriptionView {
  profileName: string | null;
  profileId: string | null;
  offerName: string;
  offerId: string;
  _id: string;
  creationDate: Date;
  status: string;
  isDefault: boolean;
  maxNumberUsers: number | null;
}

/** The offer filters of the companies list (document 3, list companies). */
export interface OfferFilters {
  offerId?: string;
  offerCanBeSold?: boolean;
  offerGroupName?: string;
}

export interface CompanyCommerce {
  /** A company's catalogId must name a catalog (400 otherwise: nothing is stored). */
  assertCatalogExists(exec: Executor, catalogId: string): Promise<void>;
  /** Document 3, create company rule 7: every new company receives a subscription to the default offer. */
  addDefaultSubscription(exec: Executor, companyId: string, now: Date): Promise<void>;
  /** A user moved to another company: his licences follow (rule 7: its default subscription's). */
  userChangedCompany(exec: Executor, user: { id: string; companyId: string }, now: Date): Promise<void>;
  /** Delete company: whether it holds a subscription that is neither the default one nor terminated (free or not). */
  hasOtherActiveSubscriptions(exec: Executor, companyId: string): Promise<boolean>;
  /** Delete company: its subscriptions are terminated, never removed. */
  terminateSubscriptions(exec: Executor, companyId: string, now: Date): Promise<void>;
  /** The subscriptions of several companies in one statement, joined to their offers. */
  subscriptionsOf(exec: Executor, companyIds: string[]): Promise<Map<string, SubscriptionView[]>>;
  /** The subscriptions of the company row `t` as JSON, as an extra of the authorising statement (getCompany). */
  subscriptionsExtra: SQL;
  /** Uncorrelated subqueries of the ids of the companies holding a subscription, not terminated, to such an offer. */
  companiesWithOffer(f: OfferFilters): SQL[];
}

export const companyCommerce = provided<CompanyCommerce>('what companies asks of commerce');
