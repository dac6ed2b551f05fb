// Operations on the phone numbers of a system (routes.md: both spellings, phone-numbers and phoneNumbers).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
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

const tag = 'Systems';
/** The gateway refused (502) or did not answer in time (504). */
const P = '/admin/v1.0/systems/:systemId';
const LIST = `${P}/phone-numbers`;
const ONE = `${LIST}/:phoneNumberId`;
const alias = (path: string) => [path.replace('/phone-numbers', '/phoneNumbers')];
const systemTarget = { kind: 'system', from: 'params', field: 'systemId' } as const;
const numberTarget = {
  kind: 'systemPhoneNumber',
  from: 'params',
  field: 'phoneNumberId',
  parents: { system: 'systemId' },
} as const;
const FULL = { ...PHONE_NUMBER_FORMATS, default: 'full' } as const;

export const listSystemPhoneNumbers = defineOperation({
  operationId: 'listSystemPhoneNumbers',
  method: 'GET',
  path: LIST,
  aliases: alias(LIST),
  tag,
  summary: 'List the phone numbers of a system',
  params: SystemIdParams,
  query: ListPhoneNumbersQuery,
  response: PhoneNumber,
  envelope: 'list',
  formats: PHONE_NUMBER_FORMATS,
  target: systemTarget,
  handler: async (ctx, { query }) => {
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
  operationId: 'createSystemPhoneNumbers',
  method: 'POST',
  path: LIST,
  tag,
  summary: 'Record the phone numbers a system reports (a known shortNumber is updated)',
  params: SystemIdParams,
  body: CreatePhoneNumbersBody,
  response: Type.Array(PhoneNumber),
  envelope: 'data',
  target: systemTarget,
  handler: (ctx, { body }) => service.createPhoneNumbers(ctx.db, ctx.target, body),
});

export const getSystemPhoneNumber = defineOperation({
  operationId: 'getSystemPhoneNumber',
  method: 'GET',
  path: ONE,
  aliases: alias(ONE),
  tag,
  summary: 'Get a phone number of a system',
  params: PhoneNumberParams,
  query: FormatFullQuery,
  response: PhoneNumber,
  envelope: 'data',
  formats: PHONE_NUMBER_FORMATS,
  target: numberTarget,
  handler: async (ctx) =>
    service.toApiPhoneNumber(await service.visiblePhoneNumber(ctx.db, ctx.caller, ctx.parents.system, ctx.target)),
});

export const updateSystemPhoneNumber = defineOperation({
  operationId: 'updateSystemPhoneNumber',
  errors: [
    'GATEWAY_REFUSED',
    'GATEWAY_TIMEOUT',
    'PHONE_NUMBER_E164_UNCOMPUTABLE',
    'PHONE_NUMBER_FIELD_READ_ONLY',
    'PHONE_NUMBER_INTERNAL_READ_ONLY',
  ],
  method: 'PUT',
  path: ONE,
  aliases: alias(ONE),
  tag,
  summary: 'Update a phone number of a system, stored once its gateway acknowledges (502 refused, 504 no answer)',
  params: PhoneNumberParams,
  body: UpdatePhoneNumberBody,
  response: PhoneNumber,
  envelope: 'data',
  formats: FULL,
  target: numberTarget,
  references: { userId: { kind: 'user', rule: 'a user the caller may read' } },
  handler: (ctx, { body }) =>
    service.updatePhoneNumber(ctx.db, ctx.deps, ctx.caller, ctx.parents.system, ctx.target, body),
});

export const phoneNumbersOperations: AnyOperation[] = [
  listSystemPhoneNumbers,
  createSystemPhoneNumbers,
  getSystemPhoneNumber,
  updateSystemPhoneNumber,
];
