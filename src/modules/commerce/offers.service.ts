// Rules of offers: their management by superadmin (route table, +; docs/decisions.md, Commerce)
// and what a company sees of them (document 1, list offers of a company, get an offer).
import type { Static } from 'typebox';
import type { Database, Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import type { Caller } from '../../authz/roles.ts';
import { grantsReach } from '../../authz/reach.ts';
import type { Grant } from '../../authz/grant.ts';
import type { Paging } from '../../http/paging.ts';
import { isCurrency } from './money.ts';
import * as repo from './offers.repo.ts';
import type { CreateOfferBody, Offer, OFFER_SORT_FIELDS, UpdateOfferBody } from './offers.schemas.ts';
import type { OfferFeature, OfferPrice, OfferProvisioning } from './commerce.tables.ts';

type CreateBody = Static<typeof CreateOfferBody>;
type UpdateBody = Static<typeof UpdateOfferBody>;

export function toApiOffer(o: repo.OfferRow): Static<typeof Offer> {
  return {
    ...o,
    // An offer declares what its subscriptions need; provisioning itself runs for subscriptions.
    provisioningNeeded: o.provisioningNeeded.map((p) => ({ ...p, provisioningOngoing: false })),
  };
}

/** The rules a whole offer obeys, on its state after the change (create, update). */
function checkOffer(o: {
  isPrepaid: boolean;
  prepaidDuration: number | null;
  prices: OfferPrice[];
  provisioningNeeded: OfferProvisioning[];
  features: OfferFeature[];
}): void {
  const unknown = o.prices.filter((p) => !isCurrency(p.currency)).map((p) => p.currency);
  if (unknown.length) fail('OFFER_PRICE_CURRENCY_UNKNOWN', { currencies: unknown });
  const currencies = o.prices.map((p) => p.currency);
  const twice = currencies.filter((c, i) => currencies.indexOf(c) !== i);
  if (twice.length) fail('OFFER_PRICE_CURRENCY_TWICE', { currencies: [...new Set(twice)] });
  // Document 1, Provisioning entry: a media server kind with mediaType, a conference bridge kind with bridgeEnterpriseId.
  const badEntry = o.provisioningNeeded.findIndex((p) =>
    p.providerType === 'media'
      ? !p.mediaType || p.bridgeEnterpriseId !== undefined
      : !p.bridgeEnterpriseId || p.mediaType !== undefined,
  );
  if (badEntry >= 0) fail('OFFER_PROVISIONING_INVALID', { index: badEntry });
  const refs = o.features.map((f) => f.featureUniqueRef);
  const badFeature = o.features.findIndex(
    (f, i) =>
      refs.indexOf(f.featureUniqueRef) !== i ||
      (f.featureType === 'number'
        ? f.limitMax === undefined || f.isEnabled !== undefined
        : f.isEnabled === undefined || f.limitMax !== undefined),
  );
  if (badFeature >= 0) fail('OFFER_FEATURE_INVALID', { index: badFeature });
  // Document 1, Limits: prepaidDuration 12 to 60 months (the schema bounds it), for prepaid offers.
  if (o.isPrepaid !== (o.prepaidDuration !== null))
    fail('OFFER_PREPAID_DURATION', { isPrepaid: o.isPrepaid, prepaidDuration: o.prepaidDuration });
}

/** The columns a body sets (undefined: unchanged). */
function columnsOf(body: CreateBody | UpdateBody): Partial<repo.NewOffer> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined) out[k] = v;
  return out;
}

export async function createOffer(db: Executor, body: CreateBody, now: Date) {
  const values = {
    isPrepaid: false,
    prepaidDuration: null,
    prices: [],
    provisioningNeeded: [],
    features: [],
    ...columnsOf(body),
    name: body.name,
    id: newId(),
    creationDate: now,
    lastUpdateDate: now,
  };
  checkOffer(values);
  return toApiOffer(await repo.insertOffer(db, values));
}

export async function updateOffer(db: Executor, target: repo.OfferRow, body: UpdateBody, now: Date) {
  const patch = columnsOf(body);
  checkOffer({ ...target, ...patch });
  if (Object.keys(patch).length === 0) return toApiOffer(target);
  return toApiOffer(await repo.updateOfferRow(db, target.id, { ...patch, lastUpdateDate: now }));
}

/** An offer goes while nobody holds it: subscriptions (terminated ones too) keep their offer. */
export async function deleteOffer(db: Executor, target: repo.OfferRow): Promise<void> {
  await db.transaction(async (exec) => {
    if (target.isDefault) fail('OFFER_DEFAULT_PROTECTED', { offerId: target.id });
    if (await repo.hasSubscriptions(exec, target.id)) fail('OFFER_HAS_SUBSCRIPTIONS', { offerId: target.id });
    await repo.deleteOfferRow(exec, target.id);
  });
}

/**
 * The answer's items of each page the repository remembers (it returns the same rows while the
 * offers do not change): mapped once, not on every request. Nothing downstream modifies them
 * (the format levels copy the fields they keep).
 */
const apiItemsOf = new WeakMap<readonly repo.OfferRow[], Static<typeof Offer>[]>();

export async function listAllOffers(
  database: Database,
  catalogId: string | undefined,
  filters: repo.OfferFilters,
  paging: Paging<(typeof OFFER_SORT_FIELDS)[number]>,
  version?: string,
) {
  const { rows, total } = await repo.listOfferRows(database, catalogId, filters, paging, version);
  let items = apiItemsOf.get(rows);
  if (!items) apiItemsOf.set(rows, (items = rows.map(toApiOffer)));
  return { items, total, limit: paging.limit, offset: paging.offset };
}

// ---------------------------------------------------------------------------------------------
// A company's offers (document 1): those of the catalog assigned to it.

/**
 * Document 1, list offers of a company: "business_admin: demo offers of any company". A caller
 * who reaches the company through another grant of the operation sees every offer of it. The
 * same holds for subscriptions ("business_admin: demo subscriptions only").
 */
export async function demoOnly(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  companyId: string,
): Promise<boolean> {
  if (!caller.roles.includes('business_admin')) return false;
  return !(await grantsReach(
    db,
    caller,
    grants.filter((g) => !g.roles.includes('business_admin')),
    'company',
    companyId,
  ));
}

export async function listCompanyOffers(
  database: Database,
  caller: Caller,
  grants: readonly Grant[],
  company: { id: string },
  catalogId: string | null,
  filters: repo.OfferFilters,
  paging: Paging<(typeof OFFER_SORT_FIELDS)[number]>,
  version?: string,
) {
  if (!catalogId) return { items: [], total: 0, limit: paging.limit, offset: paging.offset };
  return listAllOffers(
    database,
    catalogId,
    { ...filters, demoOnly: await demoOnly(database.db, caller, grants, company.id) },
    paging,
    version,
  );
}

/** Document 1, get an offer: 403 when the offer is not in the company's catalog; 404 when there is no such offer. */
export async function getCompanyOffer(
  db: Executor,
  caller: Caller,
  grants: readonly Grant[],
  company: { id: string },
  catalogId: string | null,
  offerId: string,
) {
  const found = await repo.findOfferInCatalog(db, offerId, catalogId ?? '');
  if (!found) fail('NOT_FOUND', { target: 'offer', id: offerId });
  if (!found.inCatalog) fail('OFFER_NOT_IN_CATALOG', { offerId, companyId: company.id, catalogId });
  if (!found.offer.isDemo && (await demoOnly(db, caller, grants, company.id))) fail('OFFER_NOT_DEMO', { offerId });
  return toApiOffer(found.offer);
}
