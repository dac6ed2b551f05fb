import { Type } from 'typebox';
import type { AnyOperation } from '../../../http/operation.ts';
import { defineOperation } from '../../../http/operation.ts';
import { parsePaging, listResult } from '../../../http/paging.ts';
import {
  CompanyIdParams,
  CreateSiteBody,
  FormatQuery,
  ListAllSitesQuery,
  ListSitesQuery,
  Site,
  SiteIdParams,
  SITE_FORMATS,
  SITE_SORT_FIELDS,
  UpdateSiteBody,
} from './sites.schemas.ts';
import * as service from './sites.service.ts';
import * as repo from './sites.repo.ts';

const tag = 'Sites';
const A = '/admin/v1.0';
const P = `${A}/sites`;
const siteTarget = { kind: 'site', from: 'params', field: 'siteId' } as const;

export const createSite = defineOperation({
  operationId: 'createSite',
  method: 'POST',
  path: P,
  tag,
  summary: 'Create a site in a company',
  body: CreateSiteBody,
  response: Site,
  envelope: 'data',
  formats: { ...SITE_FORMATS, default: 'full' },
  target: { kind: 'company', from: 'body', field: 'companyId' },
  command: (ctx, { body }) => service.createSite(ctx.db, ctx.target.id, body, ctx.now),
});

export const listAllSites = defineOperation({
  operationId: 'listAllSites',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the sites the caller may see',
  query: ListAllSitesQuery,
  response: Site,
  envelope: 'list',
  formats: SITE_FORMATS,
  scope: 'site',
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, SITE_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listSiteRows(
      ctx.db,
      ctx.scope,
      { companyId: query.companyId, status: query.status },
      paging,
    );
    return listResult(rows.map(service.toApiSite), total, paging);
  },
});

export const listCompanySites = defineOperation({
  operationId: 'listCompanySites',
  method: 'GET',
  path: `${A}/companies/:companyId/sites`,
  tag,
  summary: 'List the sites of a company',
  params: CompanyIdParams,
  query: ListSitesQuery,
  response: Site,
  envelope: 'list',
  formats: SITE_FORMATS,
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, SITE_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listSiteRows(ctx.db, undefined, { companyId: ctx.target.id }, paging);
    return listResult(rows.map(service.toApiSite), total, paging);
  },
});

export const getSite = defineOperation({
  operationId: 'getSite',
  method: 'GET',
  path: `${P}/:siteId`,
  tag,
  summary: 'Get a site',
  params: SiteIdParams,
  query: FormatQuery,
  response: Site,
  envelope: 'data',
  formats: SITE_FORMATS,
  target: siteTarget,
  command: async (ctx) => service.toApiSite(ctx.target),
});

export const updateSite = defineOperation({
  operationId: 'updateSite',
  errors: ['SITE_HAS_SITE_ADMINS', 'SITE_MOVE_NOT_ALLOWED'],
  method: 'PUT',
  path: `${P}/:siteId`,
  tag,
  summary: 'Update a site: rename, change its status, or move it to another company',
  description: "companyId is required: the site's current company, or another one to move the site there.",
  params: SiteIdParams,
  body: UpdateSiteBody,
  response: Site,
  envelope: 'data',
  formats: { ...SITE_FORMATS, default: 'full' },
  target: siteTarget,
  // Moving the site: the company it moves to, which the mover must administer too.
  second: {
    destination: {
      kind: 'company',
      from: 'body',
      field: 'companyId',
      when: (site, { body }) =>
        (body && typeof body === 'object' && 'companyId' in body ? body.companyId : undefined) !== site.companyId,
    },
  },
  command: (ctx, { body }) => service.updateSite(ctx.db, ctx.target, body, ctx.now),
});

export const deleteSite = defineOperation({
  operationId: 'deleteSite',
  errors: ['SITE_HAS_SITE_ADMINS', 'SITE_LINKED_TO_SYSTEMS'],
  method: 'DELETE',
  path: `${P}/:siteId`,
  tag,
  summary: 'Delete a site (refused while it is linked to systems or has site administrators)',
  params: SiteIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: siteTarget,
  command: async (ctx) => {
    await service.deleteSite(ctx.db, ctx.target);
    return { status: `Site ${ctx.target.id} deleted`, data: [] };
  },
});

export const sitesOperations: AnyOperation[] = [
  createSite,
  listAllSites,
  listCompanySites,
  getSite,
  updateSite,
  deleteSite,
];
