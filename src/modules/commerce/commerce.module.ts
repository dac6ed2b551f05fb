// The commerce module (document 1, Commerce): catalogs, offers and subscriptions (with the job
// that synchronises them); licences, quotations and invoices join it.
import { defineModule } from '../module.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';
import { catalogs, offers, subscriptions } from './commerce.tables.ts';
import { catalogsOperations } from './catalogs.operations.ts';
import { offersOperations } from './offers.operations.ts';
import { licencesOperations } from './licences.operations.ts';
import { featuresOperations } from './features.operations.ts';
import { commercePolicy } from './commerce.policy.ts';
import { commerceErrors } from './commerce.errors.ts';
import { seedCommerce } from './commerce.seed.ts';
import { subscriptionsOperations } from './subscriptions.operations.ts';
import { defineSubscriptionJobs } from './subscriptions.sync.ts';
import {
  addDefaultSubscription,
  assertCatalogExists,
  assignDefaultLicence,
  assignDefaultLicences,
  userChangedCompany,
} from './commerce.api.ts';
import * as subscriptionsRepo from './subscriptions.repo.ts';
import { companyCommerce } from '../admin/companies/companies.api.ts';
import { userArrived, usersArrived } from '../admin/users/users.api.ts';

// Installed with the module: what companies asks of commerce (companies' hook), and the default
// licence of a user arriving in a company (users' hook; document 3, create company rule 7).
companyCommerce.provide({
  assertCatalogExists,
  addDefaultSubscription,
  userChangedCompany,
  hasOtherActiveSubscriptions: subscriptionsRepo.hasOtherActiveSubscriptions,
  terminateSubscriptions: subscriptionsRepo.terminateSubscriptions,
  subscriptionsOf: subscriptionsRepo.subscriptionsOf,
  subscriptionsExtra: subscriptionsRepo.COMPANY_SUBSCRIPTIONS_EXTRA,
  companiesWithOffer: subscriptionsRepo.companiesWithOffer,
});
userArrived.register(assignDefaultLicence);
usersArrived.register(assignDefaultLicences);

// Offers and catalogs belong to no company: only the `any` relation reaches them.
export const commerceTargets = {
  offer: targetKind(offers, { cols: {}, readBy: 'listAllOffers' }),
  catalog: targetKind(catalogs, { cols: {}, readBy: 'getCatalog' }),
  // A subscription belongs to its company (S/companies/{companyId}/subscriptions/{subscriptionId});
  // it is also the second resource of a licence assignment (A/users/{userId}/profiles/subscriptions/{subscriptionId}).
  subscription: targetKind(subscriptions, {
    cols: { company: subscriptions.companyId },
    readBy: 'getSubscription',
    parents: { company: subscriptions.companyId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof commerceTargets> {}
}

export const commerceModule = defineModule({
  name: 'commerce',
  operations: [
    ...offersOperations,
    ...catalogsOperations,
    ...subscriptionsOperations,
    ...licencesOperations,
    ...featuresOperations,
  ],
  policy: commercePolicy,
  errors: commerceErrors,
  targets: commerceTargets,
  seed: seedCommerce,
  jobs: defineSubscriptionJobs,
});
