// Operations on the phone numbers of a system (document 3, Phone numbers of a system; routes.md:
// both spellings, phone-numbers and phoneNumbers), declared as a family of child routes.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { childRoutes } from '../../http/child-routes.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import { SystemIdParams } from './systems.schemas.ts';
import {
  CreatePhoneNumbersBody,
  ListPhoneNumbersQuery,
  PhoneNumber,
  PHONE_NUMBER_FORMATS,
  PHONE_NUMBER_SORT_FIELDS,
  PhoneNumberParams,
  UpdatePhoneNumberBody,
} from './phone-numbers.schemas.ts';
import { FormatFullQuery } from './systems.schemas.ts';
import * as service from './phone-numbers.service.ts';
import * as repo from './phone-numbers.repo.ts';
import { systemsXmpp } from './gateway.ts';

const numbers = childRoutes({
  kind: 'systemPhoneNumber',
  parent: { kind: 'system', field: 'systemId' },
  above: {},
  path: '/admin/v1.0/systems/:systemId/phone-numbers',
  idParam: 'phoneNumberId',
  alias: (path) => [path.replace('/phone-numbers', '/phoneNumbers')],
  tag: 'Systems',
  parentParams: SystemIdParams,
  params: PhoneNumberParams,
  item: PhoneNumber,
  formats: PHONE_NUMBER_FORMATS,
});

export const listSystemPhoneNumbers = defineOperation({
  ...numbers.list,
  operationId: 'listSystemPhoneNumbers',
  summary: 'List the phone numbers of a system',
  query: ListPhoneNumbersQuery,
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, PHONE_NUMBER_SORT_FIELDS, 'shortNumber');
    // A tenant's admin on a multi-tenant system lists his tenant's numbers only.
    const tenant = await service.tenantRestriction(ctx.db, ctx.caller, ctx.target);
    if (tenant === null) return listResult([], 0, paging);
    const { rows, total } = await repo.listPhoneNumberRows(
      ctx.db,
      ctx.target.id,
      tenant === undefined ? query : { ...query, companyPrefix: tenant },
      paging,
    );
    return listResult(rows.map(service.toApiPhoneNumber), total, paging);
  },
});

export const createSystemPhoneNumbers = defineOperation({
  ...numbers.create,
  operationId: 'createSystemPhoneNumbers',
  summary: 'Record the phone numbers a system reports (a known shortNumber is updated)',
  // routes.md gives the reporting route one spelling; its answer is the list of numbers recorded.
  aliases: [],
  formats: undefined,
  body: CreatePhoneNumbersBody,
  response: Type.Array(PhoneNumber),
  command: (ctx, { body }) => service.createPhoneNumbers(ctx.db, ctx.target, body),
});

export const getSystemPhoneNumber = defineOperation({
  ...numbers.get,
  operationId: 'getSystemPhoneNumber',
  summary: 'Get a phone number of a system',
  query: FormatFullQuery,
  command: async (ctx) =>
    service.toApiPhoneNumber(await service.visiblePhoneNumber(ctx.db, ctx.caller, ctx.parents.system, ctx.target)),
});

export const updateSystemPhoneNumber = defineOperation({
  ...numbers.update,
  operationId: 'updateSystemPhoneNumber',
  errors: [
    'GATEWAY_REFUSED',
    'GATEWAY_TIMEOUT',
    'PHONE_NUMBER_E164_UNCOMPUTABLE',
    'PHONE_NUMBER_FIELD_READ_ONLY',
    'PHONE_NUMBER_INTERNAL_READ_ONLY',
  ],
  summary: 'Update a phone number of a system, stored once its gateway acknowledges (502 refused, 504 no answer)',
  body: UpdatePhoneNumberBody,
  // Its answer is the whole number, whatever the format asked.
  formats: { ...PHONE_NUMBER_FORMATS, default: 'full' },
  references: { userId: { kind: 'user', rule: 'a user the caller may read' } },
  command: (ctx, { body }) =>
    service.updatePhoneNumber(ctx.db, systemsXmpp(ctx.deps), ctx.caller, ctx.parents.system, ctx.target, body),
});

export const phoneNumbersOperations: AnyOperation[] = [
  listSystemPhoneNumbers,
  createSystemPhoneNumbers,
  getSystemPhoneNumber,
  updateSystemPhoneNumber,
];
