// Operations on the subscribers of a CloudPBX and on its numbering plan (routes.md, CloudPBX;
// document 2, Subscribers, Numbering plan and the table of operations whose method and path are
// not given; issue 25, points 2 and 4). C = /vcpprovisioning/v1.0/cloudpbxs/{systemId}; a
// subscriber's id is its phoneNumberId. The collection and the numbering plan target the CloudPBX
// of the path; a subscriber's operations target the subscriber under it (a subscriber of another
// CloudPBX: 404).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { childRoutes } from '../../http/child-routes.ts';
import { listResult, parseOptionalPage, parsePaging } from '../../http/paging.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import {
  Barring,
  CallForward,
  CreateSubscriberBody,
  FreeNumbersQuery,
  ListSubscribersQuery,
  NumberingPlan,
  NumberingPlanQuery,
  Overflow,
  Recording,
  SetRecordingBody,
  SipHeaders,
  Subscriber,
  SUBSCRIBER_SORT_FIELDS,
  SubscriberParams,
  UpdateBarringBody,
  UpdateCallForwardBody,
  UpdateOverflowBody,
  UpdateSipHeadersBody,
} from './subscribers.schemas.ts';
import * as service from './subscribers.service.ts';
import * as numbering from './numbering.service.ts';
import * as repo from './subscribers.repo.ts';
import { pbxTarget } from './pbx.targets.ts';
import { rememberedAt } from '../../db/list-count.ts';

const tag = 'CloudPBX';
const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';

const family = childRoutes({
  kind: 'subscriber',
  parent: { kind: 'cloudpbx', field: 'systemId' },
  above: {},
  path: `${C}/subscribers`,
  idParam: 'phoneNumberId',
  tag,
  parentParams: SystemIdParams,
  params: SubscriberParams,
  item: Subscriber,
});

export const createSubscriber = defineOperation({
  ...family.create,
  operationId: 'createSubscriber',
  summary: 'Make a user of the CloudPBX’s company a subscriber, with a free short number of its numbering plan',
  description:
    'The user must hold a licence of an active subscription other than the default offer (409820), be no ' +
    'subscriber yet (409821); shortNumber must be of the numbering plan (400820) and free (409822). ' +
    'The subscriber is made on the voice platform too (502 when it refuses: nothing is stored).',
  body: CreateSubscriberBody,
  errors: [
    'PBX_SHORT_NUMBER_OUT_OF_PLAN',
    'PBX_SUBSCRIBER_NO_LICENCE',
    'PBX_USER_ALREADY_SUBSCRIBER',
    'PBX_SHORT_NUMBER_TAKEN',
    'PBX_VOICE_PLATFORM_FAILED',
  ],
  // Of the CloudPBX's company: checked in prepare (the company is its system's, which the
  // declaration's rule cannot read), with the same 400.
  references: { userId: { kind: 'user', rule: 'a user of the CloudPBX’s company that the caller may read' } },
  prepare: (cmd, { body }) => service.prepareSubscriber(cmd.db, cmd.caller, cmd.deps.ports.voice, cmd.target, body),
  command: async (cmd, { body, prepared }) => {
    try {
      return await service.createSubscriber(cmd.db, cmd.target, body, prepared, cmd.now);
    } catch (err) {
      await service.undoSubscriber(
        cmd.deps.ports.voice,
        prepared.vcpSubscriberId,
        cmd.log,
        cmd.db !== cmd.deps.database.db,
      );
      throw err;
    }
  },
});

export const listSubscribers = defineOperation({
  ...family.list,
  operationId: 'listSubscribers',
  summary: 'List the subscribers of a CloudPBX (sortField shortNumber, by value, or creationDate)',
  query: ListSubscribersQuery,
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, SUBSCRIBER_SORT_FIELDS, 'shortNumber');
    const { rows, total } = await repo.listSubscriberViews(cmd.db, cmd.target.id, paging, query.search);
    return listResult(rows.map(service.toApiSubscriber), total, paging);
  },
});

export const getSubscriber = defineOperation({
  ...family.get,
  operationId: 'getSubscriber',
  summary: 'Get a subscriber of a CloudPBX',
  command: (cmd) => service.readSubscriber(cmd.db, cmd.parents.cloudpbx.id, cmd.target.id),
});

export const deleteSubscriber = defineOperation({
  ...family.delete,
  operationId: 'deleteSubscriber',
  summary: 'Delete a subscriber (on the voice platform too); its DDI numbers and SIP devices are unassigned',
  response: Type.Array(Type.Never()),
  errors: ['PBX_VOICE_PLATFORM_FAILED'],
  command: async (cmd) => {
    await service.deleteSubscriber(cmd.db, cmd.deps.ports.voice, cmd.parents.cloudpbx, cmd.target);
    return { status: `Subscriber ${cmd.target.id} deleted`, data: [] };
  },
});

/** A subscriber's option: the subscriber under the CloudPBX of the path. */
const option = (suffix: string) => ({
  ...family.get,
  path: `${family.get.path}/${suffix}`,
});

export const getSubscriberSipHeaders = defineOperation({
  ...option('sip-headers'),
  operationId: 'getSubscriberSipHeaders',
  summary: 'The custom SIP headers of a subscriber',
  response: SipHeaders,
  command: async (cmd) => service.sipHeadersOf(cmd.target),
});

export const updateSubscriberSipHeaders = defineOperation({
  ...option('sip-headers'),
  method: 'PUT',
  operationId: 'updateSubscriberSipHeaders',
  summary: 'Update the custom SIP headers of a subscriber (absent: unchanged; null clears)',
  body: UpdateSipHeadersBody,
  response: SipHeaders,
  command: (cmd, { body }) => service.updateSipHeaders(cmd.db, cmd.parents.cloudpbx, cmd.target, body),
});

export const getSubscriberBarring = defineOperation({
  ...option('barring-options'),
  operationId: 'getSubscriberBarring',
  summary: 'The barring of a subscriber: a permission id and a restriction id (`default`: the CloudPBX’s)',
  response: Barring,
  command: async (cmd) => service.barringOf(cmd.target),
});

export const updateSubscriberBarring = defineOperation({
  ...option('barring-options'),
  method: 'PUT',
  operationId: 'updateSubscriberBarring',
  summary: 'Update the barring of a subscriber (each id alone or as an array of one; absent: unchanged)',
  body: UpdateBarringBody,
  response: Barring,
  command: (cmd, { body }) => service.updateBarring(cmd.db, cmd.parents.cloudpbx, cmd.target, body),
});

export const getSubscriberCallForward = defineOperation({
  ...option('call-forward-options'),
  operationId: 'getSubscriberCallForward',
  summary: 'The external call forward of a subscriber',
  response: CallForward,
  command: async (cmd) => service.callForwardOf(cmd.target),
});

export const updateSubscriberCallForward = defineOperation({
  ...option('call-forward-options'),
  method: 'PUT',
  operationId: 'updateSubscriberCallForward',
  summary: 'Update the external call forward of a subscriber (company_policy, authorized, not_authorized)',
  body: UpdateCallForwardBody,
  response: CallForward,
  command: (cmd, { body }) =>
    service.updateCallForward(cmd.db, cmd.parents.cloudpbx, cmd.target, body.externalCallForward),
});

export const getSubscriberOverflow = defineOperation({
  ...option('overflow'),
  operationId: 'getSubscriberOverflow',
  summary: 'The overflow of a subscriber (activate: value is not `disabled`)',
  response: Overflow,
  command: async (cmd) => service.overflowOf(cmd.target),
});

export const updateSubscriberOverflow = defineOperation({
  ...option('overflow'),
  method: 'PUT',
  operationId: 'updateSubscriberOverflow',
  summary: 'Update the overflow of a subscriber (value and unavailableOverflow required; noReplyDelay 10 to 60)',
  body: UpdateOverflowBody,
  response: Overflow,
  command: (cmd, { body }) => service.updateOverflow(cmd.db, cmd.parents.cloudpbx, cmd.target, body),
});

export const setSubscriberRecording = defineOperation({
  ...option('recording'),
  method: 'PUT',
  operationId: 'setSubscriberRecording',
  summary: 'Set the recording profile of a subscriber (all, external_only, internal_only, none)',
  body: SetRecordingBody,
  response: Recording,
  command: (cmd, { body }) => service.setRecording(cmd.db, cmd.parents.cloudpbx, cmd.target, body.recordingProfile),
});

export const getNumberingPlan = defineOperation({
  operationId: 'getNumberingPlan',
  method: 'GET',
  path: `${C}/numbering-plan`,
  tag,
  summary: 'The numbering plan of a CloudPBX: its ranges (one per prefix) and its allocated numbers',
  description:
    '(+) With `limit` or `offset`, each list of `allocatedNumbers` is that page, in number order, and `allocatedTotals` says how many each holds in all; without them, the whole plan.',
  params: SystemIdParams,
  query: NumberingPlanQuery,
  response: NumberingPlan,
  envelope: 'data',
  target: pbxTarget,
  // Issue 25, point 12: remembered with the 'pbx' list version (subscribers, groups, devices, users).
  listVersion: 'pbx',
  command: (cmd, { query }) => {
    const page = parseOptionalPage(query);
    const key = `numbering-plan\u0000${cmd.target.id}\u0000${page ? `${page.limit}:${page.offset}` : 'all'}`;
    return rememberedAt(key, cmd.listVersion, () => numbering.numberingPlan(cmd.db, cmd.target, page));
  },
});

export const listFreeInternalNumbers = defineOperation({
  operationId: 'listFreeInternalNumbers',
  method: 'GET',
  path: `${C}/phone-numbers/free`,
  tag,
  summary: 'The free internal numbers of the numbering plan, ascending (limit default 100, at most 1000)',
  params: SystemIdParams,
  query: FreeNumbersQuery,
  response: Type.Array(Type.Integer()),
  envelope: 'data',
  target: pbxTarget,
  listVersion: 'pbx',
  command: (cmd, { query }) =>
    rememberedAt(
      `free-numbers\u0000${cmd.target.id}\u0000${JSON.stringify([query.startingWith, query.limit])}`,
      cmd.listVersion,
      () => numbering.freeInternalNumbers(cmd.db, cmd.target, query),
    ),
});

export const subscriberOperations: AnyOperation[] = [
  createSubscriber,
  listSubscribers,
  getSubscriber,
  deleteSubscriber,
  getSubscriberSipHeaders,
  updateSubscriberSipHeaders,
  getSubscriberBarring,
  updateSubscriberBarring,
  getSubscriberCallForward,
  updateSubscriberCallForward,
  getSubscriberOverflow,
  updateSubscriberOverflow,
  setSubscriberRecording,
  getNumberingPlan,
  listFreeInternalNumbers,
];
