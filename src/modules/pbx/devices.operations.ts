// Operations on the SIP devices of a CloudPBX (routes.md, CloudPBX; document 2, SIP device, SIP
// registration, the operations table; issue 25, points 5 and 8). C = /vcpprovisioning/v1.0/
// cloudpbxs/{systemId}. A device's routes target the device under its CloudPBX; a subscriber's
// (C/subscribers/{phoneNumberId}/...) the subscriber under its CloudPBX, except the unassignment,
// which acts on the device (its parent is the CloudPBX: the service checks its subscriber).
// Registrar calls are made in `prepare`, before any transaction opens (docs/architecture.md).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import type { Database } from '../../db/client.ts';
import { defineOperation } from '../../http/operation.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import { SystemIdParams } from './pbx.schemas.ts';
import {
  AssignDeviceBody,
  CreateDeviceBody,
  Device,
  DEVICE_SORT_FIELDS,
  DeviceParams,
  GrantDebugBody,
  ListDevicesQuery,
  ListSubscriberDevicesQuery,
  Registration,
  SubscriberDeviceParams,
  SubscriberParams,
  UpdateDeviceBody,
} from './devices.schemas.ts';
import * as service from './devices.service.ts';
import * as repo from './devices.repo.ts';
import { keyOperations } from './keys.operations.ts';
import { pbxTarget, underPbx } from './pbx.targets.ts';

const tag = 'CloudPBX';
const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';
const D = `${C}/devices/:deviceId`;
const S = `${C}/subscribers/:phoneNumberId`;
const deviceTarget = underPbx('device', 'deviceId');
const subscriberTarget = underPbx('subscriber', 'phoneNumberId');
const NONE = Type.Array(Type.Never());

/** What the answers read beside the device: the time, the sealing key, the registrar's domain. */
const answering = (cmd: {
  now: Date;
  deps: { keys: { seal: Buffer }; ports: { voice: { sipDomain: string } } };
}): service.AnswerContext => ({ now: cmd.now, sealKey: cmd.deps.keys.seal, sipDomain: cmd.deps.ports.voice.sipDomain });

/** A page of the CloudPBX's devices (the list and a subscriber's list): remembered with the 'pbx' version. */
async function devicePage(
  cmd: Parameters<typeof answering>[0] & { deps: { database: Database }; listVersion: string | undefined },
  cloudPbxId: string,
  filters: repo.DeviceFilters,
  query: Record<string, unknown>,
) {
  const paging = parsePaging(query, DEVICE_SORT_FIELDS, 'macAddress');
  const { rows, total } = await repo.listDeviceViews(cmd.deps.database, cloudPbxId, filters, paging, cmd.listVersion);
  const c = answering(cmd);
  return listResult(
    rows.map((r) => service.toApiDevice(r, c, false)),
    total,
    paging,
  );
}

export const createDevice = defineOperation({
  operationId: 'createDevice',
  method: 'POST',
  path: `${C}/devices`,
  tag,
  summary: 'Create a SIP device, with its SIP account on the registrar',
  description:
    'macAddress is mandatory for a desk phone (any model but 999999), normalised to aa:bb:cc:dd:ee:ff and unique ' +
    'on the platform. The answer carries sipUsername, sipPassword and sipDomain, the credentials its phone registers with.',
  params: SystemIdParams,
  body: CreateDeviceBody,
  response: Device,
  envelope: 'data',
  errors: [
    'DEVICE_TYPE_UNKNOWN',
    'DEVICE_MAC_REQUIRED',
    'DEVICE_MAC_INVALID',
    'DEVICE_MAC_TAKEN',
    'DEVICE_REGISTRAR_FAILED',
  ],
  target: pbxTarget,
  prepare: (cmd, { body }) =>
    service.prepareCreateDevice(cmd.db, cmd.deps.ports.voice, cmd.deps.keys.seal, cmd.target, body),
  command: (cmd, { body, prepared }) =>
    service.undoingRegistrar(
      cmd,
      prepared.id,
      () => cmd.deps.ports.voice.deleteDeviceAccount(prepared.id),
      () => service.createDevice(cmd.db, cmd.target, body, prepared, answering(cmd)),
    ),
});

export const listDevices = defineOperation({
  operationId: 'listDevices',
  method: 'GET',
  path: `${C}/devices`,
  tag,
  summary: 'List the SIP devices of a CloudPBX (sipPassword and adminPassword null: read them by getDevice)',
  params: SystemIdParams,
  query: ListDevicesQuery,
  response: Device,
  envelope: 'list',
  target: pbxTarget,
  listVersion: 'pbx',
  command: async (cmd, { query }) => {
    return devicePage(cmd, cmd.target.id, { assigned: query.assigned, subscriberId: query.phoneNumberId }, query);
  },
});

export const getDevice = defineOperation({
  operationId: 'getDevice',
  method: 'GET',
  path: D,
  tag,
  summary: 'Get a SIP device, with its SIP credentials (and its admin password during a debug session)',
  params: DeviceParams,
  response: Device,
  envelope: 'data',
  target: deviceTarget,
  command: (cmd) => service.readDevice(cmd.db, cmd.target, answering(cmd)),
});

export const updateDevice = defineOperation({
  operationId: 'updateDevice',
  method: 'PUT',
  path: D,
  tag,
  summary: 'Update a SIP device (description, macAddress); a reset device is reconfigured',
  params: DeviceParams,
  body: UpdateDeviceBody,
  response: Device,
  envelope: 'data',
  errors: ['DEVICE_MAC_REQUIRED', 'DEVICE_MAC_INVALID', 'DEVICE_MAC_TAKEN', 'DEVICE_REGISTRAR_FAILED'],
  target: deviceTarget,
  prepare: (cmd, { body }) =>
    service.prepareUpdateDevice(
      cmd.db,
      cmd.deps.ports.voice,
      cmd.deps.keys.seal,
      cmd.parents.cloudpbx,
      cmd.target,
      body,
    ),
  command: (cmd, { body, prepared }) =>
    service.undoingRegistrar(
      cmd,
      cmd.target.id,
      // A reset device whose account was enabled for its reconfiguration stays inoperative.
      prepared.account !== undefined && prepared.account !== 'enabled'
        ? () => cmd.deps.ports.voice.setDeviceAccountEnabled(cmd.target.id, false)
        : undefined,
      () => service.updateDevice(cmd.db, cmd.parents.cloudpbx, cmd.target, body, prepared, answering(cmd)),
    ),
});

export const deleteDevice = defineOperation({
  operationId: 'deleteDevice',
  method: 'DELETE',
  path: D,
  tag,
  summary: 'Delete a SIP device not assigned to a subscriber, and its SIP account',
  params: DeviceParams,
  response: NONE,
  envelope: 'status',
  errors: ['DEVICE_ASSIGNED', 'DEVICE_REGISTRAR_FAILED'],
  target: deviceTarget,
  command: (cmd) =>
    service.deleteDevice(cmd.db, cmd.deps.ports.voice, cmd.deps.keys.seal, cmd.parents.cloudpbx, cmd.target),
});

export const resetDevice = defineOperation({
  operationId: 'resetDevice',
  method: 'POST',
  successStatus: 200,
  path: `${D}/reset`,
  tag,
  summary: 'Reset a SIP device to factory settings: inoperative until reconfigured (assigned or updated)',
  params: DeviceParams,
  response: NONE,
  envelope: 'status',
  errors: ['DEVICE_REGISTRAR_FAILED'],
  target: deviceTarget,
  prepare: (cmd) => service.prepareReset(cmd.deps.ports.voice, cmd.target),
  command: (cmd, { prepared }) =>
    service.undoingRegistrar(
      cmd,
      cmd.target.id,
      prepared ? () => cmd.deps.ports.voice.setDeviceAccountEnabled(cmd.target.id, true) : undefined,
      () => service.resetDevice(cmd.db, cmd.parents.cloudpbx, cmd.target, cmd.now),
    ),
});

export const rebootDevice = defineOperation({
  operationId: 'rebootDevice',
  method: 'POST',
  successStatus: 200,
  path: `${D}/reboot`,
  tag,
  summary: 'Reboot a desk phone: a NOTIFY (check-sync, reboot) to each of its registered contacts',
  params: DeviceParams,
  response: NONE,
  envelope: 'status',
  errors: ['DEVICE_REGISTRAR_FAILED'],
  target: deviceTarget,
  prepare: (cmd) => service.rebootDevice(cmd.deps.ports.voice, cmd.target),
  command: async (cmd, { prepared }) => ({ status: service.rebootStatus(cmd.target.id, prepared), data: [] }),
});

export const listDeviceRegistrations = defineOperation({
  operationId: 'listDeviceRegistrations',
  method: 'GET',
  path: `${D}/registrations`,
  tag,
  summary: 'The current SIP registrations of a device',
  params: DeviceParams,
  response: Type.Array(Registration),
  envelope: 'data',
  errors: ['DEVICE_REGISTRAR_FAILED'],
  target: deviceTarget,
  command: (cmd) => service.deviceRegistrations(cmd.deps.ports.voice, cmd.target.id),
});

export const grantDebugSession = defineOperation({
  operationId: 'grantDebugSession',
  method: 'POST',
  successStatus: 200,
  path: `${D}/debug`,
  tag,
  summary: 'Grant a debug session: the admin password and page address shown by getDevice until its end',
  description: `duration: seconds, default ${service.DEFAULT_DEBUG_SECONDS}; only a superadmin may give another value (403830).`,
  params: DeviceParams,
  body: GrantDebugBody,
  response: NONE,
  envelope: 'status',
  errors: ['DEVICE_DEBUG_DURATION_FORBIDDEN'],
  target: deviceTarget,
  command: (cmd, { body }) =>
    service.grantDebugSession(
      cmd.db,
      cmd.caller,
      cmd.parents.cloudpbx,
      cmd.target,
      body.duration,
      cmd.deps.keys.seal,
      cmd.now,
    ),
});

export const revokeDebugSession = defineOperation({
  operationId: 'revokeDebugSession',
  method: 'DELETE',
  path: `${D}/debug`,
  tag,
  summary: 'Revoke a debug session: ended, and the admin password changed',
  params: DeviceParams,
  response: NONE,
  envelope: 'status',
  target: deviceTarget,
  command: (cmd) => service.revokeDebugSession(cmd.db, cmd.parents.cloudpbx, cmd.target, cmd.deps.keys.seal, cmd.now),
});

export const assignDeviceToSubscriber = defineOperation({
  operationId: 'assignDeviceToSubscriber',
  method: 'POST',
  path: `${S}/devices`,
  tag,
  summary: 'Assign a SIP device of the CloudPBX to a subscriber: by deviceId, or by macAddress and deviceTypeId',
  description:
    'The device must exist in the CloudPBX (400005 naming the field otherwise); one assigned to another subscriber: 409831.',
  params: SubscriberParams,
  body: AssignDeviceBody,
  response: Device,
  envelope: 'data',
  errors: ['DEVICE_MAC_INVALID', 'DEVICE_ASSIGNED', 'DEVICE_REGISTRAR_FAILED'],
  target: subscriberTarget,
  references: {
    deviceId: {
      kind: 'device',
      rule: 'a SIP device of the subscriber’s CloudPBX',
      where: (subscriber) => ({ cloudPbxId: subscriber.cloudPbxId }),
    },
  },
  prepare: (cmd, { body }) =>
    service.prepareAssign(cmd.db, cmd.deps.ports.voice, cmd.deps.keys.seal, cmd.parents.cloudpbx, cmd.target.id, body),
  command: (cmd, { prepared }) =>
    service.undoingRegistrar(cmd, prepared.deviceId, service.undoAssign(cmd.deps.ports.voice, prepared), () =>
      service.assignDevice(cmd.db, cmd.parents.cloudpbx, cmd.target.id, prepared, answering(cmd)),
    ),
});

export const listSubscriberDevices = defineOperation({
  operationId: 'listSubscriberDevices',
  method: 'GET',
  path: `${S}/devices`,
  tag,
  summary: 'List the SIP devices assigned to a subscriber',
  params: SubscriberParams,
  query: ListSubscriberDevicesQuery,
  response: Device,
  envelope: 'list',
  target: subscriberTarget,
  listVersion: 'pbx',
  command: async (cmd, { query }) => {
    return devicePage(cmd, cmd.parents.cloudpbx.id, { subscriberId: cmd.target.id }, query);
  },
});

export const unassignDeviceFromSubscriber = defineOperation({
  operationId: 'unassignDeviceFromSubscriber',
  method: 'DELETE',
  path: `${S}/devices/:deviceId`,
  tag,
  summary: 'Unassign a SIP device from its subscriber: its SIP account is disabled until assigned again',
  params: SubscriberDeviceParams,
  response: NONE,
  envelope: 'status',
  errors: ['DEVICE_REGISTRAR_FAILED'],
  target: deviceTarget,
  command: (cmd, { params }) =>
    service.unassignDevice(cmd.db, cmd.deps.ports.voice, cmd.parents.cloudpbx, cmd.target, params.phoneNumberId),
});

export const listSubscriberRegistrations = defineOperation({
  operationId: 'listSubscriberRegistrations',
  method: 'GET',
  path: `${S}/registrations`,
  tag,
  summary: 'The current SIP registrations of the devices assigned to a subscriber',
  params: SubscriberParams,
  response: Type.Array(Registration),
  envelope: 'data',
  errors: ['DEVICE_REGISTRAR_FAILED'],
  target: subscriberTarget,
  command: (cmd) => service.subscriberRegistrations(cmd.db, cmd.deps.ports.voice, cmd.target.id),
});

export const deviceOperations: AnyOperation[] = [
  createDevice,
  listDevices,
  getDevice,
  updateDevice,
  deleteDevice,
  resetDevice,
  rebootDevice,
  listDeviceRegistrations,
  grantDebugSession,
  revokeDebugSession,
  assignDeviceToSubscriber,
  listSubscriberDevices,
  unassignDeviceFromSubscriber,
  listSubscriberRegistrations,
  ...keyOperations,
];
