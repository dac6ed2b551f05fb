// Schemas of the CloudPBX (document 2, CloudPBX; routes.md, CloudPBX).
import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { pagingQuery } from '../../http/paging.ts';

export const LANGUAGES = ['ro', 'es', 'it', 'de', 'fr', 'en', 'ar', 'he', 'nl'] as const;
export const CALL_FORKING_VALUES = ['not_available', 'not_activated', 'activated'] as const;
export const CLI_POLICIES = ['installation_ddi_number', 'user_ddi_number'] as const;
export const EXTERNAL_CALL_FORWARD_VALUES = ['authorized', 'not_authorized'] as const;
export type Language = (typeof LANGUAGES)[number];
export type CallForkingToPstnNumber = (typeof CALL_FORKING_VALUES)[number];

/** Document 2: overflowSubscribersToVoicemail; noReplyDelay 10 to 60 seconds, default 20. */
const NoReplyDelay = Type.Integer({ minimum: 10, maximum: 60, description: 'seconds, 10 to 60 (default 20)' });

const OverflowOptions = Obj({
  activate: Type.Boolean(),
  noReplyDelay: Type.Integer(),
  activateUnavailableOverflow: Type.Boolean(),
});
const BarringOptions = Obj({ permissions: Type.String(), restrictions: Type.String() });
const CliOptions = Obj({
  policy: OneOf(CLI_POLICIES),
  userCanManageItsCli: Type.Boolean(),
  companyNumberCanBeSelectedByUserAsCli: Type.Boolean(),
});
const EmergencyOptions = Obj({
  callAuthorizationWithSoftPhone: Type.Boolean(),
  emergencyGroupActivated: Type.Boolean(),
});
const CallForwardOptions = Obj({ externalCallForward: OneOf(EXTERNAL_CALL_FORWARD_VALUES) });
const PeerAuthenticationOptions = Obj({
  username: Nullable(Type.String()),
  password: Nullable(
    Type.String({
      description: 'always null here: answered only by getPeerAuthentication and updatePeerAuthentication',
    }),
  ),
  realm: Nullable(Type.String()),
});
// The types the jsonb columns carry (pbx.tables.ts).
export type OverflowOptions = Static<typeof OverflowOptions>;
export type BarringOptions = Static<typeof BarringOptions>;
export type CliOptions = Static<typeof CliOptions>;
export type EmergencyOptions = Static<typeof EmergencyOptions>;
export type CallForwardOptions = Static<typeof CallForwardOptions>;
export type PeerAuthenticationOptions = Static<typeof PeerAuthenticationOptions>;
/** What pbx_cloudpbxs keeps of the peer authentication: the password sealed (src/shared/keys.ts). */
export interface StoredPeerAuthentication {
  username: string;
  passwordSealed: string;
  realm: string;
}

/** Document 2, the `cloudpbx` object of a CloudPBX. */
const CloudPbxSettings = Obj({
  outgoingPrefix: Nullable(Type.String()),
  numberingPrefix: Nullable(Type.String({ description: 'the first of numberingPrefixes' })),
  numberingPrefixes: Type.Array(Type.String(), {
    description: 'a prefix p with numberingDigits d allows the internal numbers p0…0 to p9…9 (d digits after p)',
  }),
  numberingDigits: Nullable(Type.Integer()),
  installationNumber: Nullable(Type.String()),
  installationNumberId: Nullable(Type.String()),
  domainName: Nullable(Type.String()),
  vcpNumber: Nullable(Type.String({ description: 'the tenant of the company on the voice platform' })),
  externalTrunkId: Nullable(Type.String({ description: 'the external trunk it uses (null: none)' })),
  language: OneOf(LANGUAGES),
  customSipHeader_1: Nullable(Type.String()),
  customSipHeader_2: Nullable(Type.String()),
  overflowSubscribersToVoicemail: OverflowOptions,
  barringOptions: BarringOptions,
  cliOptions: CliOptions,
  emergencyOptions: EmergencyOptions,
  callForwardOptions: CallForwardOptions,
  peerAuthenticationOptions: PeerAuthenticationOptions,
  allowCloudPbxRecording: Type.Boolean(),
  routeInternalCallsToPeer: Type.Boolean(),
  callForkingToPstnNumber: OneOf(CALL_FORKING_VALUES),
  monolineIncomingMode: Type.Boolean(),
  emulatedRingBackTone: Type.Boolean(),
});

/** Document 2, CloudPBX: a telephone system of type `cloud_pbx` and its `cloudpbx` settings. */
export const CloudPbx = Obj(
  {
    id: Id('the id of its system (systemId)'),
    pbxId: Type.String(),
    name: Type.String(),
    latin_name: Type.String({ description: 'the name in Latin letters (accents removed)' }),
    type: Type.Literal('cloud_pbx'),
    siteId: Type.Array(Type.String(), { description: 'the sites linked to its system' }),
    companyId: Id(),
    bpId: Nullable(Type.String()),
    vcpInstanceId: Type.String(),
    country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-3, the company’s at creation' })),
    status: Type.String({ description: 'created, activated' }),
    creationDate: DateTime(),
    statusUpdatedDate: DateTime(),
    blockedDate: Nullable(DateTime()),
    jid_pbxagent: Type.String(),
    jid_pbxagent_password: Type.String({ description: 'secret of the PBX agent account' }),
    jid_pbxpcg: Type.String(),
    jid_pbxpcg_password: Type.String({ description: 'secret of the gateway account' }),
    cloudpbx: CloudPbxSettings,
  },
  { description: 'a hosted PBX; fields per format level in docs/formats.md' },
);

/** The list's levels (a list answers `small` unless asked: document 1); secrets only in `full`. */
export const CLOUDPBX_FORMATS = {
  small: ['id', 'name', 'pbxId', 'type', 'status', 'siteId', 'companyId', 'bpId', 'vcpInstanceId'],
  medium: [
    'id',
    'pbxId',
    'name',
    'latin_name',
    'type',
    'siteId',
    'companyId',
    'bpId',
    'vcpInstanceId',
    'country',
    'status',
    'creationDate',
    'statusUpdatedDate',
    'blockedDate',
    'jid_pbxagent',
    'jid_pbxpcg',
    'cloudpbx',
  ],
} as const;

/** A prefix: digits, sent as a string or (clients of the original interface) a number. */
const Prefix = Type.Union(
  [Type.String({ pattern: '^[0-9]{1,8}$' }), Type.Integer({ minimum: 0, maximum: 99_999_999 })],
  {
    description: 'digits (a number is read as its digits)',
    examples: ['2'],
  },
);
const Digits = Type.Integer({ minimum: 1, maximum: 10, description: 'digits after a prefix' });
const Header = Type.String({ maxLength: 255 });

/** What create and update share (document 2, Create CloudPBX, Update CloudPBX). */
const settings = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  language: Type.Optional(OneOf(LANGUAGES)),
  callForkingToPstnNumber: Type.Optional(OneOf(CALL_FORKING_VALUES)),
  customSipHeader_1: Type.Optional(Nullable(Header)),
  customSipHeader_2: Type.Optional(Nullable(Header)),
  numberingDigits: Type.Optional(Digits),
  numberingPrefix: Type.Optional(Prefix),
  numberingPrefixes: Type.Optional(Type.Array(Prefix, { maxItems: 20 })),
  outgoingPrefix: Type.Optional(Prefix),
  routeInternalCallsToPeer: Type.Optional(Type.Boolean()),
  // Document 2, update CloudPBX: set or changed by superadmin or bp_admin only; null unlinks.
  externalTrunkId: Type.Optional(Nullable(Id('an external trunk (null: no trunk)'))),
};

export const CreateCloudPbxBody = Obj({
  ...settings,
  companyId: Id('the company of the CloudPBX (at most one per company)'),
  siteId: Type.Optional(
    Type.Union([Id(), Type.Array(Id(), { minItems: 1, maxItems: 1 })], {
      description: 'the site of the company it is created for (one id, or an array of one)',
    }),
  ),
  noReplyDelay: Type.Optional(NoReplyDelay),
});

export const UpdateCloudPbxBody = Obj({
  ...settings,
  barringOptions: Type.Optional(
    Obj({
      permissions: Type.Optional(Type.String({ maxLength: 64 })),
      restrictions: Type.Optional(Type.String({ maxLength: 64 })),
    }),
  ),
  callForwardOptions: Type.Optional(Obj({ externalCallForward: Type.Optional(OneOf(EXTERNAL_CALL_FORWARD_VALUES)) })),
  emergencyOptions: Type.Optional(
    Obj({
      callAuthorizationWithSoftPhone: Type.Optional(Type.Boolean()),
      emergencyGroupActivated: Type.Optional(Type.Boolean()),
    }),
  ),
  monolineIncomingMode: Type.Optional(Type.Boolean()),
});

export const CLOUDPBX_SORT_FIELDS = ['companyId', 'name', 'pbxId', 'creationDate'] as const;

export const ListCloudPbxsQuery = Type.Object({
  format: formatQuery(),
  companyId: Type.Optional(
    Type.String({ description: 'only the CloudPBXs of these companies (ids separated by commas)' }),
  ),
  bpId: Type.Optional(Type.String({ description: 'only the CloudPBXs of End Customers of this BP' })),
  ...pagingQuery(CLOUDPBX_SORT_FIELDS, 'companyId'),
});

export const SystemIdParams = Type.Object({ systemId: Id() });
export const GetCloudPbxQuery = Type.Object({ format: formatQuery('full') });
export const FormatFullQuery = Type.Object({ format: formatQuery('full') });
export const DeleteCloudPbxQuery = Type.Object({
  forceDelete: Type.Optional(
    Type.Boolean({ default: false, description: 'also delete its DDI numbers, subscribers and SIP devices' }),
  ),
});
