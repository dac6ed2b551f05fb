// SQL of offers; every function takes the executor it runs on.
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database, Executor } from '../../db/client.ts';
import { runCounted, unlessUnchanged, versionedCount } from '../../db/list-count.ts';
import { jsonPageReader } from '../../db/row-json.ts';
import { escapeLike } from '../../db/like.ts';
import type { Paging } from '../../http/paging.ts';
import { newId } from '../../shared/ids.ts';
import { catalogOffers, offers, subscriptions } from './commerce.tables.ts';
import type { OFFER_SORT_FIELDS } from './offers.schemas.ts';

export type OfferRow = typeof offers.$inferSelect;
export type NewOffer = typeof offers.$inferInsert;

export async function insertOffer(exec: Executor, o: NewOffer): Promise<OfferRow> {
  const [row] = await exec.insert(offers).values(o).returning();
  return row;
}

export async function updateOfferRow(exec: Executor, id: string, patch: Partial<NewOffer>): Promise<OfferRow> {
  const [row] = await exec.update(offers).set(patch).where(eq(offers.id, id)).returning();
  return row;
}

export async function deleteOfferRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(offers).where(eq(offers.id, id));
}

/** Whether any subscription (terminated ones included: they keep their offer) names the offer. */
export async function hasSubscriptions(exec: Executor, offerId: string): Promise<boolean> {
  const rows = await exec
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.offerId, offerId))
    .limit(1);
  return rows.length > 0;
}

/** The ids among `ids` that name no offer. */
export async function missingOffers(exec: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await exec
    .select({ id: offers.id })
    .from(offers)
    .where(sql`${offers.id} = ANY(${sql.param(ids)}::text[])`);
  const known = new Set(found.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

// ---------------------------------------------------------------------------------------------
// Lists (document 1, list offers of a company; listAllOffers): every filter and the sort in SQL.

export interface OfferFilters {
  name?: string;
  canBeSold?: boolean;
  autoSubscribe?: boolean;
  isExclusive?: boolean;
  isPrepaid?: boolean;
  profileId?: string;
  offerReference?: string;
  erpReference?: string;
  /** A business_admin sees demo offers only (document 1). */
  demoOnly?: boolean;
}

export function offerFilterSql(f: OfferFilters): SQL[] {
  const c: SQL[] = [];
  if (f.name) c.push(sql`${offers.name} ILIKE ${`%${escapeLike(f.name)}%`}`);
  for (const k of ['canBeSold', 'autoSubscribe', 'isExclusive', 'isPrepaid'] as const)
    if (f[k] !== undefined) c.push(eq(offers[k], f[k]));
  for (const k of ['profileId', 'offerReference', 'erpReference'] as const) if (f[k]) c.push(eq(offers[k], f[k]));
  if (f.demoOnly) c.push(eq(offers.isDemo, true));
  return c;
}

const SORT: Record<(typeof OFFER_SORT_FIELDS)[number], SQL | AnyPgColumn> = {
  name: sql`lower(${offers.name})`,
  _id: offers.id,
};

/** The offers of a page, read once per remembered page. */
const offersOfPage = jsonPageReader<OfferRow>(offers);

/**
 * A page of offers and the number matching, in one prepared statement (docs/decisions.md, Offer lists under
 * load). With `catalogId`, the catalog's offers: its index range of catalog_offers. The page and the count are
 * computed only when offers or catalog_offers changed since this statement (with these values)
 * was last answered by this instance; otherwise the remembered answer stands (the 'offers' list
 * version, moved in the writing transaction by the triggers of migration 0017; src/db/list-count.ts).
 */
export async function listOfferRows(
  database: Database,
  catalogId: string | undefined,
  f: OfferFilters,
  p: Paging<(typeof OFFER_SORT_FIELDS)[number]>,
  version?: string,
) {
  const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
  const where = and(...(catalogId ? [eq(catalogOffers.catalogId, catalogId)] : []), ...offerFilterSql(f)) ?? sql`TRUE`;
  const from = catalogId
    ? sql`${catalogOffers} JOIN ${offers} ON ${offers.id} = ${catalogOffers.offerId}`
    : sql`${offers}`;
  const row = await runCounted<{
    list_version: string | null;
    total: number | null;
    rows: Record<string, unknown>[] | null;
  }>(
    database,
    (known) => sql`WITH page AS (
      SELECT ${offers}.*, ${SORT[p.sortField]} AS k FROM ${from} WHERE ${where}
      ORDER BY ${SORT[p.sortField]} ${dir}, ${offers.id} ${dir} LIMIT ${p.limit} OFFSET ${p.offset})
    SELECT ${unlessUnchanged('offers', sql`COALESCE((SELECT json_agg(to_jsonb(page) ORDER BY page.k ${dir}, page.id ${dir}) FROM page), '[]'::json)`, known, 'rows')},
      ${versionedCount('offers', sql`SELECT count(*)::int FROM ${from} WHERE ${where}`, known)}`,
    // Everything the statement depends on: built once per catalog, filter values and page.
    JSON.stringify(['offers', catalogId ?? null, f, p]),
    version,
  );
  return { rows: offersOfPage(row.rows ?? []), total: row.total };
}

/** The offer, and whether it is in the catalog. */
export async function findOfferInCatalog(
  exec: Executor,
  offerId: string,
  catalogId: string,
): Promise<{ offer: OfferRow; inCatalog: boolean } | undefined> {
  const [row] = await exec
    .select({
      offer: getTableColumns(offers),
      inCatalog: sql<boolean>`EXISTS (SELECT 1 FROM ${catalogOffers} co WHERE co.catalog_id = ${catalogId} AND co.offer_id = ${offers.id})`,
    })
    .from(offers)
    .where(eq(offers.id, offerId));
  return row;
}

// ---------------------------------------------------------------------------------------------
// The default offer (document 3, create company rule 7).

export const DEFAULT_OFFER = {
  name: 'Essential',
  profileName: 'Essential',
  groupName: 'essential',
  description: 'The free offer every company receives',
};

/** The default offer, created when missing; idempotent and safe to run from several instances. */
/** The default offer, created when missing; `created` says whether this call made it. */
export async function ensureDefaultOffer(db: Executor): Promise<{ id: string; created: boolean }> {
  // Read first: a restart finds it and writes nothing (docs/decisions.md, Performance, "A restart writes nothing").
  const existing = await defaultOfferId(db);
  if (existing) return { id: existing, created: false };
  const made = await db
    .insert(offers)
    .values({
      id: newId(),
      name: DEFAULT_OFFER.name,
      description: DEFAULT_OFFER.description,
      profileId: newId(),
      profileName: DEFAULT_OFFER.profileName,
      groupName: DEFAULT_OFFER.groupName,
      isDefault: true,
      canBeSold: false,
    })
    .onConflictDoNothing()
    .returning({ id: offers.id });
  if (made[0]) return { id: made[0].id, created: true };
  return { id: (await defaultOfferId(db))!, created: false };
}

export async function defaultOfferId(exec: Executor): Promise<string | undefined> {
  const [o] = await exec.select({ id: offers.id }).from(offers).where(eq(offers.isDefault, true)).limit(1);
  return o?.id;
}
