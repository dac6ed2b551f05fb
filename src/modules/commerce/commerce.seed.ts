// First-start data of commerce: the default offer (document 3, create company rule 7), the default
// catalog, the default offer in every catalog, and, when the default offer is created (the first
// start of a database, or of one that predates offers), a default subscription for every company
// already there. Later starts do not look: every path that creates a company gives it its
// subscription, and scanning 100,000 companies at each start cost about a second of the embedded
// database's cold start. Idempotent; runs at every start after the companies module's seed.
import type { Db } from '../../db/client.ts';
import * as catalogsRepo from './catalogs.repo.ts';
import * as offersRepo from './offers.repo.ts';
import * as subscriptionsRepo from './subscriptions.repo.ts';

export async function seedCommerce(db: Db): Promise<void> {
  const offer = await offersRepo.ensureDefaultOffer(db);
  await catalogsRepo.ensureDefaultCatalog(db);
  await catalogsRepo.addOfferToEveryCatalog(db, offer.id);
  if (offer.created) await subscriptionsRepo.backfillDefaultSubscriptions(db, offer.id);
}
