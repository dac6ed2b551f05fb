// Catalogs of offers (route table, Commerce, +): superadmin manages them, support reads them.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { formatLevel } from '../../http/format.ts';
import { parsePaging } from '../../http/paging.ts';
import {
  AddOfferBody,
  Catalog,
  CATALOG_FORMATS,
  CATALOG_SORT_FIELDS,
  CatalogIdParams,
  CatalogOfferParams,
  CreateCatalogBody,
  FormatQuery,
  ListCatalogsQuery,
  UpdateCatalogBody,
} from './catalogs.schemas.ts';
import * as service from './catalogs.service.ts';

const tag = 'Catalogs';
const P = '/subscription/v1.0/catalogs';
const catalogTarget = { kind: 'catalog', from: 'params', field: 'catalogId' } as const;
const full = { ...CATALOG_FORMATS, default: 'full' } as const;

export const createCatalog = defineOperation({
  operationId: 'createCatalog',
  method: 'POST',
  path: P,
  tag,
  summary: 'Create a catalog, with the offers it holds from the start (the default offer is in every catalog)',
  body: CreateCatalogBody,
  response: Catalog,
  envelope: 'data',
  formats: full,
  scope: 'caller',
  command: (ctx, { body }) => service.createCatalog(ctx.db, body, ctx.now),
});

export const listCatalogs = defineOperation({
  operationId: 'listCatalogs',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the catalogs',
  query: ListCatalogsQuery,
  response: Catalog,
  envelope: 'list',
  formats: CATALOG_FORMATS,
  scope: 'catalog',
  command: (ctx, { query }) =>
    service.listCatalogs(
      ctx.db,
      parsePaging(query, CATALOG_SORT_FIELDS, 'name'),
      formatLevel(query.format, 'small') === 'full',
    ),
});

export const getCatalog = defineOperation({
  operationId: 'getCatalog',
  method: 'GET',
  path: `${P}/:catalogId`,
  tag,
  summary: 'Get a catalog and the ids of its offers',
  params: CatalogIdParams,
  query: FormatQuery,
  response: Catalog,
  envelope: 'data',
  formats: CATALOG_FORMATS,
  target: catalogTarget,
  command: (ctx) => service.getCatalog(ctx.db, ctx.target),
});

export const updateCatalog = defineOperation({
  operationId: 'updateCatalog',
  errors: ['CATALOG_DEFAULT_PROTECTED'],
  method: 'PUT',
  path: `${P}/:catalogId`,
  tag,
  summary: 'Rename a catalog, change its description, or make it the default catalog',
  params: CatalogIdParams,
  body: UpdateCatalogBody,
  response: Catalog,
  envelope: 'data',
  formats: full,
  target: catalogTarget,
  command: (ctx, { body }) => service.updateCatalog(ctx.db, ctx.target, body, ctx.now),
});

export const deleteCatalog = defineOperation({
  operationId: 'deleteCatalog',
  errors: ['CATALOG_DEFAULT_PROTECTED', 'CATALOG_IN_USE'],
  method: 'DELETE',
  path: `${P}/:catalogId`,
  tag,
  summary: 'Delete a catalog no company is assigned to; never the default catalog',
  params: CatalogIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: catalogTarget,
  command: async (ctx) => {
    await service.deleteCatalog(ctx.db, ctx.target);
    return { status: `Catalog ${ctx.target.id} deleted`, data: [] };
  },
});

export const addOfferToCatalog = defineOperation({
  operationId: 'addOfferToCatalog',
  method: 'POST',
  path: `${P}/:catalogId/offers`,
  tag,
  summary: 'Add an offer to a catalog (adding one it holds changes nothing)',
  params: CatalogIdParams,
  body: AddOfferBody,
  response: Catalog,
  envelope: 'data',
  formats: full,
  target: catalogTarget,
  command: (ctx, { body }) => service.addOfferToCatalog(ctx.db, ctx.target, body.offerId, ctx.now),
});

export const removeOfferFromCatalog = defineOperation({
  operationId: 'removeOfferFromCatalog',
  errors: ['OFFER_DEFAULT_PROTECTED'],
  method: 'DELETE',
  path: `${P}/:catalogId/offers/:offerId`,
  tag,
  summary: 'Remove an offer from a catalog (subscriptions to it stay); never the default offer',
  params: CatalogOfferParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: catalogTarget,
  command: async (ctx, { params }) => {
    await service.removeOfferFromCatalog(ctx.db, ctx.target, params.offerId, ctx.now);
    return { status: `Offer ${params.offerId} removed from catalog ${ctx.target.id}`, data: [] };
  },
});

export const catalogsOperations: AnyOperation[] = [
  createCatalog,
  listCatalogs,
  getCatalog,
  updateCatalog,
  deleteCatalog,
  addOfferToCatalog,
  removeOfferFromCatalog,
];
