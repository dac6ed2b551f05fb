import { Type } from 'typebox';
import { defineOperation } from '../../http/operation.ts';
import { parsePaging } from '../../http/paging.ts';
import {
  Application,
  ApplicationWithSecrets,
  AppIdParams,
  APP_SORT_FIELDS,
  CreateApplicationBody,
  ListApplicationsQuery,
  UpdateApplicationBody,
} from './applications.schemas.ts';
import * as service from './applications.service.ts';

const tag = 'Applications';
const P = '/applications/v1.0/applications';
const byId = { kind: 'application', from: 'params', field: 'appId' } as const;

export const createApplication = defineOperation({
  operationId: 'createApplication',
  errors: ['INVALID_REDIRECT_URI'],
  method: 'POST',
  path: P,
  tag,
  summary: 'Register an application; appSecret and apiKey are returned only now',
  body: CreateApplicationBody,
  response: ApplicationWithSecrets,
  envelope: 'data',
  command: (ctx, { body }) => service.createApplication(ctx.db, ctx.caller, ctx.deps.keys.seal, body, ctx.now),
});

export const listApplications = defineOperation({
  operationId: 'listApplications',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the applications the caller may see',
  query: ListApplicationsQuery,
  response: Application,
  envelope: 'list',
  scope: 'application',
  command: (ctx, { query }) => service.listApplications(ctx.db, ctx.scope, parsePaging(query, APP_SORT_FIELDS, 'name')),
});

export const getApplication = defineOperation({
  operationId: 'getApplication',
  method: 'GET',
  path: `${P}/:appId`,
  tag,
  summary: 'Get an application',
  params: AppIdParams,
  response: Application,
  envelope: 'data',
  target: byId,
  command: async (ctx) => service.toApiApplication(ctx.target),
});

export const updateApplication = defineOperation({
  operationId: 'updateApplication',
  errors: ['INVALID_REDIRECT_URI', 'APPLICATION_BUILT_IN'],
  method: 'PUT',
  path: `${P}/:appId`,
  tag,
  summary: 'Update an application; isActive false disables its key, secret and tokens',
  params: AppIdParams,
  body: UpdateApplicationBody,
  response: Application,
  envelope: 'data',
  target: byId,
  command: (ctx, { body }) => service.updateApplication(ctx.db, ctx.target, body, ctx.now),
});

export const deleteApplication = defineOperation({
  operationId: 'deleteApplication',
  errors: ['APPLICATION_BUILT_IN'],
  method: 'DELETE',
  path: `${P}/:appId`,
  tag,
  summary: 'Delete an application',
  params: AppIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: byId,
  command: async (ctx) => {
    await service.deleteApplication(ctx.db, ctx.target);
    return { status: `Application ${ctx.target.id} deleted`, data: [] };
  },
});

export const renewApplicationSecret = defineOperation({
  operationId: 'renewApplicationSecret',
  errors: ['APPLICATION_BUILT_IN'],
  method: 'POST',
  path: `${P}/:appId/secret`,
  tag,
  summary: 'Replace the appSecret; the new one is returned only now',
  params: AppIdParams,
  response: ApplicationWithSecrets,
  envelope: 'data',
  successStatus: 200,
  target: byId,
  command: (ctx) => service.renewSecret(ctx.db, ctx.target, ctx.deps.keys.seal, ctx.now),
});

export const applicationOperations = [
  createApplication,
  listApplications,
  getApplication,
  updateApplication,
  deleteApplication,
  renewApplicationSecret,
];
