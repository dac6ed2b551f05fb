// SQL of catalogs and of the offers they hold; every function takes the executor it runs on.
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import type { Paging } from '../../http/paging.ts';
import { newId } from '../../shared/ids.ts';
import { BP_CATALOG, countCompaniesWithCatalog, overCompany } from '../admin/companies/companies.api.ts';
import { catalogOffers, catalogs, offers } from './commerce.tables.ts';
import type { CATALOG_SORT_FIELDS } from './catalogs.schemas.ts';

export type CatalogRow = typeof catalogs.$inferSelect;
export type NewCatalog = typeof catalogs.$inferInsert;

export async function insertCatalog(exec: Executor, c: NewCatalog): Promise<CatalogRow> {
  const [row] = await exec.insert(catalogs).values(c).returning();
  return row;
}

export async function updateCatalogRow(exec: Executor, id: string, patch: Partial<NewCatalog>): Promise<CatalogRow> {
  const [row] = await exec.update(catalogs).set(patch).where(eq(catalogs.id, id)).returning();
  return row;
}

export async function deleteCatalogRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(catalogs).where(eq(catalogs.id, id));
}

export async function catalogExists(exec: Executor, id: string): Promise<boolean> {
  const rows = await exec.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.id, id)).limit(1);
  return rows.length > 0;
}

/** The default catalog stops being it (another one is about to become it). */
export async function clearDefaultExcept(exec: Executor, id: string, now: Date): Promise<void> {
  await exec
    .update(catalogs)
    .set({ isDefault: false, lastUpdateDate: now })
    .where(and(eq(catalogs.isDefault, true), ne(catalogs.id, id)));
}

export const countCompaniesOf = countCompaniesWithCatalog;

/** The offer ids of each catalog, in name order. */
export async function offerIdsOf(exec: Executor, catalogIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(catalogIds.map((id) => [id, []]));
  if (catalogIds.length === 0) return out;
  const rows = await exec
    .select({ catalogId: catalogOffers.catalogId, offerId: catalogOffers.offerId })
    .from(catalogOffers)
    .innerJoin(offers, eq(offers.id, catalogOffers.offerId))
    .where(inArray(catalogOffers.catalogId, catalogIds))
    .orderBy(asc(sql`lower(${offers.name})`), asc(offers.id));
  for (const r of rows) out.get(r.catalogId)!.push(r.offerId);
  return out;
}

export async function addOffers(exec: Executor, catalogId: string, offerIds: string[]): Promise<void> {
  if (offerIds.length === 0) return;
  await exec
    .insert(catalogOffers)
    .values(offerIds.map((offerId) => ({ catalogId, offerId })))
    .onConflictDoNothing();
}

/** Whether the offer was in the catalog. */
export async function removeOffer(exec: Executor, catalogId: string, offerId: string): Promise<boolean> {
  const rows = await exec
    .delete(catalogOffers)
    .where(and(eq(catalogOffers.catalogId, catalogId), eq(catalogOffers.offerId, offerId)))
    .returning({ id: catalogOffers.offerId });
  return rows.length > 0;
}

const SORT: Record<(typeof CATALOG_SORT_FIELDS)[number], SQL | AnyPgColumn> = {
  name: sql`lower(${catalogs.name})`,
  creationDate: catalogs.creationDate,
};

export async function listCatalogRows(
  exec: Executor,
  p: Paging<(typeof CATALOG_SORT_FIELDS)[number]>,
): Promise<{ rows: CatalogRow[]; total: number }> {
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec.select().from(catalogs).orderBy(dir(SORT[p.sortField]), dir(catalogs.id)).limit(p.limit).offset(p.offset),
    exec.select({ n: sql<number>`count(*)::int` }).from(catalogs),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// The catalog a company sees (docs/decisions.md, Commerce): its own, else its BP's, else its
// BP's BP's (an End Customer of a BP IR whose VAD has one), else the default catalog.

/** As an SQL expression over the company row `t`, for a target's extras (one round trip). */
export const COMPANY_CATALOG_EXTRA = sql`COALESCE(t.catalog_id,
  ${BP_CATALOG},
  (SELECT d.id FROM catalogs d WHERE d.is_default))`;

/** The same, for a company named by id. */
export async function catalogOfCompany(exec: Executor, companyId: string): Promise<string | undefined> {
  const row = await overCompany<{ catalogId: string | null }>(exec, companyId, { catalogId: COMPANY_CATALOG_EXTRA });
  return row?.catalogId ?? undefined;
}

// ---------------------------------------------------------------------------------------------
// First start.

export const DEFAULT_CATALOG = {
  name: 'Default catalog',
  description: 'The catalog of companies that have none and whose BPs have none',
};

/** The default catalog, created when no catalog is the default; idempotent and safe from several instances. */
export async function ensureDefaultCatalog(exec: Executor): Promise<void> {
  // Read first: a restart finds it and writes nothing.
  const found = await exec.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.isDefault, true)).limit(1);
  if (found.length) return;
  await exec.execute(sql`INSERT INTO catalogs (id, name, description, is_default)
    SELECT ${newId()}, ${DEFAULT_CATALOG.name}, ${DEFAULT_CATALOG.description}, TRUE WHERE NOT EXISTS (SELECT 1 FROM catalogs WHERE is_default)
    ON CONFLICT DO NOTHING`);
}

/** The offer joins every catalog (the default offer: every company holds it, so every catalog shows it). */
export async function addOfferToEveryCatalog(exec: Executor, offerId: string): Promise<void> {
  // Read first: when every catalog holds it (a restart), nothing is written.
  const missing = await exec
    .select({ id: catalogs.id })
    .from(catalogs)
    .where(
      sql`NOT EXISTS (SELECT 1 FROM ${catalogOffers} co WHERE co.catalog_id = ${catalogs.id} AND co.offer_id = ${offerId})`,
    )
    .limit(1);
  if (!missing.length) return;
  await exec.execute(
    sql`INSERT INTO catalog_offers (catalog_id, offer_id) SELECT c.id, ${offerId} FROM catalogs c ON CONFLICT DO NOTHING`,
  );
}
