// What commerce lends other modules' authorising statements (extras of a target reference,
// src/http/operation.ts): SQL over the company row `t` and the request's inputs (extraInput), so
// that an operation such as createQuotation reads the offer, its catalog membership and the
// subscription it changes in the same round trip as the caller and its target. The JSON values
// come back as the rows the repositories give (each value as its column maps it).
import { sql, type SQL } from 'drizzle-orm';
import { jsonRowReader } from '../../db/row-json.ts';
import { extraInput } from '../../authz/resolve.ts';
import { COMPANY_CATALOG_EXTRA } from './catalogs.repo.ts';
import { offers, subscriptions } from './commerce.tables.ts';
import { field, isRecord } from '../../shared/json-values.ts';

/** The offer named by the input, as one JSON value (NULL when none). */
export const offerExtra = (input: string): SQL =>
  sql`(SELECT to_jsonb(o) FROM offers o WHERE o.id = ${extraInput(input)})`;

/** Whether the offer named by the input is in the catalog the company `t` sees (its own, its BP's..., the default: COMPANY_CATALOG_EXTRA). */
export const offerInCatalogExtra = (input: string): SQL =>
  sql`EXISTS (SELECT 1 FROM catalog_offers co WHERE co.offer_id = ${extraInput(input)} AND co.catalog_id = (${COMPANY_CATALOG_EXTRA}))`;

/** The subscription named by the input with its offer, as one JSON value {sub, offer} (NULL when none). */
export const subscriptionWithOfferExtra = (input: string): SQL =>
  sql`(SELECT json_build_object('sub', to_jsonb(s), 'offer', to_jsonb(o)) FROM subscriptions s JOIN offers o ON o.id = s.offer_id WHERE s.id = ${extraInput(input)})`;

// Rows from their to_jsonb form, each value as its column gives it to the code (src/db/row-json.ts).
const readOffer = jsonRowReader<typeof offers.$inferSelect>(offers);
const readSubscription = jsonRowReader<typeof subscriptions.$inferSelect>(subscriptions);

/** The offerExtra value as commerce's offer row. */
export const offerFromExtra = (v: unknown): typeof offers.$inferSelect | undefined =>
  isRecord(v) ? readOffer(v) : undefined;

/** The subscriptionWithOfferExtra value as findWithOffer gives it. */
export function subscriptionWithOfferFromExtra(
  v: unknown,
): { sub: typeof subscriptions.$inferSelect; offer: typeof offers.$inferSelect } | undefined {
  const sub = field(v, 'sub');
  const offer = field(v, 'offer');
  return isRecord(sub) && isRecord(offer) ? { sub: readSubscription(sub), offer: readOffer(offer) } : undefined;
}
