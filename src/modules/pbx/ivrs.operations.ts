// Operations on the welcomes and welcome services of a CloudPBX and their office hours (routes.md,
// CloudPBX: createWelcome, listWelcomes, createWelcomeService, listWelcomeServices, getWelcome,
// updateWelcome, deleteWelcome, getOfficeHours, updateOfficeHours; document 2, Welcome services
// (IVR); issue 26, points 6 and 7). C = /vcpprovisioning/v1.0/cloudpbxs/{systemId}. The lists and
// creations target the CloudPBX of the path, the others the welcome or welcome service under it
// (one of another CloudPBX: 404).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { childRoutes } from '../../http/child-routes.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import {
  CreateWelcomeBody,
  CreateWelcomeServiceBody,
  Ivr,
  IVR_SORT_FIELDS,
  IvrParams,
  ListIvrsQuery,
  OfficeHoursAnswer,
  UpdateIvrBody,
  UpdateOfficeHoursAnswer,
  UpdateOfficeHoursBody,
  Welcome,
  WelcomeService,
} from './ivrs.schemas.ts';
import * as service from './ivrs.service.ts';
import * as repo from './ivrs.repo.ts';

const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';
const IVRS = `${C}/ivrs`;
const tag = 'CloudPBX welcome services';

const family = childRoutes({
  kind: 'ivr',
  parent: { kind: 'cloudpbx', field: 'systemId' },
  above: {},
  path: IVRS,
  idParam: 'ivrId',
  tag,
  parentParams: SystemIdParams,
  params: IvrParams,
  item: Ivr,
});

const WELCOME_RULE = 'a welcome of this CloudPBX';
const DDI_RULE = 'a DDI number of this CloudPBX';

export const createWelcome = defineOperation({
  ...family.create,
  path: `${IVRS}/welcomes`,
  response: Welcome,
  operationId: 'createWelcome',
  summary: 'Create a welcome: the company’s time zone, open Monday to Friday 09:00 to 18:00',
  description:
    'timezone is the company’s (UTC when it has none or one that is not an IANA time zone); the CloudPBX’s ' +
    'first welcome is its default (isDefaultIvr).',
  body: CreateWelcomeBody,
  command: (cmd, { body }) => service.createWelcome(cmd.db, cmd.target, body, cmd.now),
});

export const listWelcomes = defineOperation({
  ...family.list,
  path: `${IVRS}/welcomes`,
  response: Welcome,
  operationId: 'listWelcomes',
  summary: 'List the welcomes of a CloudPBX (sortField name or creationDate)',
  query: ListIvrsQuery,
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, IVR_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listIvrViews(cmd.db, cmd.target.id, 'welcome', paging);
    return listResult(rows.map(service.toApiWelcome), total, paging);
  },
});

export const createWelcomeService = defineOperation({
  ...family.create,
  path: `${IVRS}/welcomeservices`,
  response: WelcomeService,
  operationId: 'createWelcomeService',
  summary: 'Create a welcome service (IVR): its welcome, its overflows, its external number',
  description:
    'welcomeId must be a welcome (400882 for a welcome service); each overflow destination must exist in this ' +
    'CloudPBX with its type’s kind (400881 naming the field); openHoursOverflow is required. externalNumberId: ' +
    'a DDI of this CloudPBX assigned to nothing else (409880), which then shows this service’s id as vcpIVRId.',
  body: CreateWelcomeServiceBody,
  errors: ['IVR_DESTINATION_INVALID', 'IVR_NOT_A_WELCOME', 'IVR_EXTERNAL_NUMBER_TAKEN'],
  references: {
    welcomeId: { kind: 'ivr', rule: WELCOME_RULE, where: (pbx) => ({ cloudPbxId: pbx.id }) },
    externalNumberId: { kind: 'ddi', rule: DDI_RULE, where: (pbx) => ({ cloudPbxId: pbx.id }) },
  },
  command: (cmd, { body }) => service.createWelcomeService(cmd.db, cmd.target, body, cmd.now),
});

export const listWelcomeServices = defineOperation({
  ...family.list,
  path: `${IVRS}/welcomeservices`,
  response: WelcomeService,
  operationId: 'listWelcomeServices',
  summary: 'List the welcome services of a CloudPBX (sortField name or creationDate)',
  query: ListIvrsQuery,
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, IVR_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listIvrViews(cmd.db, cmd.target.id, 'welcomeservice', paging);
    return listResult(rows.map(service.toApiWelcomeService), total, paging);
  },
});

export const getWelcome = defineOperation({
  ...family.get,
  operationId: 'getWelcome',
  summary: 'Get a welcome or a welcome service',
  command: (cmd) => service.readIvr(cmd.db, cmd.parents.cloudpbx.id, cmd.target.id),
});

export const updateWelcome = defineOperation({
  ...family.update,
  method: 'POST',
  successStatus: 200,
  operationId: 'updateWelcome',
  summary: 'Update a welcome (its name) or a welcome service (name, welcome, overflows, external number)',
  description:
    'Absent fields and {} overflows are unchanged; closedHoursOverflow null removes it; externalNumberId null ' +
    'dissociates the DDI. A welcome takes only its name (the other fields are ignored).',
  body: UpdateIvrBody,
  errors: ['IVR_DESTINATION_INVALID', 'IVR_NOT_A_WELCOME', 'IVR_EXTERNAL_NUMBER_TAKEN'],
  references: {
    welcomeId: { kind: 'ivr', rule: WELCOME_RULE, where: (ivr) => ({ cloudPbxId: ivr.cloudPbxId }) },
    externalNumberId: { kind: 'ddi', rule: DDI_RULE, where: (ivr) => ({ cloudPbxId: ivr.cloudPbxId }) },
  },
  command: (cmd, { body }) => service.updateIvr(cmd.db, cmd.parents.cloudpbx, cmd.target, body),
});

export const deleteWelcome = defineOperation({
  ...family.delete,
  operationId: 'deleteWelcome',
  summary: 'Delete a welcome or a welcome service',
  description:
    'A welcome used by a welcome service is 409881. A welcome service’s DDI is freed; the group forwards and ' +
    'overflows pointing to it are removed with it (as are the overflows to a deleted welcome).',
  response: Type.Array(Type.Never()),
  errors: ['IVR_WELCOME_IN_USE'],
  command: async (cmd) => {
    await service.deleteIvr(cmd.db, cmd.parents.cloudpbx, cmd.target);
    return { status: `Welcome ${cmd.target.id} deleted`, data: [] };
  },
});

export const getOfficeHours = defineOperation({
  ...family.get,
  path: `${IVRS}/:ivrId/officehours`,
  response: OfficeHoursAnswer,
  operationId: 'getOfficeHours',
  summary: 'Get the office hours of a welcome (a welcome service: its welcome’s), open now or not, and the next change',
  description:
    'isOpen and nextChange are computed at the service’s clock in the welcome’s time zone; nextChange is the ' +
    'first instant isOpen flips, null when it does not within 400 days.',
  command: (cmd) => service.getOfficeHours(cmd.db, cmd.parents.cloudpbx.id, cmd.target, cmd.now),
});

export const updateOfficeHours = defineOperation({
  ...family.update,
  path: `${IVRS}/:ivrId/officehours`,
  response: UpdateOfficeHoursAnswer,
  operationId: 'updateOfficeHours',
  summary: 'Update the office hours of a welcome',
  description:
    'Checked strictly (400880 naming the day or exception); an absent openhours or exceptions is unchanged. ' +
    'A welcome service’s hours are its welcome’s (409882).',
  body: UpdateOfficeHoursBody,
  errors: ['IVR_OFFICE_HOURS_INVALID', 'IVR_HOURS_OF_WELCOME'],
  command: (cmd, { body }) => service.updateOfficeHours(cmd.db, cmd.parents.cloudpbx, cmd.target, body),
});

export const ivrOperations: AnyOperation[] = [
  createWelcome,
  listWelcomes,
  createWelcomeService,
  listWelcomeServices,
  getWelcome,
  updateWelcome,
  deleteWelcome,
  getOfficeHours,
  updateOfficeHours,
];
