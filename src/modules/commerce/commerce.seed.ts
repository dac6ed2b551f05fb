// First-start data of commerce: the default offer (document 3, create company rule 7), the default
// catalog, the default offer in every catalog, and a default subscription for every company that
// has none. Idempotent; runs at every start after the companies module's seed.
import type { Db } from '../../db/client.ts';
import * as catalogsRepo from './catalogs.repo.ts';
import * as offersRepo from './offers.repo.ts';
import * as subscriptionsRepo from './subscriptions.repo.ts';

export async function seedCommerce(db: Db): Promise<void> {
  const offerId = await offersRepo.ensureDefaultOffer(db);
  await catalogsRepo.ensureDefaultCatalog(db);
  await catalogsRepo.addOfferToEveryCatalog(db, offerId);
  await subscriptionsRepo.backfillDefaultSubscriptions(db, offerId);
}
