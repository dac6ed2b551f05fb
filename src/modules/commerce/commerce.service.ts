// What other modules ask of commerce (they call this service, never its repositories): whether a
// catalog exists, the catalog a company sees, and the default subscription of a new company.
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import * as catalogsRepo from './catalogs.repo.ts';
import * as offersRepo from './offers.repo.ts';
import * as subscriptionsRepo from './subscriptions.repo.ts';

/** Document 3, create company rule 7: a user arriving in a company takes a licence of its default subscription. */
export { assignDefaultLicence, userChangedCompany } from './licences.service.ts';
export { licenceCounters, type LicenceCounters } from './licence-counters.ts';

/** A company's catalogId must name a catalog (400 otherwise: nothing is stored). */
export async function assertCatalogExists(exec: Executor, catalogId: string): Promise<void> {
  if (!(await catalogsRepo.catalogExists(exec, catalogId))) fail('CATALOG_UNKNOWN', { catalogId });
}

/** The catalog a company sees: its own, else its BP's (or its BP's BP's), else the default one. */
export const catalogOfCompany = (exec: Executor, companyId: string): Promise<string | undefined> =>
  catalogsRepo.catalogOfCompany(exec, companyId);

/** Document 3, create company rule 7: every new company receives a subscription to the default offer. */
export async function addDefaultSubscription(exec: Executor, companyId: string, now: Date): Promise<void> {
  const offerId = (await offersRepo.defaultOfferId(exec)) ?? (await offersRepo.ensureDefaultOffer(exec)).id;
  await subscriptionsRepo.insertDefaultSubscription(exec, companyId, offerId, now);
}

/** The catalog a company sees, as an extra of the authorising statement (create subscription, create a quotation). */
export { COMPANY_CATALOG_EXTRA } from './catalogs.repo.ts';
/** Document 1, create a quotation, rule 4, for a BP already read (the authorising statement's extras). */
export { checkApplicant } from './subscriptions.service.ts';
/** The offer, its catalog membership and a subscription with its offer, as extras of another module's authorising statement. */
export {
  offerExtra,
  offerInCatalogExtra,
  subscriptionWithOfferExtra,
  offerFromExtra,
  subscriptionWithOfferFromExtra,
} from './extras.ts';
