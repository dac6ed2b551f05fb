// Options and reference data of a CloudPBX (routes.md, CloudPBX; document 2; issue 25, point 2).
// C = /vcpprovisioning/v1.0/cloudpbxs/{systemId}; every operation's target is the CloudPBX of the
// path: reads with the CloudPBX's read grants, updates with its write grants (pbx.policy.ts).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { CLOUDPBX_FORMATS, CloudPbx, SystemIdParams } from './pbx.schemas.ts';
import {
  BarringOptionLists,
  CliOptionsAnswer,
  CustomNumbersRestriction,
  DeviceModel,
  DeviceModelParams,
  EmergencyNumbers,
  Language,
  PeerAuthentication,
  UpdateCliOptionsBody,
  UpdateCustomNumbersRestrictionBody,
  UpdateOverflowOptionsBody,
  UpdatePeerAuthenticationBody,
} from './options.schemas.ts';
import * as service from './options.service.ts';
import { pbxTarget } from './pbx.targets.ts';

const tag = 'CloudPBX';
const C = '/vcpprovisioning/v1.0/cloudpbxs/:systemId';
const FULL = { ...CLOUDPBX_FORMATS, default: 'full' } as const;

export const listLanguages = defineOperation({
  operationId: 'listLanguages',
  method: 'GET',
  path: `${C}/languages`,
  tag,
  summary: 'The languages of a CloudPBX (document 2: ro es it de fr en ar he nl)',
  params: SystemIdParams,
  response: Type.Array(Language),
  envelope: 'data',
  target: pbxTarget,
  command: async () => service.listLanguages(),
});

export const getBarringOptions = defineOperation({
  operationId: 'getBarringOptions',
  method: 'GET',
  path: `${C}/barring-options`,
  tag,
  summary: 'The barring option lists: permissions and restrictions, with their ids',
  params: SystemIdParams,
  response: BarringOptionLists,
  envelope: 'data',
  target: pbxTarget,
  command: async () => service.barringOptionLists(),
});

export const getCustomNumbersRestriction = defineOperation({
  operationId: 'getCustomNumbersRestriction',
  method: 'GET',
  path: `${C}/barring-options/custom-numbers-restriction`,
  tag,
  summary: 'The custom numbers restriction: the patterns of the numbers it bars',
  params: SystemIdParams,
  response: CustomNumbersRestriction,
  envelope: 'data',
  target: pbxTarget,
  command: async (cmd) => service.customNumbersRestriction(cmd.target),
});

export const updateCustomNumbersRestriction = defineOperation({
  operationId: 'updateCustomNumbersRestriction',
  method: 'PUT',
  path: `${C}/barring-options/custom-numbers-restriction`,
  tag,
  summary: 'Replace the custom numbers restriction (the complete new set of patterns)',
  description: 'Each pattern must be a regular expression (400801 naming the field and its index otherwise).',
  params: SystemIdParams,
  body: UpdateCustomNumbersRestrictionBody,
  response: CustomNumbersRestriction,
  envelope: 'status',
  errors: ['PBX_PATTERN_INVALID'],
  target: pbxTarget,
  command: (cmd, { body }) => service.updateCustomNumbersRestriction(cmd.db, cmd.target, body.patterns),
});

export const getCliOptions = defineOperation({
  operationId: 'getCliOptions',
  method: 'GET',
  path: `${C}/cli-options`,
  tag,
  summary: 'The caller-line (CLI) options of a CloudPBX',
  params: SystemIdParams,
  response: CliOptionsAnswer,
  envelope: 'data',
  target: pbxTarget,
  command: async (cmd) => service.cliOptions(cmd.target),
});

export const updateCliOptions = defineOperation({
  operationId: 'updateCliOptions',
  method: 'PUT',
  path: `${C}/cli-options`,
  tag,
  summary: 'Update the caller-line (CLI) options (a field absent: unchanged)',
  params: SystemIdParams,
  body: UpdateCliOptionsBody,
  response: CloudPbx,
  envelope: 'data',
  formats: FULL,
  target: pbxTarget,
  command: (cmd, { body }) => service.updateCliOptions(cmd.db, cmd.target, body),
});

export const getPeerAuthentication = defineOperation({
  operationId: 'getPeerAuthentication',
  method: 'GET',
  path: `${C}/peer-authentication-options`,
  tag,
  summary: 'The peer authentication of a CloudPBX, its password included (nulls when unset)',
  params: SystemIdParams,
  response: PeerAuthentication,
  envelope: 'data',
  target: pbxTarget,
  command: async (cmd) => service.peerAuthentication(cmd.target, cmd.deps.keys.seal),
});

export const updatePeerAuthentication = defineOperation({
  operationId: 'updatePeerAuthentication',
  method: 'PUT',
  path: `${C}/peer-authentication-options`,
  tag,
  summary: 'Set the peer authentication (username and password; the realm is the SIP domain)',
  params: SystemIdParams,
  body: UpdatePeerAuthenticationBody,
  response: PeerAuthentication,
  envelope: 'status',
  target: pbxTarget,
  command: (cmd, { body }) =>
    service.updatePeerAuthentication(cmd.db, cmd.target, body, cmd.deps.keys.seal, cmd.deps.config.sip.domain),
});

export const updateOverflowOptions = defineOperation({
  operationId: 'updateOverflowOptions',
  method: 'PUT',
  path: `${C}/overflow-options`,
  tag,
  summary: 'Update the overflow of subscribers to voicemail (a field absent: unchanged)',
  params: SystemIdParams,
  body: UpdateOverflowOptionsBody,
  response: CloudPbx,
  envelope: 'data',
  formats: FULL,
  target: pbxTarget,
  command: (cmd, { body }) => service.updateOverflowOptions(cmd.db, cmd.target, body),
});

export const getEmergencyNumbers = defineOperation({
  operationId: 'getEmergencyNumbers',
  method: 'GET',
  path: `${C}/emergency-numbers`,
  tag,
  summary: 'The emergency numbers of the CloudPBX’s country, its emergency options and outgoing prefix',
  params: SystemIdParams,
  response: EmergencyNumbers,
  envelope: 'data',
  target: pbxTarget,
  command: (cmd) => service.emergencyNumbers(cmd.db, cmd.target),
});

export const listDeviceModels = defineOperation({
  operationId: 'listDeviceModels',
  method: 'GET',
  path: `${C}/devicemodels`,
  tag,
  summary: 'The device models a CloudPBX drives (999999: the generic SIP model, no key)',
  params: SystemIdParams,
  response: Type.Array(DeviceModel),
  envelope: 'data',
  target: pbxTarget,
  command: async () => service.listDeviceModels(),
});

export const getDeviceModel = defineOperation({
  operationId: 'getDeviceModel',
  method: 'GET',
  path: `${C}/devicemodels/:deviceModelId`,
  tag,
  summary: 'A device model (document 2: an array of one)',
  params: DeviceModelParams,
  response: Type.Array(DeviceModel),
  envelope: 'data',
  target: pbxTarget,
  command: async (_cmd, { params }) => service.getDeviceModel(params.deviceModelId),
});

export const optionsOperations: AnyOperation[] = [
  listLanguages,
  getBarringOptions,
  getCustomNumbersRestriction,
  updateCustomNumbersRestriction,
  getCliOptions,
  updateCliOptions,
  getPeerAuthentication,
  updatePeerAuthentication,
  updateOverflowOptions,
  getEmergencyNumbers,
  listDeviceModels,
  getDeviceModel,
];
