// Rules of catalogs (route table, Commerce, +; docs/decisions.md, Commerce): superadmin makes
// them and fills them with offers; a company sees its own, else its BP's, else the default one.
import type { Static } from 'typebox';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import type { Paging } from '../../http/paging.ts';
import * as repo from './catalogs.repo.ts';
import * as offersRepo from './offers.repo.ts';
import type { Catalog, CATALOG_SORT_FIELDS, CreateCatalogBody, UpdateCatalogBody } from './catalogs.schemas.ts';

export function toApiCatalog(c: repo.CatalogRow, offerIds: string[]): Static<typeof Catalog> {
  return { ...c, offerIds };
}

async function read(exec: Executor, c: repo.CatalogRow) {
  return toApiCatalog(c, (await repo.offerIdsOf(exec, [c.id])).get(c.id) ?? []);
}

async function checkOffersExist(exec: Executor, offerIds: string[]): Promise<void> {
  const missing = await offersRepo.missingOffers(exec, offerIds);
  if (missing.length) fail('UNKNOWN_REFERENCE', { offerIds: missing });
}

/** The catalog becomes the default one; the previous default stops being it. */
async function makeDefault(exec: Executor, id: string, now: Date): Promise<repo.CatalogRow> {
  await repo.clearDefaultExcept(exec, id, now);
  return repo.updateCatalogRow(exec, id, { isDefault: true, lastUpdateDate: now });
}

export async function createCatalog(db: Executor, body: Static<typeof CreateCatalogBody>, now: Date) {
  return db.transaction(async (exec) => {
    const offerIds = [...new Set(body.offerIds ?? [])];
    await checkOffersExist(exec, offerIds);
    let row = await repo.insertCatalog(exec, {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      creationDate: now,
      lastUpdateDate: now,
    });
    if (body.isDefault) row = await makeDefault(exec, row.id, now);
    // The default offer is in every catalog: every company holds it.
    const defaultOffer = await offersRepo.defaultOfferId(exec);
    await repo.addOffers(exec, row.id, [...(defaultOffer ? [defaultOffer] : []), ...offerIds]);
    return read(exec, row);
  });
}

export async function getCatalog(db: Executor, target: repo.CatalogRow) {
  return read(db, target);
}

export async function listCatalogs(
  db: Executor,
  paging: Paging<(typeof CATALOG_SORT_FIELDS)[number]>,
  withOffers: boolean,
) {
  const { rows, total } = await repo.listCatalogRows(db, paging);
  const offers = withOffers
    ? await repo.offerIdsOf(
        db,
        rows.map((r) => r.id),
      )
    : new Map<string, string[]>();
  return {
    items: rows.map((r) => toApiCatalog(r, offers.get(r.id) ?? [])),
    total,
    limit: paging.limit,
    offset: paging.offset,
  };
}

export async function updateCatalog(
  db: Executor,
  target: repo.CatalogRow,
  body: Static<typeof UpdateCatalogBody>,
  now: Date,
) {
  return db.transaction(async (exec) => {
    // There is always one default catalog: another one takes the role, this one cannot drop it.
    if (body.isDefault === false && target.isDefault) fail('CATALOG_DEFAULT_PROTECTED', { catalogId: target.id });
    const patch: Partial<repo.NewCatalog> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.description !== undefined) patch.description = body.description;
    let row = Object.keys(patch).length
      ? await repo.updateCatalogRow(exec, target.id, { ...patch, lastUpdateDate: now })
      : target;
    if (body.isDefault === true && !target.isDefault) row = await makeDefault(exec, target.id, now);
    return read(exec, row);
  });
}

export async function deleteCatalog(db: Executor, target: repo.CatalogRow): Promise<void> {
  await db.transaction(async (exec) => {
    if (target.isDefault) fail('CATALOG_DEFAULT_PROTECTED', { catalogId: target.id });
    const n = await repo.countCompaniesOf(exec, target.id);
    if (n > 0) fail('CATALOG_IN_USE', { catalogId: target.id, companies: n });
    await repo.deleteCatalogRow(exec, target.id);
  });
}

export async function addOfferToCatalog(db: Executor, target: repo.CatalogRow, offerId: string, now: Date) {
  return db.transaction(async (exec) => {
    await checkOffersExist(exec, [offerId]);
    await repo.addOffers(exec, target.id, [offerId]);
    return read(exec, await repo.updateCatalogRow(exec, target.id, { lastUpdateDate: now }));
  });
}

export async function removeOfferFromCatalog(
  db: Executor,
  target: repo.CatalogRow,
  offerId: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (exec) => {
    if (offerId === (await offersRepo.defaultOfferId(exec))) fail('OFFER_DEFAULT_PROTECTED', { offerId });
    if (!(await repo.removeOffer(exec, target.id, offerId)))
      fail('NOT_FOUND', { target: 'offer', id: offerId, catalogId: target.id });
    await repo.updateCatalogRow(exec, target.id, { lastUpdateDate: now });
  });
}
