// Operations on the external SIP trunks (document 2, External SIP trunk, External trunks;
// routes.md, CloudPBX: V/externaltrunks, alias V/external-trunks for the reads). V = /vcpprovisioning/v1.0.
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import {
  CreateExternalTrunkBody,
  ExternalTrunk,
  ExternalTrunkIdParams,
  ListExternalTrunksQuery,
  TRUNK_SORT_FIELDS,
  UpdateExternalTrunkBody,
} from './trunks.schemas.ts';
import * as service from './trunks.service.ts';
import * as repo from './trunks.repo.ts';

const tag = 'External trunks';
const V = '/vcpprovisioning/v1.0';
const P = `${V}/externaltrunks`;
const ALIAS = `${V}/external-trunks`;
const trunkTarget = { kind: 'trunk', from: 'params', field: 'externalTrunkId' } as const;
/** Document 2, External SIP trunk: bpIds are BP companies. */
const BP_IDS_RULE = {
  kind: 'company',
  rule: 'BP companies (isBP) that may use the trunk',
  where: () => ({ isBP: true }),
} as const;

export const listExternalTrunks = defineOperation({
  operationId: 'listExternalTrunks',
  method: 'GET',
  path: P,
  aliases: [ALIAS],
  tag,
  summary: 'List the external trunks the caller may see (a BP admin: those its company may use)',
  description:
    'Filters: vcpInstanceId, status, trunkType, bpId (the trunks that BP may use: bpIds holds it); sortField default name.',
  query: ListExternalTrunksQuery,
  response: ExternalTrunk,
  envelope: 'list',
  scope: 'trunk',
  command: async (cmd, { query }) => {
    const paging = parsePaging(query, TRUNK_SORT_FIELDS, 'name');
    const { rows, total } = await repo.listTrunkRows(
      cmd.db,
      cmd.scope,
      { vcpInstanceId: query.vcpInstanceId, status: query.status, trunkType: query.trunkType, bpId: query.bpId },
      paging,
    );
    return listResult(rows.map(service.toApiTrunk), total, paging);
  },
});

export const getExternalTrunk = defineOperation({
  operationId: 'getExternalTrunk',
  method: 'GET',
  path: `${P}/:externalTrunkId`,
  aliases: [`${ALIAS}/:externalTrunkId`],
  tag,
  summary: 'Get an external trunk',
  params: ExternalTrunkIdParams,
  response: ExternalTrunk,
  envelope: 'data',
  target: trunkTarget,
  command: async (cmd) => service.toApiTrunk(cmd.target),
});

export const createExternalTrunk = defineOperation({
  operationId: 'createExternalTrunk',
  method: 'POST',
  path: P,
  tag,
  summary: 'Create an external trunk (superadmin)',
  body: CreateExternalTrunkBody,
  response: ExternalTrunk,
  envelope: 'data',
  errors: ['TRUNK_VCP_INSTANCE_UNKNOWN'],
  // No resource yet: the caller needs a grant (403 without one).
  scope: 'caller',
  references: { bpIds: BP_IDS_RULE },
  command: (cmd, { body }) => service.createTrunk(cmd.db, body, cmd.deps.config.pbxVcpInstances),
});

export const updateExternalTrunk = defineOperation({
  operationId: 'updateExternalTrunk',
  method: 'PUT',
  path: `${P}/:externalTrunkId`,
  tag,
  summary: 'Update an external trunk (superadmin); an empty loadBalancerOptions changes nothing',
  description:
    'A feature the trunk loses is left by the CloudPBXs linking it: callForkingToPstnNumber false puts theirs back ' +
    'to not_available, routeInternalCallsToPeerAllowed false their routeInternalCallsToPeer to false.',
  params: ExternalTrunkIdParams,
  body: UpdateExternalTrunkBody,
  response: ExternalTrunk,
  envelope: 'data',
  errors: ['TRUNK_VCP_INSTANCE_UNKNOWN'],
  target: trunkTarget,
  references: { bpIds: BP_IDS_RULE },
  command: (cmd, { body }) => service.updateTrunk(cmd.db, cmd.target, body, cmd.deps.config.pbxVcpInstances),
});

export const deleteExternalTrunk = defineOperation({
  operationId: 'deleteExternalTrunk',
  method: 'DELETE',
  path: `${P}/:externalTrunkId`,
  tag,
  summary: 'Delete an external trunk (superadmin); refused while a CloudPBX links it (409)',
  params: ExternalTrunkIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  errors: ['TRUNK_IN_USE'],
  target: trunkTarget,
  command: async (cmd) => {
    await service.deleteTrunk(cmd.db, cmd.target);
    return { status: `External trunk ${cmd.target.id} deleted`, data: [] };
  },
});

export const trunkOperations: AnyOperation[] = [
  listExternalTrunks,
  getExternalTrunk,
  createExternalTrunk,
  updateExternalTrunk,
  deleteExternalTrunk,
];
