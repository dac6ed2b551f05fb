// Operations on telephone systems (routes.md, Systems and their phone numbers; document 3).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { listResult, parsePaging } from '../../http/paging.ts';
import {
  CreateSystemBody,
  FormatFullQuery,
  GetSystemQuery,
  LinkSystemBody,
  ListSiteSystemsQuery,
  ListSystemsQuery,
  SiteIdParams,
  SiteSystemParams,
  System,
  SYSTEM_FORMATS,
  SYSTEM_SORT_FIELDS,
  SystemIdParams,
  UpdateSystemBody,
} from './systems.schemas.ts';
import * as service from './systems.service.ts';
import * as repo from './systems.repo.ts';
import { CONNECTION_HISTORY_EXTRA } from './connections.repo.ts';
import { historyFromExtra } from './connections.service.ts';
import { systemsXmpp } from './gateway.ts';

const tag = 'Systems';
/** The gateway refused (502) or did not answer in time (504). */
const A = '/admin/v1.0';
const P = `${A}/systems`;
const systemTarget = { kind: 'system', from: 'params', field: 'systemId' } as const;
const siteTarget = { kind: 'site', from: 'params', field: 'siteId' } as const;
const FULL = { ...SYSTEM_FORMATS, default: 'full' } as const;

export const createSystem = defineOperation({
  operationId: 'createSystem',
  method: 'POST',
  path: P,
  tag,
  summary: 'Create a telephone system for a site, with its PBX agent and gateway XMPP accounts',
  body: CreateSystemBody,
  response: System,
  envelope: 'data',
  formats: FULL,
  errors: ['SYSTEM_CENTREX_MISMATCH', 'XMPP_ACCOUNT_FAILED'],
  target: { kind: 'site', from: 'body', field: 'siteId' },
  command: (ctx, { body }) => service.createSystem(ctx.db, systemsXmpp(ctx.deps), ctx.target, body, ctx.now),
});

export const listSystems = defineOperation({
  operationId: 'listSystems',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the telephone systems the caller may see',
  query: ListSystemsQuery,
  response: System,
  envelope: 'list',
  formats: SYSTEM_FORMATS,
  scope: 'system',
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, SYSTEM_SORT_FIELDS, 'pbxId');
    const { rows, total } = await repo.listSystemRows(ctx.db, ctx.scope, query, paging);
    return listResult(await service.toApiSystems(ctx.db, rows, query.connectionHistory === true), total, paging);
  },
});

export const listSiteSystems = defineOperation({
  operationId: 'listSiteSystems',
  method: 'GET',
  path: `${A}/sites/:siteId/systems`,
  tag,
  summary: 'List the telephone systems linked to a site',
  params: SiteIdParams,
  query: ListSiteSystemsQuery,
  response: System,
  envelope: 'list',
  formats: SYSTEM_FORMATS,
  target: siteTarget,
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, SYSTEM_SORT_FIELDS, 'pbxId');
    const { rows, total } = await repo.listSystemRows(ctx.db, undefined, { ...query, siteId: ctx.target.id }, paging);
    return listResult(
      rows.map((r) => service.toApiSystem(r)),
      total,
      paging,
    );
  },
});

export const getSystem = defineOperation({
  operationId: 'getSystem',
  method: 'GET',
  path: `${P}/:systemId`,
  tag,
  summary: 'Get a telephone system (connectionHistory=true adds its logins and logouts)',
  params: SystemIdParams,
  query: GetSystemQuery,
  response: System,
  envelope: 'data',
  formats: SYSTEM_FORMATS,
  // One statement: the system and its history in one snapshot (connections.repo.ts).
  target: { ...systemTarget, extras: { connectionHistory: CONNECTION_HISTORY_EXTRA } },
  command: async (ctx, { query }) =>
    service.toApiSystem(ctx.target, {
      connectionHistory: query.connectionHistory === true ? historyFromExtra(ctx.extras.connectionHistory) : undefined,
    }),
});

export const updateSystem = defineOperation({
  operationId: 'updateSystem',
  errors: ['SYSTEM_CENTREX_READ_ONLY', 'SYSTEM_CLOUD_PBX_TYPE_READ_ONLY'],
  method: 'PUT',
  path: `${P}/:systemId`,
  tag,
  summary: 'Update a telephone system; its gateway is sent the change',
  params: SystemIdParams,
  body: UpdateSystemBody,
  response: System,
  envelope: 'data',
  formats: FULL,
  target: systemTarget,
  command: (ctx, { body }) => service.updateSystem(ctx.db, ctx.target, body, ctx.now),
});

export const deleteSystem = defineOperation({
  operationId: 'deleteSystem',
  errors: ['GATEWAY_REFUSED', 'GATEWAY_TIMEOUT', 'SYSTEM_IS_CLOUD_PBX'],
  method: 'DELETE',
  path: `${P}/:systemId`,
  tag,
  summary: 'Delete a telephone system after its gateway acknowledges (502 refused, 504 no answer: nothing deleted)',
  params: SystemIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: systemTarget,
  command: async (ctx) => {
    await service.deleteSystem(ctx.db, systemsXmpp(ctx.deps), ctx.target);
    return { status: `System ${ctx.target.id} deleted`, data: [] };
  },
});

export const resetPbxAgentPassword = defineOperation({
  operationId: 'resetPbxAgentPassword',
  method: 'POST',
  path: `${P}/:systemId/reset-password`,
  tag,
  summary: 'Give the PBX agent account of a system a new generated password',
  params: SystemIdParams,
  query: FormatFullQuery,
  response: System,
  envelope: 'data',
  successStatus: 200,
  formats: FULL,
  errors: ['XMPP_ACCOUNT_FAILED'],
  target: systemTarget,
  command: (ctx) => service.resetPbxAgentPassword(ctx.db, ctx.deps.xmppAccounts, ctx.target),
});

export const linkSystemToSite = defineOperation({
  operationId: 'linkSystemToSite',
  errors: ['SYSTEM_CENTREX_MISMATCH', 'SYSTEM_NOT_SHARED'],
  method: 'POST',
  path: `${A}/sites/:siteId/systems`,
  tag,
  summary: 'Link a telephone system to a site (an existing link is no error)',
  params: SiteIdParams,
  body: LinkSystemBody,
  response: System,
  envelope: 'data',
  successStatus: 200,
  formats: FULL,
  target: siteTarget,
  references: { systemId: { kind: 'system', rule: 'a system the caller may read' } },
  command: (ctx, { body }) => service.linkSystemToSite(ctx.db, ctx.target, body.systemId),
});

export const unlinkSystemFromSite = defineOperation({
  operationId: 'unlinkSystemFromSite',
  errors: ['SYSTEM_LAST_SITE'],
  method: 'DELETE',
  path: `${A}/sites/:siteId/systems/:systemId`,
  tag,
  summary: 'Unlink a telephone system from a site (the last site only from an isShared or isCentrex system)',
  params: SiteSystemParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: siteTarget,
  command: async (ctx, { params }) => {
    await service.unlinkSystemFromSite(ctx.db, ctx.target.id, params.systemId);
    return { status: `System ${params.systemId} unlinked from site ${ctx.target.id}`, data: [] };
  },
});

export const systemsOperations: AnyOperation[] = [
  createSystem,
  listSystems,
  listSiteSystems,
  getSystem,
  updateSystem,
  deleteSystem,
  resetPbxAgentPassword,
  linkSystemToSite,
  unlinkSystemFromSite,
];
