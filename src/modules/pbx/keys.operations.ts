// Operations on the programmable keys of a SIP device (routes.md, CloudPBX: listProgrammableKeys,
// createProgrammableKey, deleteProgrammableKey; document 2, Programmable key). Each targets the
// device under its CloudPBX; gathered into deviceOperations (devices.operations.ts).
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { DeviceParams } from './devices.schemas.ts';
import { CreatedKey, CreateKeyBody, DeletedKey, KeyList, KeyParams } from './keys.schemas.ts';
import * as service from './keys.service.ts';
import { underPbx } from './pbx.targets.ts';

const tag = 'CloudPBX';
const K = '/vcpprovisioning/v1.0/cloudpbxs/:systemId/devices/:deviceId/keys';
const deviceTarget = underPbx('device', 'deviceId');

export const listProgrammableKeys = defineOperation({
  operationId: 'listProgrammableKeys',
  method: 'GET',
  path: K,
  tag,
  summary: 'The programmable keys of a SIP device, with its model’s number of keys and those available',
  params: DeviceParams,
  response: KeyList,
  envelope: 'data',
  target: deviceTarget,
  command: (cmd) => service.listKeys(cmd.db, cmd.target),
});

export const createProgrammableKey = defineOperation({
  operationId: 'createProgrammableKey',
  method: 'POST',
  path: K,
  tag,
  summary: 'Create a programmable key (speeddial or monitor) of a SIP device; its keyOwner is admin',
  params: DeviceParams,
  body: CreateKeyBody,
  response: CreatedKey,
  envelope: 'status',
  errors: ['KEY_NUM_OUT_OF_RANGE', 'KEY_DESTINATION_INVALID', 'KEY_DESTINATION_UNKNOWN', 'KEY_NUM_TAKEN'],
  target: deviceTarget,
  command: (cmd, { body }) => service.createKey(cmd.db, cmd.target, body),
});

export const deleteProgrammableKey = defineOperation({
  operationId: 'deleteProgrammableKey',
  method: 'DELETE',
  path: `${K}/:keyNum`,
  tag,
  summary: 'Delete a programmable key made by the create-key operation (keyOwner admin)',
  params: KeyParams,
  response: DeletedKey,
  envelope: 'status',
  errors: ['KEY_NOT_ADMIN'],
  target: deviceTarget,
  command: (cmd, { params }) => service.deleteKey(cmd.db, cmd.target, params.keyNum),
});

export const keyOperations: AnyOperation[] = [listProgrammableKeys, createProgrammableKey, deleteProgrammableKey];
