// Join-company links (document 3), self-registration (route table, selfRegister) and join
// invitations (route table, +).
import type { AnyOperation } from '../../../http/operation.ts';
import { defineOperation } from '../../../http/operation.ts';
import { parsePaging, listResult } from '../../../http/paging.ts';
import { User, USER_FORMATS } from '../users/users.api.ts';
import {
  AcceptJoinInvitationBody,
  CompanyParams,
  CreateJoinInvitationBody,
  CreateJoinLinkBody,
  FormatOnlyQuery,
  InvitationParams,
  JOIN_INVITATION_SORT_FIELDS,
  JOIN_LINK_FORMATS,
  JOIN_LINK_SORT_FIELDS,
  JoinCompanyLink,
  JoinInvitation,
  JoinInvitationWithToken,
  JoinLinkParams,
  ListJoinInvitationsQuery,
  ListJoinLinksQuery,
  SelfRegisterBody,
  UpdateJoinLinkBody,
} from './join.schemas.ts';
import * as service from './join.service.ts';
import * as repo from './join.repo.ts';

const tagLinks = 'Join-company links';
const tagInvitations = 'Join invitations';
const LINKS = '/admin/v1.0/companies/:companyId/join-companies/links';
const INVITATIONS = '/admin/v1.0/companies/:companyId/join-companies/invitations';
const company = { kind: 'company', from: 'params', field: 'companyId' } as const;
// A link of another company than the path's gives 404.
const link = {
  kind: 'joinLink',
  from: 'params',
  field: 'joinCompanyLinkId',
  parents: { company: 'companyId' },
} as const;

export const createJoinCompanyLink = defineOperation({
  operationId: 'createJoinCompanyLink',
  errors: ['JOIN_LINK_EXPIRATION_IN_PAST'],
  method: 'POST',
  path: LINKS,
  tag: tagLinks,
  summary: 'Create a join-company link: its id lets users register themselves in the company',
  params: CompanyParams,
  body: CreateJoinLinkBody,
  response: JoinCompanyLink,
  envelope: 'data',
  formats: { ...JOIN_LINK_FORMATS, default: 'full' },
  target: company,
  command: (ctx, { body }) => service.createLink(ctx.db, ctx.caller, ctx.target.id, body, ctx.now),
});

export const listJoinCompanyLinks = defineOperation({
  operationId: 'listJoinCompanyLinks',
  method: 'GET',
  path: LINKS,
  tag: tagLinks,
  summary: 'List the join-company links of a company',
  params: CompanyParams,
  query: ListJoinLinksQuery,
  response: JoinCompanyLink,
  envelope: 'list',
  formats: JOIN_LINK_FORMATS,
  target: company,
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, JOIN_LINK_SORT_FIELDS, 'creationDate');
    const { rows, total } = await repo.listLinkRows(ctx.db, ctx.target.id, query, paging);
    return listResult(rows.map(service.toApiLink), total, paging);
  },
});

export const getJoinCompanyLink = defineOperation({
  operationId: 'getJoinCompanyLink',
  method: 'GET',
  path: `${LINKS}/:joinCompanyLinkId`,
  tag: tagLinks,
  summary: 'Get a join-company link',
  params: JoinLinkParams,
  query: FormatOnlyQuery,
  response: JoinCompanyLink,
  envelope: 'data',
  formats: JOIN_LINK_FORMATS,
  target: link,
  command: async (ctx) => service.toApiLink(ctx.target),
});

export const updateJoinCompanyLink = defineOperation({
  operationId: 'updateJoinCompanyLink',
  errors: ['JOIN_LINK_EXPIRATION_IN_PAST'],
  method: 'PUT',
  path: `${LINKS}/:joinCompanyLinkId`,
  tag: tagLinks,
  summary: 'Update a join-company link; absent fields are left unchanged',
  params: JoinLinkParams,
  body: UpdateJoinLinkBody,
  response: JoinCompanyLink,
  envelope: 'data',
  formats: { ...JOIN_LINK_FORMATS, default: 'full' },
  target: link,
  command: (ctx, { body }) => service.updateLink(ctx.db, ctx.target, body, ctx.now),
});

export const deleteJoinCompanyLink = defineOperation({
  operationId: 'deleteJoinCompanyLink',
  method: 'DELETE',
  path: `${LINKS}/:joinCompanyLinkId`,
  tag: tagLinks,
  summary: 'Delete a join-company link; a link already used by registered users is disabled instead',
  params: JoinLinkParams,
  response: JoinCompanyLink,
  envelope: 'status',
  formats: { ...JOIN_LINK_FORMATS, default: 'full' },
  target: link,
  command: (ctx) => service.deleteLink(ctx.db, ctx.target),
});

export const selfRegister = defineOperation({
  operationId: 'selfRegister',
  errors: [
    'JOIN_LINK_DISABLED',
    'JOIN_LINK_EXPIRED',
    'JOIN_LINK_FULL',
    'JOIN_LINK_NOT_FOUND',
    'LOGIN_EMAIL_TAKEN',
    'SELF_REGISTER_DISABLED',
    'SELF_REGISTER_DOMAIN_NOT_ALLOWED',
    'WEAK_PASSWORD',
  ],
  method: 'POST',
  path: '/enduser/v1.0/users/self-register',
  tag: 'Users',
  summary: "Create one's own account in a company through a join-company link (no token)",
  body: SelfRegisterBody,
  response: User,
  envelope: 'data',
  formats: { ...USER_FORMATS, default: 'full' },
  command: (ctx, { body }) => service.selfRegister(ctx.db, body, ctx.now),
});

export const createJoinInvitation = defineOperation({
  operationId: 'createJoinInvitation',
  errors: ['JOIN_INVITATION_EMAIL_TAKEN', 'JOIN_INVITATION_NO_ROLE_FOR_COMPANY', 'ROLE_NOT_ASSIGNABLE'],
  method: 'POST',
  path: INVITATIONS,
  tag: tagInvitations,
  summary: 'Invite someone to join the company; the invitation token is returned only now',
  description: 'The token stands for the e-mail that would carry it. The invitation lives 7 days.',
  params: CompanyParams,
  body: CreateJoinInvitationBody,
  response: JoinInvitationWithToken,
  envelope: 'data',
  target: company,
  // The answer carries the token: it must not be stored for Idempotency-Key replays.
  idempotent: false,
  command: (ctx, { body }) => service.createInvitation(ctx.db, ctx.caller, ctx.target, body, ctx.now),
});

export const listJoinInvitations = defineOperation({
  operationId: 'listJoinInvitations',
  method: 'GET',
  path: INVITATIONS,
  tag: tagInvitations,
  summary: 'List the join invitations of a company (never their tokens)',
  params: CompanyParams,
  query: ListJoinInvitationsQuery,
  response: JoinInvitation,
  envelope: 'list',
  target: company,
  command: async (ctx, { query }) => {
    const paging = parsePaging(query, JOIN_INVITATION_SORT_FIELDS, 'creationDate');
    const { rows, total } = await repo.listInvitationRows(ctx.db, ctx.target.id, query, ctx.now, paging);
    return listResult(
      rows.map((r) => service.toApiInvitation(r, ctx.now)),
      total,
      paging,
    );
  },
});

export const acceptJoinInvitation = defineOperation({
  operationId: 'acceptJoinInvitation',
  errors: [
    'JOIN_INVITATION_EXPIRED',
    'JOIN_INVITATION_NOT_FOUND',
    'JOIN_INVITATION_USED',
    'LOGIN_EMAIL_TAKEN',
    'WEAK_PASSWORD',
  ],
  method: 'POST',
  path: '/enduser/v1.0/join-companies/invitations/:invitationId/accept',
  tag: tagInvitations,
  summary:
    'Accept a join invitation with its token: creates the account with the invited roles (no token of session needed)',
  params: InvitationParams,
  body: AcceptJoinInvitationBody,
  response: User,
  envelope: 'data',
  formats: { ...USER_FORMATS, default: 'full' },
  command: (ctx, { params, body }) => service.acceptInvitation(ctx.db, params.invitationId, body, ctx.now),
});

export const joinOperations: AnyOperation[] = [
  createJoinCompanyLink,
  listJoinCompanyLinks,
  getJoinCompanyLink,
  updateJoinCompanyLink,
  deleteJoinCompanyLink,
  selfRegister,
  createJoinInvitation,
  listJoinInvitations,
  acceptJoinInvitation,
];
