import { Type } from 'typebox';
import { ROLES } from '../../../authz/roles.ts';
import { DateTime, Id, Obj, OneOf, nameSchemas } from '../../../http/schemas.ts';
import { formatQuery } from '../../../http/format.ts';
import { pagingQuery } from '../../../http/paging.ts';

export const ADMIN_TYPES = ['undefined', 'bp_admin', 'organization_admin', 'company_admin', 'site_admin'] as const;
/** The union the adminType column carries (users.tables.ts). */
export type AdminType = (typeof ADMIN_TYPES)[number];

const Role = OneOf(ROLES);

export const EMAIL_TYPES = ['work', 'home', 'other'] as const;
export const PHONE_TYPES = ['work', 'home', 'other'] as const;
export const PHONE_DEVICE_TYPES = ['landline', 'mobile', 'fax', 'other'] as const;
export interface UserEmail {
  email: string;
  type: (typeof EMAIL_TYPES)[number];
}
export interface UserPhoneNumber {
  number: string;
  type: (typeof PHONE_TYPES)[number];
  deviceType: (typeof PHONE_DEVICE_TYPES)[number];
}
const Email = Obj({ email: Type.String({ format: 'email', maxLength: 255 }), type: OneOf(EMAIL_TYPES) });
const PhoneNumber = Obj({
  number: Type.String({ minLength: 1, maxLength: 32 }),
  type: OneOf(PHONE_TYPES),
  deviceType: OneOf(PHONE_DEVICE_TYPES),
});
const Name = Type.String({ maxLength: 255 });

export const User = Obj(
  {
    id: Id(),
    loginEmail: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    displayName: Type.String(),
    companyId: Id(),
    organisationId: Type.Union([Id(), Type.Null()], {
      description: 'the organisation of his company (document 3); at full level',
    }),
    roles: Type.Array(Type.String()),
    adminType: Type.Union([Type.String(), Type.Null()]),
    siteId: Type.Union([Type.String(), Type.Null()]),
    language: Type.Union([Type.String(), Type.Null()]),
    timezone: Type.Union([Type.String(), Type.Null()]),
    nickName: Type.Union([Type.String(), Type.Null()]),
    title: Type.Union([Type.String(), Type.Null()]),
    jobTitle: Type.Union([Type.String(), Type.Null()]),
    department: Type.Union([Type.String(), Type.Null()]),
    country: Type.Union([Type.String(), Type.Null()], { description: 'ISO 3166-1 alpha-3' }),
    emails: Type.Array(Email),
    phoneNumbers: Type.Array(PhoneNumber),
    isTerminated: Type.Boolean(),
    jid_im: Type.Union([Type.String(), Type.Null()], {
      description: "the user's XMPP address, on the configured user domain",
    }),
    creationDate: DateTime(),
    lastUpdateDate: DateTime(),
  },
  { description: 'a user; fields per format level in docs/formats.md' },
);

export const USER_FORMATS = {
  small: ['id', 'loginEmail', 'firstName', 'lastName', 'displayName', 'companyId'],
  medium: [
    'id',
    'loginEmail',
    'firstName',
    'lastName',
    'displayName',
    'companyId',
    'roles',
    'adminType',
    'siteId',
    'isTerminated',
    'language',
    'timezone',
    'jid_im',
  ],
} as const;

const writable = {
  loginEmail: Type.String({ format: 'email', minLength: 3, maxLength: 255 }),
  password: Type.String({
    minLength: 1,
    maxLength: 256,
    description: '8+ characters with upper case, lower case, digit and special character',
  }),
  firstName: Name,
  lastName: Name,
  roles: Type.Array(Role, { maxItems: ROLES.length, description: 'role names of document 1; `user` is always added' }),
  adminType: OneOf(ADMIN_TYPES),
  siteId: Type.Union([Id(), Type.Null()]),
  language: Type.String({ maxLength: 16 }),
  timezone: Type.String({ maxLength: 64 }),
  nickName: Type.Union([Type.String({ maxLength: 255 }), Type.Null()]),
  title: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
  jobTitle: Type.Union([Type.String({ maxLength: 255 }), Type.Null()]),
  department: Type.Union([Type.String({ maxLength: 255 }), Type.Null()]),
  country: Type.Union([Type.String({ pattern: '^[A-Z]{3}$' }), Type.Null()]),
  emails: Type.Array(Email, { maxItems: 10 }),
  phoneNumbers: Type.Array(PhoneNumber, { maxItems: 10 }),
};

// Fields both bodies take as optional; create requires loginEmail and password.
const optionalFields = {
  firstName: Type.Optional(writable.firstName),
  lastName: Type.Optional(writable.lastName),
  roles: Type.Optional(writable.roles),
  adminType: Type.Optional(writable.adminType),
  siteId: Type.Optional(writable.siteId),
  language: Type.Optional(writable.language),
  timezone: Type.Optional(writable.timezone),
  nickName: Type.Optional(writable.nickName),
  title: Type.Optional(writable.title),
  jobTitle: Type.Optional(writable.jobTitle),
  department: Type.Optional(writable.department),
  country: Type.Optional(writable.country),
  emails: Type.Optional(writable.emails),
  phoneNumbers: Type.Optional(writable.phoneNumbers),
};

export const CreateUserBody = Obj({
  loginEmail: writable.loginEmail,
  password: writable.password,
  companyId: Type.Optional(Id("company of the user; default the caller's company")),
  ...optionalFields,
});

export const UpdateUserBody = Obj({
  loginEmail: Type.Optional(writable.loginEmail),
  password: Type.Optional(writable.password),
  ...optionalFields,
});

export const USER_SORT_FIELDS = ['lastName', 'firstName', 'loginEmail', 'creationDate'] as const;

export const ListUsersQuery = Type.Object({
  format: formatQuery(),
  companyId: Type.Optional(Type.String()),
  loginEmail: Type.Optional(Type.String({ description: 'exact login email, case-insensitive' })),
  roles: Type.Optional(Type.String({ description: 'comma-separated role names; users holding any of them' })),
  name: Type.Optional(Type.String({ description: 'prefix of the first or last name, case-insensitive' })),
  ...pagingQuery(USER_SORT_FIELDS, 'lastName'),
});

export const UserIdParams = Type.Object({ userId: Id() });
export const FormatQuery = Type.Object({ format: formatQuery('full') });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ User, CreateUserBody, UpdateUserBody });
