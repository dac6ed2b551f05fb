// Schemas of telephone systems (document 3, Systems and sites; routes.md, Systems).
import { Type, type Static } from 'typebox';
import { DateTime, DateTimeText, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { pagingQuery } from '../../http/paging.ts';

/** The types an administrator gives a system (createSystem, updateSystem). */
export const ADMIN_SYSTEM_TYPES = ['oxo', 'oxe', 'third_party', 'undefined'] as const;
/** Every type a system has: a hosted PBX (document 2, CloudPBX) is a system of type `cloud_pbx`, made by the pbx module only. */
export const SYSTEM_TYPES = [...ADMIN_SYSTEM_TYPES, 'cloud_pbx'] as const;
export const SYSTEM_STATUSES = ['created', 'activating', 'activated', 'terminated'] as const;
export const SEARCH_SOURCES = ['SVC', 'LDAP', 'PBX'] as const;
export const CONNECTION_EVENT_TYPES = ['LOGIN', 'LOGOUT'] as const;
// The unions the columns carry (systems.tables.ts).
export type SystemType = (typeof SYSTEM_TYPES)[number];
export type SystemStatus = (typeof SYSTEM_STATUSES)[number];
export type SearchSource = (typeof SEARCH_SOURCES)[number];
export type ConnectionEventType = (typeof CONNECTION_EVENT_TYPES)[number];

const Translator = Obj({
  regexpMatch: Type.String({ maxLength: 1024 }),
  regexpReplace: Type.String({ maxLength: 1024 }),
  description: Type.Optional(Type.String({ maxLength: 1024 })),
});
/** A numbering rule; the type the pbxNumberingTranslator column carries (systems.tables.ts). */
export type Translator = Static<typeof Translator>;
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Text = Type.String({ maxLength: 255 });

/** Document 3, System. */
export const System = Obj(
  {
    id: Id(),
    name: Type.String(),
    pbxId: Type.String(),
    country: Nullable(Type.String()),
    version: Nullable(Type.String()),
    type: OneOf(SYSTEM_TYPES),
    status: OneOf(SYSTEM_STATUSES),
    siteId: Type.Array(Type.String(), { description: 'the sites linked to the system' }),
    companyId: Id('the company the system was created for, whose administrators manage it'),
    bpId: Nullable(Type.String()),
    jid_pbxagent: Type.String(),
    jid_pbxagent_password: Type.String({ description: 'secret of the PBX agent account' }),
    jid_pbxpcg: Type.String(),
    jid_pbxpcg_password: Type.String({ description: 'secret of the gateway account' }),
    serverPingTimeout: Type.Integer(),
    pbxMainBundlePrefix: Type.Array(Type.String()),
    usePbxMainBundlePrefix: Type.Boolean(),
    pbxNationalPrefix: Nullable(Type.String()),
    pbxInternationalPrefix: Nullable(Type.String()),
    pbxNumberingTranslator: Type.Array(Translator),
    hasMediaPillar: Type.Boolean(),
    isShared: Type.Boolean(),
    isCentrex: Type.Boolean(),
    isOxoManaged: Type.Boolean(),
    searchResultOrder: Type.Array(OneOf(SEARCH_SOURCES)),
    activatingTransactionId: Nullable(Type.String()),
    jid_pbxagent_password_activating: Nullable(Type.String()),
    creationDate: DateTime(),
    statusUpdatedDate: DateTime(),
    connectionHistory: Type.Optional(
      Type.Array(Obj({ eventType: OneOf(CONNECTION_EVENT_TYPES), eventDate: DateTime() }), {
        description: 'with connectionHistory=true',
      }),
    ),
  },
  { description: 'a telephone system; fields per format level in docs/formats.md' },
);

export const SYSTEM_FORMATS = {
  small: ['id', 'name', 'pbxId', 'type', 'status', 'siteId'],
  medium: [
    'id',
    'name',
    'pbxId',
    'type',
    'status',
    'siteId',
    'companyId',
    'bpId',
    'country',
    'version',
    'isShared',
    'isCentrex',
    'isOxoManaged',
    'creationDate',
    'statusUpdatedDate',
  ],
} as const;

/** The settings an administrator may give a system (create and update). */
const settings = {
  name: Type.Optional(Name),
  country: Type.Optional(Nullable(Type.String({ maxLength: 3 }))),
  version: Type.Optional(Nullable(Text)),
  type: Type.Optional(OneOf(ADMIN_SYSTEM_TYPES)),
  serverPingTimeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  // Clients of the original interface send one prefix as a string on update.
  pbxMainBundlePrefix: Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 32 }), { maxItems: 100 }), Type.String({ maxLength: 32 })], {
      description: 'prefixes; one prefix as a string is a list of one',
    }),
  ),
  usePbxMainBundlePrefix: Type.Optional(Type.Boolean()),
  pbxNationalPrefix: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
  pbxInternationalPrefix: Type.Optional(Nullable(Type.String({ maxLength: 16 }))),
  pbxNumberingTranslator: Type.Optional(Type.Array(Translator, { maxItems: 100 })),
  hasMediaPillar: Type.Optional(Type.Boolean()),
  isShared: Type.Optional(Type.Boolean()),
  isOxoManaged: Type.Optional(Type.Boolean()),
  searchResultOrder: Type.Optional(Type.Array(OneOf(SEARCH_SOURCES), { maxItems: 3 })),
};

export const CreateSystemBody = Obj({
  ...settings,
  name: Name,
  pbxId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'the identifier the system reports; default: generated' }),
  ),
  siteId: Id('the first site of the system; the system belongs to its company'),
  isCentrex: Type.Optional(Type.Boolean({ description: 'multi-tenant system; read-only after creation' })),
});

export const UpdateSystemBody = Obj({
  ...settings,
  status: Type.Optional(OneOf(SYSTEM_STATUSES)),
  isCentrex: Type.Optional(Type.Boolean({ description: 'read-only: only its current value is accepted' })),
});

export const LinkSystemBody = Obj({ systemId: Id('the system to link to the site') });

export const SYSTEM_SORT_FIELDS = ['pbxId', 'name', 'type', 'status', 'creationDate'] as const;

const filters = {
  name: Type.Optional(Type.String({ description: 'a prefix of the name, case-insensitive' })),
  type: Type.Optional(OneOf(SYSTEM_TYPES)),
  status: Type.Optional(OneOf(SYSTEM_STATUSES)),
  companyId: Type.Optional(Type.String()),
  bpId: Type.Optional(Type.String()),
  isShared: Type.Optional(Type.Boolean()),
  isCentrex: Type.Optional(Type.Boolean()),
  isSharedOrCentrex: Type.Optional(Type.Boolean()),
  isOxoManaged: Type.Optional(Type.Boolean()),
  fromCreationDate: Type.Optional(DateTimeText()),
  toCreationDate: Type.Optional(DateTimeText()),
};

export const ListSystemsQuery = Type.Object({
  format: formatQuery(),
  connectionHistory: Type.Optional(Type.Boolean({ description: 'each system with its connectionHistory' })),
  siteId: Type.Optional(Type.String({ description: 'only the systems linked to this site' })),
  ...filters,
  ...pagingQuery(SYSTEM_SORT_FIELDS, 'pbxId'),
});

export const ListSiteSystemsQuery = Type.Object({
  format: formatQuery(),
  ...filters,
  ...pagingQuery(SYSTEM_SORT_FIELDS, 'pbxId'),
});

export const SystemIdParams = Type.Object({ systemId: Id() });
export const SiteIdParams = Type.Object({ siteId: Id() });
export const SiteSystemParams = Type.Object({ siteId: Id(), systemId: Id() });
export const GetSystemQuery = Type.Object({
  format: formatQuery('full'),
  connectionHistory: Type.Optional(Type.Boolean()),
});
export const FormatFullQuery = Type.Object({ format: formatQuery('full') });
