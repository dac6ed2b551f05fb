// Schemas of join-company links (document 3), join invitations (route table, +) and
// self-registration through a link.
import { Type, type Static } from 'typebox';
import { DateTime, DateTimeText, Id, Obj, nameSchemas } from '../../../http/schemas.ts';
import { formatQuery } from '../../../http/format.ts';
import { pagingQuery } from '../../../http/paging.ts';

const Name = Type.String({ maxLength: 255 });
/** An invitation's status; the union the status column carries (join.tables.ts). */
const InvitationStatus = Type.Union([Type.Literal('pending'), Type.Literal('accepted'), Type.Literal('expired')]);
export type InvitationStatus = Static<typeof InvitationStatus>;
const Email = Type.String({ format: 'email', minLength: 3, maxLength: 255 });
const Password = Type.String({
  minLength: 1,
  maxLength: 256,
  description: '8+ characters with upper case, lower case, digit and special character',
});
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(s: T) =>
  Type.Union([s, Type.Null()]);

// ---------------------------------------------------------------------------------------------
// Join-company links

export const JoinCompanyLink = Obj(
  {
    id: Id(),
    companyId: Id(),
    createdByAdminId: Type.Union([Type.String(), Type.Null()]),
    creationDate: DateTime(),
    expirationDate: Type.Union([DateTime(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    isEnabled: Type.Boolean(),
    maxNumberUsers: Type.Union([Type.Integer(), Type.Null()]),
    nbUsersRegistered: Type.Integer(),
  },
  { description: 'a join-company link (document 3); fields per format level in docs/formats.md' },
);

export const JOIN_LINK_FORMATS = {
  small: ['id', 'companyId', 'isEnabled', 'expirationDate', 'maxNumberUsers', 'nbUsersRegistered'],
  medium: [
    'id',
    'companyId',
    'isEnabled',
    'expirationDate',
    'maxNumberUsers',
    'nbUsersRegistered',
    'description',
    'createdByAdminId',
    'creationDate',
  ],
} as const;

const linkFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 1024 }))),
  expirationDate: Type.Optional(
    Type.Union([DateTimeText(), Type.Null()], {
      description: 'after this date the link refuses registrations; null: never expires',
    }),
  ),
  isEnabled: Type.Optional(Type.Boolean()),
  maxNumberUsers: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'users the link may register; null: no limit' }),
    ),
  ),
};

export const CreateJoinLinkBody = Obj(linkFields);
export const UpdateJoinLinkBody = Obj(linkFields);

export const CompanyParams = Type.Object({ companyId: Id() });
export const JoinLinkParams = Type.Object({ companyId: Id(), joinCompanyLinkId: Id() });
export const FormatOnlyQuery = Type.Object({ format: formatQuery('full') });

export const JOIN_LINK_SORT_FIELDS = [
  'creationDate',
  'expirationDate',
  'nbUsersRegistered',
  'maxNumberUsers',
  'description',
] as const;

export const ListJoinLinksQuery = Type.Object({
  format: formatQuery(),
  createdByAdminId: Type.Optional(Type.String()),
  isEnabled: Type.Optional(Type.Boolean()),
  fromExpirationDate: Type.Optional(DateTimeText()),
  toExpirationDate: Type.Optional(DateTimeText()),
  fromNbUsersRegistered: Type.Optional(
    Type.Integer({ minimum: 0, description: 'lower bound on nbUsersRegistered, inclusive' }),
  ),
  toNbUsersRegistered: Type.Optional(
    Type.Integer({ minimum: 0, description: 'upper bound on nbUsersRegistered, inclusive' }),
  ),
  ...pagingQuery(JOIN_LINK_SORT_FIELDS, 'creationDate'),
});

// ---------------------------------------------------------------------------------------------
// Self-registration

export const SelfRegisterBody = Obj({
  loginEmail: Email,
  password: Password,
  joinCompanyLinkId: Id('the join-company link'),
  firstName: Type.Optional(Name),
  lastName: Type.Optional(Name),
});

// ---------------------------------------------------------------------------------------------
// Join invitations

export const JoinInvitation = Obj(
  {
    id: Id(),
    companyId: Id(),
    email: Type.String(),
    invitedToBeCompanyAdmin: Type.Boolean(),
    invitedToBeBpAdmin: Type.Boolean(),
    invitedToBeBpFinance: Type.Boolean(),
    status: InvitationStatus,
    createdByAdminId: Type.Union([Type.String(), Type.Null()]),
    creationDate: DateTime(),
    expirationDate: DateTime(),
    acceptedDate: Type.Union([DateTime(), Type.Null()]),
    acceptedUserId: Type.Union([Type.String(), Type.Null()]),
  },
  { description: 'a join invitation; its token is never listed' },
);

export const JoinInvitationWithToken = Obj(
  {
    ...JoinInvitation.properties,
    invitationToken: Type.String({ description: 'returned only by the creation: what the invitation e-mail carries' }),
  },
  { description: 'a created join invitation with its token, shown once' },
);

export const CreateJoinInvitationBody = Obj({
  email: Email,
  invitedToBeCompanyAdmin: Type.Optional(Type.Boolean({ default: false })),
  invitedToBeBpAdmin: Type.Optional(Type.Boolean({ default: false })),
  invitedToBeBpFinance: Type.Optional(Type.Boolean({ default: false })),
});

export const JOIN_INVITATION_SORT_FIELDS = ['creationDate', 'email', 'expirationDate', 'status'] as const;

export const ListJoinInvitationsQuery = Type.Object({
  status: Type.Optional(InvitationStatus),
  email: Type.Optional(Type.String({ description: 'exact e-mail, case-insensitive' })),
  ...pagingQuery(JOIN_INVITATION_SORT_FIELDS, 'creationDate'),
});

export const InvitationParams = Type.Object({ invitationId: Id() });

export const AcceptJoinInvitationBody = Obj({
  token: Type.String({ minLength: 1, maxLength: 256, description: 'the invitation token' }),
  password: Password,
  firstName: Type.Optional(Name),
  lastName: Type.Optional(Name),
});

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({
  JoinCompanyLink,
  CreateJoinLinkBody,
  UpdateJoinLinkBody,
  SelfRegisterBody,
  JoinInvitation,
  JoinInvitationWithToken,
  CreateJoinInvitationBody,
  AcceptJoinInvitationBody,
});
