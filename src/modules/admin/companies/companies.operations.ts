import { Type } from 'typebox';
import type { AnyOperation } from '../../../http/operation.ts';
import { defineOperation } from '../../../http/operation.ts';
import { parsePaging, listResult } from '../../../http/paging.ts';
import { formatLevel, smallItems } from '../../../http/format.ts';
import { fail } from '../../../errors/catalogue.ts';
import type { ReferenceRef } from '../../../authz/references.ts';
import type { CompanyRow } from './companies.repo.ts';
import {
  ADMIN_SORT_FIELDS,
  ADMINISTRATOR_FORMATS,
  Administrator,
  COMPANY_FORMATS,
  COMPANY_SORT_FIELDS,
  Company,
  CompanyIdParams,
  Country,
  CreateCompanyBody,
  CustomDataBody,
  CustomDataResponse,
  GetCompanyQuery,
  ListAdministratorsQuery,
  ListCompaniesQuery,
  UpdateCompanyBody,
} from './companies.schemas.ts';
import { COUNTRIES } from './countries.ts';
import * as service from './companies.service.ts';
import * as repo from './companies.repo.ts';
import { companyCommerce } from './companies.hooks.ts';
import { listAdministrators, userCounts } from '../users/users.api.ts';

const tag = 'Companies';
const A = '/admin/v1.0/companies';
const E = '/enduser/v1.0';
const csv = (s: string | undefined) =>
  s
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * References (docs/decisions.md, References and tenant isolation): the ids a company's body names. Its contact
 * is one of its own users; the companies it is visible to are companies the caller may read.
 */
const visibleBy: ReferenceRef<CompanyRow> = { kind: 'company', rule: 'companies the caller may read' };
const NEW_COMPANY_REFERENCES: Record<string, ReferenceRef<CompanyRow>> = {
  // A company being created has no users yet: its contact is set once it has some.
  companyContactId: {
    kind: 'user',
    rule: 'a user of the company (none at creation: set it once the company has users)',
    where: () => null,
  },
  visibleBy,
};
const COMPANY_REFERENCES: Record<string, ReferenceRef<CompanyRow>> = {
  companyContactId: {
    kind: 'user',
    rule: 'a user of the company that the caller may read',
    where: (c) => ({ companyId: c.id }),
  },
  visibleBy,
  // The rest of the rule (a BP, active, not the company itself) is the service's: 400106.
  bpId: { kind: 'company', rule: 'a company the caller may read (and a BP: 400106)' },
};

export const createCompany = defineOperation({
  operationId: 'createCompany',
  errors: [
    'CATALOG_UNKNOWN',
    'COMPANY_BP_INVALID',
    'COMPANY_COUNTRY_UNKNOWN',
    'COMPANY_NAME_RESERVED',
    'COMPANY_STATE_INVALID',
    'COMPANY_SUPERADMIN_FIELD',
  ],
  method: 'POST',
  path: A,
  tag,
  summary: 'Create a company (document 3, create company rules 1 to 8)',
  description:
    'bp_admin / bp_finance: attached to their BP company, status initializing; a VAD creates a BP IR with isBP true. organization_admin: in his organisation, or under a BP of it (bpId). Every new company receives a subscription to the default offer.',
  body: CreateCompanyBody,
  response: Company,
  envelope: 'data',
  formats: { ...COMPANY_FORMATS, default: 'full' },
  target: { kind: 'company', from: 'body', field: 'bpId', fallback: 'companyId' },
  references: NEW_COMPANY_REFERENCES,
  command: (ctx, { body }) => service.createCompany(ctx.db, ctx.caller, ctx.target, body, ctx.now),
});

export const createOwnCompany = defineOperation({
  operationId: 'createOwnCompany',
  errors: ['COMPANY_OWN_NOT_FROM_DEFAULT'],
  method: 'POST',
  path: `${E}/companies`,
  tag,
  summary: 'A user of the Default company creates his own company and becomes its company_admin',
  body: CreateCompanyBody,
  response: Company,
  envelope: 'data',
  formats: { ...COMPANY_FORMATS, default: 'full' },
  // No path parameter: the target is always the caller's own company.
  target: { kind: 'company', from: 'params', field: 'companyId', fallback: 'companyId' },
  references: NEW_COMPANY_REFERENCES,
  command: (ctx, { body }) => {
    if (ctx.target.systemRole !== 'default') fail('COMPANY_OWN_NOT_FROM_DEFAULT');
    return service.createCompany(ctx.db, ctx.caller, ctx.target, body, ctx.now, true);
  },
});

export const listCompanies = defineOperation({
  operationId: 'listCompanies',
  method: 'GET',
  path: A,
  tag,
  summary: 'List the companies the caller may see, filtered, sorted and paged in SQL',
  query: ListCompaniesQuery,
  response: Company,
  envelope: 'list',
  formats: COMPANY_FORMATS,
  scope: 'company',
  listVersion: 'companies',
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, COMPANY_SORT_FIELDS, 'name');
    const scope = ctx.scope;
    const keywords = query.name?.split(/\s+/).filter(Boolean);
    const filters = {
      ...query,
      keywords,
      status: csv(query.status),
      visibility: csv(query.visibility),
      bpType: csv(query.bpType),
      bpBusinessType: csv(query.bpBusinessType),
    };
    const level = formatLevel(query.format, 'small');
    if (level === 'small') {
      const { rows, total } = await repo.listCompanyNames(
        ctx.deps.database,
        { where: scope, key: ctx.scopeKey },
        filters,
        paging,
        ctx.listVersion,
      );
      return listResult(smallItems(Company, COMPANY_FORMATS, rows), total, paging);
    }
    const { rows, total } = await repo.listCompanyRows(ctx.deps.database, scope, filters, paging, ctx.listVersion);
    // Subscriptions and user counts only when the level shows them: two statements for the page.
    const full = level === 'full';
    const ids = rows.map((r) => r.id);
    const [subs, counts] = full
      ? await Promise.all([companyCommerce.get.subscriptionsOf(ctx.db, ids), userCounts(ctx.db, ids)])
      : [undefined, undefined];
    const items = rows.map((r) =>
      service.toApiCompany(r, {
        selectedThemeObj: query.selectedThemeObj,
        subscriptions: subs?.get(r.id) ?? [],
        numberUsers: counts && service.mayCountUsers(ctx.caller, r) ? (counts.get(r.id) ?? 0) : undefined,
      }),
    );
    return listResult(items, total, paging);
  },
});

export const getDefaultCompany = defineOperation({
  operationId: 'getDefaultCompany',
  method: 'GET',
  path: `${A}/default`,
  tag,
  summary: 'Get the Default company',
  query: GetCompanyQuery,
  response: Company,
  envelope: 'data',
  formats: { ...COMPANY_FORMATS, default: 'full' },
  command: async (ctx, { query }) => {
    const c = await repo.findSystemCompany(ctx.db, 'default');
    if (!c) fail('NOT_FOUND', { target: 'company', id: 'default' });
    // numberUsers only for its own users and the operators: nobody else manages it.
    const countable =
      c.id === ctx.caller.companyId ||
      ctx.caller.roles.some((r) => r === 'superadmin' || r === 'support' || r === 'business_admin');
    return service.readCompany(ctx.db, ctx.caller, c, query.selectedThemeObj, countable);
  },
});

export const getCompany = defineOperation({
  operationId: 'getCompany',
  method: 'GET',
  path: `${A}/:companyId`,
  tag,
  summary: 'Get a company',
  params: CompanyIdParams,
  query: GetCompanyQuery,
  response: Company,
  envelope: 'data',
  formats: COMPANY_FORMATS,
  // Subscriptions and the user count come with the authorising statement (one round trip), and
  // only for the level that shows them (COMPANY_FORMATS: `full`).
  target: {
    kind: 'company',
    from: 'params',
    field: 'companyId',
    extras: repo.COMPANY_READ_EXTRAS,
    extrasAt: ['full'],
    // The smaller levels' fields are columns of the row, but latin_name, made from the name.
    rowAt: {
      small: COMPANY_FORMATS.small,
      medium: COMPANY_FORMATS.medium.filter((f) => f !== 'latin_name'),
    },
  },
  command: async (ctx, { query }) => {
    const c = ctx.target;
    return service.toApiCompany(c, {
      selectedThemeObj: query.selectedThemeObj,
      subscriptions: repo.subscriptionsFromExtra(ctx.extras.subscriptions),
      numberUsers:
        service.mayCountUsers(ctx.caller, c) && typeof ctx.extras.numberUsers === 'number'
          ? ctx.extras.numberUsers
          : undefined,
    });
  },
});

export const updateCompany = defineOperation({
  operationId: 'updateCompany',
  errors: [
    'CATALOG_UNKNOWN',
    'COMPANY_CENTREX_HAS_SITES',
    'COMPANY_CREATE_ONLY_FIELD',
    'COMPANY_CUSTOM_DATA_NOT_ALLOWED',
    'COMPANY_DATA_LOCATION_FIXED',
    'COMPANY_NAME_RESERVED',
    'COMPANY_NOT_BP',
    'COMPANY_STATUS_NOT_SETTABLE',
    'COMPANY_SUPERADMIN_FIELD',
    'COMPANY_SYSTEM_RENAME',
  ],
  method: 'PUT',
  path: `${A}/:companyId`,
  tag,
  summary: 'Update a company; absent fields are left unchanged',
  params: CompanyIdParams,
  query: GetCompanyQuery,
  body: UpdateCompanyBody,
  response: Company,
  envelope: 'data',
  formats: { ...COMPANY_FORMATS, default: 'full' },
  target: { kind: 'company', from: 'params', field: 'companyId' },
  references: COMPANY_REFERENCES,
  command: (ctx, { body, query }) =>
    service.updateCompany(ctx.db, ctx.caller, ctx.target, body, ctx.now, query.selectedThemeObj),
});

export const deleteCompany = defineOperation({
  operationId: 'deleteCompany',
  errors: ['COMPANY_HAS_SUBSCRIPTIONS', 'COMPANY_SYSTEM_PROTECTED'],
  method: 'DELETE',
  path: `${A}/:companyId`,
  tag,
  summary: 'Delete a company: it becomes terminated, disabled and renamed; it is never removed',
  params: CompanyIdParams,
  response: Company,
  envelope: 'status',
  formats: { ...COMPANY_FORMATS, default: 'full' },
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: async (ctx) => {
    const data = await service.deleteCompany(ctx.db, ctx.caller, ctx.target, ctx.now);
    return { status: `Company ${ctx.target.id} terminated`, data };
  },
});

export const setCompanyCustomData = defineOperation({
  operationId: 'setCompanyCustomData',
  errors: ['COMPANY_CUSTOM_DATA_NOT_ALLOWED'],
  method: 'PUT',
  path: `${A}/:companyId/custom-data`,
  tag,
  summary: 'Set the custom data of a company',
  params: CompanyIdParams,
  body: CustomDataBody,
  response: CustomDataResponse,
  envelope: 'data',
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: (ctx, { body }) => service.setCustomData(ctx.db, ctx.caller, ctx.target, body.customData),
});

export const listCompanyAdministrators = defineOperation({
  operationId: 'listCompanyAdministrators',
  method: 'GET',
  path: `${A}/:companyId/administrators`,
  tag,
  summary: 'List the administrators of a company (users holding an administrator role)',
  params: CompanyIdParams,
  query: ListAdministratorsQuery,
  response: Administrator,
  envelope: 'list',
  formats: ADMINISTRATOR_FORMATS,
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, ADMIN_SORT_FIELDS, 'displayName');
    const { rows, total } = await listAdministrators(ctx.db, ctx.target, paging);
    return listResult(rows, total, paging);
  },
});

export const listCountries = defineOperation({
  operationId: 'listCountries',
  method: 'GET',
  path: `${E}/countries`,
  tag,
  summary: 'The ISO 3166-1 alpha-3 countries a company may have',
  response: Type.Array(Country),
  envelope: 'data',
  command: async () => COUNTRIES.map(([code, name]) => ({ code, name })),
});

export const companiesOperations: AnyOperation[] = [
  createCompany,
  createOwnCompany,
  listCompanies,
  getDefaultCompany,
  getCompany,
  updateCompany,
  deleteCompany,
  setCompanyCustomData,
  listCompanyAdministrators,
  listCountries,
];
