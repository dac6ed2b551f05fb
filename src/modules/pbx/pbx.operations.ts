// Operations on CloudPBXs (routes.md, CloudPBX; document 2). V = /vcpprovisioning/v1.0,
// C = V/cloudpbxs/{systemId}; `systemId` is the id of the CloudPBX's system (type `cloud_pbx`).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import { systemOfTarget, systemsXmpp } from '../systems/systems.api.ts';
import {
  CLOUDPBX_FORMATS,
  CLOUDPBX_SORT_FIELDS,
  CloudPbx,
  CreateCloudPbxBody,
  DeleteCloudPbxQuery,
  GetCloudPbxQuery,
  ListCloudPbxsQuery,
  SystemIdParams,
  UpdateCloudPbxBody,
} from './pbx.schemas.ts';
import * as service from './pbx.service.ts';
import { TRUNK_RULE } from './trunks.service.ts';
import * as repo from './pbx.repo.ts';
import { pbxTarget } from './pbx.targets.ts';

const tag = 'CloudPBX';
const V = '/vcpprovisioning/v1.0';
const P = `${V}/cloudpbxs`;
const C = `${P}/:systemId`;
const FULL = { ...CLOUDPBX_FORMATS, default: 'full' } as const;
/** Document 2, update CloudPBX: the rules of externalTrunkId (trunks.service.ts, checkTrunkLink). */
const TRUNK_LINK_ERRORS = [
  'PBX_TRUNK_CHANGE_FORBIDDEN',
  'PBX_TRUNK_NOT_FOUND',
  'PBX_TRUNK_NEEDS_OUTGOING_PREFIX',
  'PBX_CALL_FORKING_NOT_AVAILABLE',
  'PBX_ROUTE_INTERNAL_CALLS_NOT_ALLOWED',
] as const;

export const createCloudPbx = defineOperation({
  operationId: 'createCloudPbx',
  method: 'POST',
  path: P,
  tag,
  summary: 'Create the CloudPBX of a company (at most one per company), with its system and its voice platform tenant',
  description:
    'The flat body of the original interface: companyId, siteId (one id or an array of one), name, numbering... ' +
    'bpId is the company’s own (a value sent is ignored). externalTrunkId: set by superadmin or bp_admin only ' +
    '(a bp_admin: a trunk its company may use), with an outgoingPrefix; callForkingToPstnNumber activated or ' +
    'not_activated and routeInternalCallsToPeer true need the linked trunk’s feature.',
  body: CreateCloudPbxBody,
  response: CloudPbx,
  envelope: 'data',
  formats: FULL,
  errors: [
    'PBX_NUMBERING_DIGITS_REQUIRED',
    'PBX_COMPANY_HAS_CLOUDPBX',
    'PBX_VOICE_PLATFORM_FAILED',
    'XMPP_ACCOUNT_FAILED',
    ...TRUNK_LINK_ERRORS,
  ],
  target: { kind: 'company', from: 'body', field: 'companyId' },
  references: {
    siteId: {
      kind: 'site',
      rule: 'a site of the company the CloudPBX is created for',
      where: (company) => ({ companyId: company.id }),
    },
    externalTrunkId: { kind: 'trunk', rule: TRUNK_RULE },
  },
  prepare: (cmd, { body }) => service.prepareCreation(cmd.db, cmd.caller, cmd.deps.ports.voice, cmd.target, body),
  command: async (cmd, { body, prepared }) => {
    try {
      return await service.createCloudPbx(
        cmd.db,
        cmd.caller,
        systemsXmpp(cmd.deps),
        cmd.target,
        body,
        prepared,
        cmd.deps.config.pbxVcpInstances,
        cmd.now,
      );
    } catch (err) {
      await service.undoTenant(cmd.deps.ports.voice, prepared.tenantId, cmd.log, cmd.db !== cmd.deps.database.db);
      throw err;
    }
  },
});

export const listCloudPbxs = defineOperation({
  operationId: 'listCloudPbxs',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the CloudPBXs the caller may see',
  query: ListCloudPbxsQuery,
  response: CloudPbx,
  envelope: 'list',
  formats: CLOUDPBX_FORMATS,
  scope: 'cloudpbx',
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, CLOUDPBX_SORT_FIELDS, 'companyId');
    const companyIds = query.companyId
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const { rows, total } = await repo.listCloudPbxRows(cmd.db, cmd.scope, { companyIds, bpId: query.bpId }, paging);
    return listResult(await service.toApiCloudPbxs(cmd.db, rows), total, paging);
  },
});

/** The columns of its system a CloudPBX's answer shows, read with the authorisation. */
const CLOUDPBX_SYSTEM = systemOfTarget(service.CLOUDPBX_SYSTEM_COLUMNS);

export const getCloudPbx = defineOperation({
  operationId: 'getCloudPbx',
  method: 'GET',
  path: C,
  tag,
  summary: 'Get a CloudPBX',
  params: SystemIdParams,
  query: GetCloudPbxQuery,
  response: CloudPbx,
  envelope: 'data',
  formats: CLOUDPBX_FORMATS,
  // Its system comes with the authorisation (one round trip).
  target: { ...pbxTarget, extras: { system: CLOUDPBX_SYSTEM.sql } },
  command: (cmd) => service.readCloudPbx(cmd.db, cmd.target, CLOUDPBX_SYSTEM.read(cmd.extras.system)),
});

export const updateCloudPbx = defineOperation({
  operationId: 'updateCloudPbx',
  method: 'PUT',
  path: C,
  tag,
  summary: 'Update a CloudPBX (an empty nested object changes nothing)',
  description:
    'externalTrunkId: set, changed or unlinked (null) by superadmin or bp_admin only (the value it holds passes); ' +
    'a linked CloudPBX needs an outgoingPrefix; callForkingToPstnNumber activated or not_activated and ' +
    'routeInternalCallsToPeer true need the linked trunk’s feature (unlinking puts them back to not_available and false).',
  params: SystemIdParams,
  body: UpdateCloudPbxBody,
  response: CloudPbx,
  envelope: 'data',
  formats: FULL,
  errors: ['PBX_NUMBERING_DIGITS_REQUIRED', ...TRUNK_LINK_ERRORS],
  target: pbxTarget,
  references: { externalTrunkId: { kind: 'trunk', rule: TRUNK_RULE } },
  command: (cmd, { body }) => service.updateCloudPbx(cmd.db, cmd.caller, cmd.target, body),
});

export const deleteCloudPbx = defineOperation({
  operationId: 'deleteCloudPbx',
  method: 'DELETE',
  path: C,
  tag,
  summary: 'Delete a CloudPBX, its system and its voice platform tenant',
  description:
    'Without forceDelete (a boolean; "true" accepted), refused (409823) while the CloudPBX has DDI numbers, ' +
    'subscribers or SIP devices; with forceDelete=true they are deleted with it (on the voice platform too).',
  params: SystemIdParams,
  query: DeleteCloudPbxQuery,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  errors: ['PBX_CLOUDPBX_NOT_EMPTY', 'PBX_VOICE_PLATFORM_FAILED', 'XMPP_ACCOUNT_FAILED'],
  target: pbxTarget,
  command: async (cmd, { query }) => {
    await service.deleteCloudPbx(
      cmd.db,
      cmd.deps.xmppAccounts,
      cmd.deps.ports.voice,
      cmd.target,
      query.forceDelete === true,
      cmd.now,
    );
    return { status: `CloudPBX ${cmd.target.id} deleted`, data: [] };
  },
});

export const pbxOperations: AnyOperation[] = [
  createCloudPbx,
  listCloudPbxs,
  getCloudPbx,
  updateCloudPbx,
  deleteCloudPbx,
];
