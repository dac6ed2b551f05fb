import { Type } from 'typebox';
import { defineOperation } from '../../../http/operation.ts';
import { parsePaging, listResult } from '../../../http/paging.ts';
import {
  USER_FORMATS,
  CreateUserBody,
  FormatQuery,
  ListUsersQuery,
  UpdateUserBody,
  User,
  UserIdParams,
  USER_SORT_FIELDS,
} from './users.schemas.ts';
import * as service from './users.service.ts';
import * as repo from './users.repo.ts';

const tag = 'Users';
const P = '/admin/v1.0/users';

export const createUser = defineOperation({
  operationId: 'createUser',
  errors: ['INVALID_ROLES', 'LOGIN_EMAIL_TAKEN', 'ROLE_NOT_ASSIGNABLE', 'SITE_REQUIRED', 'WEAK_PASSWORD'],
  method: 'POST',
  path: P,
  tag,
  summary: 'Create a user in a company',
  body: CreateUserBody,
  response: User,
  envelope: 'data',
  formats: { ...USER_FORMATS, default: 'full' },
  target: { kind: 'company', from: 'body', field: 'companyId', fallback: 'companyId' },
  // A reference (docs/decisions.md, References and tenant isolation): a site of the new user's company that
  // the caller may read.
  references: {
    siteId: {
      kind: 'site',
      rule: "a site of the user's company that the caller may read",
      where: (company) => ({ companyId: company.id }),
    },
  },
  command: (ctx, { body }) => service.createUser(ctx.db, ctx.caller, ctx.target.id, body, ctx.now),
});

export const listUsers = defineOperation({
  operationId: 'listUsers',
  method: 'GET',
  path: P,
  tag,
  summary: 'List the users the caller may see',
  query: ListUsersQuery,
  response: User,
  envelope: 'list',
  formats: USER_FORMATS,
  scope: 'user',
  listVersion: 'users',
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, USER_SORT_FIELDS, 'lastName');
    const roles = query.roles
      ?.split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    const { rows, total } = await repo.listUserRows(
      ctx.deps.database,
      { where: ctx.scope, key: ctx.scopeKey },
      { ...query, roles },
      paging,
      ctx.listVersion,
    );
    return listResult(rows.map(service.toApiUser), total, paging);
  },
});

export const getUser = defineOperation({
  operationId: 'getUser',
  method: 'GET',
  path: `${P}/:userId`,
  tag,
  summary: 'Get a user',
  params: UserIdParams,
  query: FormatQuery,
  response: User,
  envelope: 'data',
  formats: USER_FORMATS,
  target: { kind: 'user', from: 'params', field: 'userId' },
  command: async (ctx) => service.toApiUser(ctx.target),
});

export const updateUser = defineOperation({
  operationId: 'updateUser',
  errors: ['LAST_SUPERADMIN', 'WEAK_PASSWORD'],
  method: 'PUT',
  path: `${P}/:userId`,
  tag,
  summary: 'Update a user; absent fields are left unchanged',
  params: UserIdParams,
  body: UpdateUserBody,
  response: User,
  envelope: 'data',
  formats: { ...USER_FORMATS, default: 'full' },
  target: { kind: 'user', from: 'params', field: 'userId' },
  references: {
    siteId: {
      kind: 'site',
      rule: "a site of the user's company that the caller may read",
      where: (user) => ({ companyId: user.companyId }),
    },
  },
  command: (ctx, { body }) => service.updateUser(ctx.db, ctx.caller, ctx.target, body, ctx.now),
});

export const deleteUser = defineOperation({
  operationId: 'deleteUser',
  errors: ['CANNOT_DELETE_SELF'],
  method: 'DELETE',
  path: `${P}/:userId`,
  tag,
  summary: 'Delete a user',
  params: UserIdParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: { kind: 'user', from: 'params', field: 'userId' },
  command: async (ctx) => {
    await service.deleteUser(ctx.db, ctx.caller, ctx.target);
    return { status: `User ${ctx.target.id} deleted`, data: [] };
  },
});

export const userOperations = [createUser, listUsers, getUser, updateUser, deleteUser];
