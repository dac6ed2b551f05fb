// Operations on the groups of a CloudPBX and their forwards (routes.md, CloudPBX createGroup ...
// updateGroupForward; document 2, Group forward, Group forwards; issue 26, points 1 and 2).
// C = /vcpprovisioning/v1.0/cloudpbxs/{systemId}; a group's id is its vcpGroupId. The collection
// targets the CloudPBX of the path; a group's operations target the group under it (a group of
// another CloudPBX: 404).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { childRoutes } from '../../http/child-routes.ts';
import { parsePaging } from '../../http/paging.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import {
  CreateGroupBody,
  ForwardTypeQuery,
  Group,
  GROUP_SORT_FIELDS,
  GroupForwards,
  GroupParams,
  ListGroupsQuery,
  UpdatedForward,
  UpdateGroupBody,
  UpdateGroupForwardBody,
} from './groups.schemas.ts';
import * as service from './groups.service.ts';

const tag = 'CloudPBX';
const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';

const family = childRoutes({
  kind: 'group',
  parent: { kind: 'cloudpbx', field: 'systemId' },
  above: {},
  path: `${C}/groups`,
  idParam: 'groupId',
  tag,
  parentParams: SystemIdParams,
  params: GroupParams,
  item: Group,
});

const NUMBER_ERRORS = [
  'GROUP_SHORT_NUMBER_REQUIRED',
  'PBX_SHORT_NUMBER_OUT_OF_PLAN',
  'PBX_SHORT_NUMBER_TAKEN',
] as const;

export const createGroup = defineOperation({
  ...family.create,
  operationId: 'createGroup',
  summary: 'Create a hunting group or a manager-assistant group',
  description:
    'members (hunting_group), managers and assistants (manager_assistant): phoneNumberIds of subscribers of this ' +
    'CloudPBX (400851 naming the field). shortNumber: required for a hunting group (400850), optional for a ' +
    'manager-assistant group; of the numbering plan (400820) and free among subscribers and groups (409822). ' +
    'The devices of the assistants get one service monitor key per manager.',
  body: CreateGroupBody,
  errors: [...NUMBER_ERRORS, 'GROUP_MEMBER_UNKNOWN', 'GROUP_ROLE_MISMATCH'],
  command: (cmd, { body }) => service.createGroup(cmd.db, cmd.target, body, cmd.now),
});

export const listGroups = defineOperation({
  ...family.list,
  operationId: 'listGroups',
  summary: 'List the groups of a CloudPBX (sortField name by default, shortNumber, type, creationDate)',
  query: ListGroupsQuery,
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, GROUP_SORT_FIELDS, 'name');
    const { items, total } = await service.listGroups(cmd.db, cmd.target.id, paging);
    return { items, total, limit: paging.limit, offset: paging.offset };
  },
});

export const getGroup = defineOperation({
  ...family.get,
  operationId: 'getGroup',
  summary: 'Get a group of a CloudPBX, with its members (or managers and assistants)',
  command: (cmd) => service.readGroup(cmd.db, cmd.parents.cloudpbx.id, cmd.target.id),
});

export const updateGroup = defineOperation({
  ...family.update,
  operationId: 'updateGroup',
  summary: 'Update a group (absent fields unchanged; a list given replaces the list; the type cannot change)',
  body: UpdateGroupBody,
  errors: [...NUMBER_ERRORS, 'GROUP_MEMBER_UNKNOWN', 'GROUP_ROLE_MISMATCH', 'GROUP_TYPE_FIXED'],
  command: (cmd, { body }) => service.updateGroup(cmd.db, cmd.parents.cloudpbx, cmd.target, body),
});

export const deleteGroup = defineOperation({
  ...family.delete,
  operationId: 'deleteGroup',
  summary: 'Delete a group: its forwards, service keys and the forwards reaching it go; its DDI numbers are freed',
  response: Type.Array(Type.Never()),
  command: async (cmd) => {
    await service.deleteGroup(cmd.db, cmd.parents.cloudpbx, cmd.target);
    return { status: `Group ${cmd.target.id} deleted`, data: [] };
  },
});

export const getGroupForwards = defineOperation({
  ...family.get,
  path: `${family.get.path}/forwards`,
  operationId: 'getGroupForwards',
  summary: 'The forwards of a group: immediate and overflow, always both (inactive included)',
  response: GroupForwards,
  command: (cmd) => service.forwardsOfGroup(cmd.db, cmd.target),
});

export const updateGroupForward = defineOperation({
  ...family.update,
  path: `${family.update.path}/forwards`,
  operationId: 'updateGroupForward',
  summary: 'Update a forward of a group (callForwardType immediate or overflow, in the body or the query)',
  description:
    'activate is required; destinationType (internalnumber, externalnumber, autoattendant, voicemail) is required ' +
    'to activate; number: an allocated short number of this CloudPBX (internalnumber) or a phone number normalised ' +
    'to E.164 in the company’s country (externalnumber); vcpAutoAttendantId: a welcome service of this CloudPBX ' +
    '(autoattendant); noReplyDelay: overflow only, default 20. A destination given replaces the stored one.',
  query: ForwardTypeQuery,
  body: UpdateGroupForwardBody,
  response: UpdatedForward,
  envelope: 'status',
  errors: [
    'GROUP_FORWARD_TYPE_REQUIRED',
    'GROUP_FORWARD_DESTINATION_REQUIRED',
    'GROUP_FORWARD_DESTINATION_UNKNOWN',
    'GROUP_FORWARD_NUMBER_INVALID',
    'GROUP_FORWARD_LOOP',
  ],
  command: (cmd, { body, query }) =>
    service.updateForward(cmd.db, cmd.parents.cloudpbx, cmd.target, body, query.callForwardType),
});

export const groupOperations: AnyOperation[] = [
  createGroup,
  listGroups,
  getGroup,
  updateGroup,
  deleteGroup,
  getGroupForwards,
  updateGroupForward,
];
