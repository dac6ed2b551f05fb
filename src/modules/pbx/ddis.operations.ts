// Operations on the DDI numbers of a CloudPBX (routes.md, CloudPBX: listDdis, createDdi,
// deleteDdi, setDefaultDdi, assignDdiToUser, unassignDdiFromUser; document 2, "Phone numbers
// (DDI)"). C = /vcpprovisioning/v1.0/cloudpbxs/{systemId}. Declared as a family of child routes:
// the list and the creation target the CloudPBX of the path, the others the DDI under it (a DDI
// of another CloudPBX is 404).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { childRoutes } from '../../http/child-routes.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import { CreateDdiBody, Ddi, DDI_SORT_FIELDS, DdiParams, DdiUserParams, ListDdisQuery } from './ddis.schemas.ts';
import * as service from './ddis.service.ts';
import * as repo from './ddis.repo.ts';

const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';
const DDIS = `${C}/phone-numbers/ddi`;
const ONE = `${DDIS}/:phoneNumberId`;

const family = childRoutes({
  kind: 'ddi',
  parent: { kind: 'cloudpbx', field: 'systemId' },
  above: {},
  path: DDIS,
  idParam: 'phoneNumberId',
  tag: 'CloudPBX DDI numbers',
  parentParams: SystemIdParams,
  params: DdiParams,
  item: Ddi,
});

/** The user of the path: a second resource the caller must be able to read (else 404). */
const pathUser = { user: { kind: 'user', from: 'params', field: 'userId' } } as const;

export const listDdis = defineOperation({
  ...family.list,
  operationId: 'listDdis',
  summary: 'List the DDI numbers of a CloudPBX',
  description:
    'Sorted by number unless sortField says otherwise; the isAssigned... filters take true or false ' +
    '(isAssigned: to a user, group, welcome service or auto attendant).',
  query: ListDdisQuery,
  listVersion: 'pbx',
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, DDI_SORT_FIELDS, 'number');
    const { rows, total } = await repo.listDdiRows(cmd.deps.database, cmd.target.id, query, paging, cmd.listVersion);
    return listResult(rows.map(service.toApiDdi), total, paging);
  },
});

export const createDdi = defineOperation({
  ...family.create,
  operationId: 'createDdi',
  summary: 'Create a DDI number of a CloudPBX (the first one becomes its default)',
  description:
    'number is normalised to E.164 with the country of the company (400810 naming number when it is not ' +
    'a valid number there) and must be new to the platform whatever its spelling (409810). A bp_admin of a ' +
    'BP IR company whose ddiReadOnly is true gets 403810.',
  body: CreateDdiBody,
  errors: ['DDI_NUMBER_INVALID', 'DDI_NUMBER_TAKEN', 'DDI_READ_ONLY'],
  command: (cmd, { body }) => service.createDdi(cmd.db, cmd.caller, cmd.target, body, cmd.now),
});

export const deleteDdi = defineOperation({
  ...family.delete,
  operationId: 'deleteDdi',
  summary: 'Delete a DDI number of a CloudPBX (an assigned one is unassigned first)',
  description:
    'The default DDI can be deleted only when it is the last one (409811). A bp_admin of a BP IR company ' +
    'whose ddiReadOnly is true gets 403810.',
  response: Type.Array(Type.Never()),
  errors: ['DDI_DEFAULT_NOT_LAST', 'DDI_READ_ONLY'],
  command: async (cmd) => {
    await service.deleteDdi(cmd.db, cmd.caller, cmd.parents.cloudpbx, cmd.target);
    return { status: `DDI ${cmd.target.id} deleted`, data: [] };
  },
});

export const setDefaultDdi = defineOperation({
  ...family.delete,
  method: 'POST',
  path: `${ONE}/default`,
  envelope: 'data',
  successStatus: 200,
  operationId: 'setDefaultDdi',
  summary: 'Make a DDI number the default of its CloudPBX (the previous default is one no more)',
  command: (cmd) => service.setDefaultDdi(cmd.db, cmd.parents.cloudpbx, cmd.target),
});

export const assignDdiToUser = defineOperation({
  ...family.delete,
  method: 'POST',
  path: `${ONE}/users/:userId`,
  params: DdiUserParams,
  envelope: 'data',
  successStatus: 200,
  operationId: 'assignDdiToUser',
  summary: 'Associate a DDI number to a user (a subscriber of the CloudPBX)',
  description:
    'The user must be one the caller may read (404 otherwise) and a subscriber of this CloudPBX (409812); ' +
    'a DDI assigned to someone else is 409813. The user’s first DDI becomes the default when the CloudPBX has none.',
  second: pathUser,
  errors: ['DDI_USER_NOT_SUBSCRIBER', 'DDI_ALREADY_ASSIGNED'],
  command: (cmd, { params }) =>
    service.assignDdi(cmd.db, cmd.deps.config.xmpp.userDomain, cmd.parents.cloudpbx, cmd.target, params.userId),
});

export const unassignDdiFromUser = defineOperation({
  ...family.delete,
  path: `${ONE}/users/:userId`,
  params: DdiUserParams,
  envelope: 'data',
  operationId: 'unassignDdiFromUser',
  summary: 'Dissociate a DDI number from its user (a JSON content type with no body is accepted)',
  description: 'A DDI assigned to another user is 409814; an unassigned one is answered as it is.',
  second: pathUser,
  errors: ['DDI_NOT_ASSIGNED_TO_USER'],
  command: (cmd, { params }) => service.unassignDdi(cmd.db, cmd.parents.cloudpbx, cmd.target, params.userId),
});

export const ddiOperations: AnyOperation[] = [
  listDdis,
  createDdi,
  deleteDdi,
  setDefaultDdi,
  assignDdiToUser,
  unassignDdiFromUser,
];
