import { Type } from 'typebox';
import type { AnyOperation } from '../../../http/operation.ts';
import { defineOperation } from '../../../http/operation.ts';
import { parsePaging, listResult } from '../../../http/paging.ts';
import {
  CreateOrganisationBody,
  FormatQuery,
  LinkCompanyBody,
  LinkCompanyQuery,
  ListOrganisationCompaniesQuery,
  ListOrganisationsQuery,
  Organisation,
  OrganisationCompany,
  OrganisationCompanyParams,
  OrganisationIdParams,
  ORGANISATION_COMPANY_FORMATS,
  ORGANISATION_COMPANY_SORT_FIELDS,
  ORGANISATION_FORMATS,
  ORGANISATION_SORT_FIELDS,
  UpdateOrganisationBody,
} from './organisations.schemas.ts';
import { COMPANY_FORMATS, Company } from '../companies/companies.api.ts';
import * as service from './organisations.service.ts';
import * as repo from './organisations.repo.ts';

const tag = 'Organisations';
const P = '/admin/v1.0/organisations';
const target = { kind: 'organisation', from: 'params', field: 'organisationId' } as const;

export const createOrganisation = defineOperation({
  operationId: 'createOrganisation',
  method: 'POST',
  path: P,
  tag,
  summary: 'Create an organisation',
  body: CreateOrganisationBody,
  response: Organisation,
  envelope: 'data',
  formats: { ...ORGANISATION_FORMATS, default: 'full' },
  // No resource yet: the caller needs a grant (403 without one).
  scope: 'caller',
  command: (ctx, { body }) => service.createOrganisation(ctx.db, body, ctx.now),
});

export const listOrganisations = defineOperation({
  operationId: 'listOrganisations',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the organisations the caller may see',
  query: ListOrganisationsQuery,
  response: Organisation,
  envelope: 'list',
  formats: ORGANISATION_FORMATS,
  scope: 'organisation',
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, ORGANISATION_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listOrganisationRows(ctx.db, ctx.scope, paging);
    return listResult(rows.map(service.toApiOrganisation), total, paging);
  },
});

export const getOrganisation = defineOperation({
  operationId: 'getOrganisation',
  method: 'GET',
  path: `${P}/:organisationId`,
  tag,
  summary: 'Get an organisation',
  params: OrganisationIdParams,
  query: FormatQuery,
  response: Organisation,
  envelope: 'data',
  formats: { ...ORGANISATION_FORMATS, default: 'full' },
  target,
  command: async (ctx) => service.toApiOrganisation(ctx.target),
});

export const updateOrganisation = defineOperation({
  operationId: 'updateOrganisation',
  method: 'PUT',
  path: `${P}/:organisationId`,
  tag,
  summary: 'Update an organisation; absent fields are left unchanged',
  params: OrganisationIdParams,
  body: UpdateOrganisationBody,
  response: Organisation,
  envelope: 'data',
  formats: { ...ORGANISATION_FORMATS, default: 'full' },
  target,
  command: (ctx, { body }) => service.updateOrganisation(ctx.db, ctx.target, body),
});

export const deleteOrganisation = defineOperation({
  operationId: 'deleteOrganisation',
  method: 'DELETE',
  path: `${P}/:organisationId`,
  tag,
  summary: 'Delete an organisation; its companies are unlinked, not deleted',
  params: OrganisationIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target,
  command: async (ctx) => {
    await service.deleteOrganisation(ctx.db, ctx.target);
    return { status: `Organisation ${ctx.target.id} deleted`, data: [] };
  },
});

export const linkCompanyToOrganisation = defineOperation({
  operationId: 'linkCompanyToOrganisation',
  errors: ['ORGANISATION_COMPANY_IN_OTHER', 'ORGANISATION_SYSTEM_COMPANY'],
  method: 'POST',
  path: `${P}/:organisationId/companies`,
  tag,
  summary: 'Link a company to the organisation (a company belongs to at most one organisation); answers the Company',
  params: OrganisationIdParams,
  query: LinkCompanyQuery,
  body: LinkCompanyBody,
  response: Company,
  envelope: 'data',
  // Document 3: `{data: Company}`, the whole company unless `format` says otherwise.
  formats: { ...COMPANY_FORMATS, default: 'full' },
  target,
  second: { company: { kind: 'company', from: 'body', field: 'companyId' } },
  command: (ctx, { body, query }) =>
    service.linkCompany(ctx.db, ctx.caller, ctx.target.id, body.companyId, query.selectedThemeObj),
});

export const listOrganisationCompanies = defineOperation({
  operationId: 'listOrganisationCompanies',
  method: 'GET',
  path: `${P}/:organisationId/companies`,
  tag,
  summary: 'List the companies of the organisation',
  params: OrganisationIdParams,
  query: ListOrganisationCompaniesQuery,
  response: OrganisationCompany,
  envelope: 'list',
  formats: ORGANISATION_COMPANY_FORMATS,
  target,
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, ORGANISATION_COMPANY_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listOrganisationCompanyRows(ctx.db, ctx.target.id, paging);
    return listResult(rows.map(service.toApiCompany), total, paging);
  },
});

export const unlinkCompanyFromOrganisation = defineOperation({
  operationId: 'unlinkCompanyFromOrganisation',
  method: 'DELETE',
  path: `${P}/:organisationId/companies/:companyId`,
  tag,
  summary: 'Remove a company from the organisation',
  params: OrganisationCompanyParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  // The company must be one of the organisation's: another gives 404.
  target: {
    kind: 'company',
    from: 'params',
    field: 'companyId',
    parents: { organisation: 'organisationId' },
  },
  command: async (ctx, { params }) => {
    await service.unlinkCompany(ctx.db, params.organisationId, ctx.target.id);
    return { status: `Company ${ctx.target.id} removed from organisation ${params.organisationId}`, data: [] };
  },
});

export const organisationsOperations: AnyOperation[] = [
  createOrganisation,
  listOrganisations,
  getOrganisation,
  updateOrganisation,
  deleteOrganisation,
  linkCompanyToOrganisation,
  listOrganisationCompanies,
  unlinkCompanyFromOrganisation,
];
