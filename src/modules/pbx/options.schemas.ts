// Schemas of a CloudPBX's options and reference data (document 2; routes.md, CloudPBX; issue 25, point 2).
import { Type } from 'typebox';
import { Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { CLI_POLICIES, LANGUAGES } from './pbx.schemas.ts';

export const Language = Obj({ code: OneOf(LANGUAGES), description: Type.String() });

const BarringOption = Obj({ id: Type.String(), description: Type.String() });
export const BarringOptionLists = Obj({
  permissions: Type.Array(BarringOption),
  restrictions: Type.Array(BarringOption),
});

/** Bounds of a custom numbers restriction (docs/decisions.md). */
export const MAX_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 200;

const CustomNumberPattern = Obj({
  pattern: Type.String({
    minLength: 1,
    maxLength: MAX_PATTERN_LENGTH,
    description: 'a regular expression (JavaScript syntax) over the dialled number',
  }),
  description: Type.String({ maxLength: 255 }),
});
export type CustomNumberPattern = { pattern: string; description: string };

export const CustomNumbersRestriction = Obj({ patterns: Type.Array(CustomNumberPattern) });
export const UpdateCustomNumbersRestrictionBody = Obj({
  patterns: Type.Array(CustomNumberPattern, {
    maxItems: MAX_PATTERNS,
    description: 'the complete new set (it replaces the old one)',
  }),
});

export const CliOptionsAnswer = Obj({
  policy: OneOf(CLI_POLICIES),
  numberE164: Nullable(
    Type.String({ description: 'the installation number (E.164), presented under installation_ddi_number' }),
  ),
  userCanManageItsCli: Type.Boolean(),
  companyNumberCanBeSelectedByUserAsCli: Type.Boolean(),
});
export const UpdateCliOptionsBody = Obj({
  policy: Type.Optional(OneOf(CLI_POLICIES)),
  userCanManageItsCli: Type.Optional(Type.Boolean()),
  companyNumberCanBeSelectedByUserAsCli: Type.Optional(Type.Boolean()),
});

export const PeerAuthentication = Obj({
  username: Nullable(Type.String()),
  password: Nullable(Type.String({ description: 'a secret: answered only by the peer authentication operations' })),
  realm: Nullable(Type.String({ description: 'the digest realm (SIP_DOMAIN)' })),
});
export const UpdatePeerAuthenticationBody = Obj({
  username: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._~+-]+$' }),
  password: Type.String({ minLength: 1, maxLength: 128 }),
});

export const UpdateOverflowOptionsBody = Obj({
  activate: Type.Optional(Type.Boolean()),
  activateUnavailableOverflow: Type.Optional(
    Type.Boolean({ description: 'applies only to subscribers on the company default overflow' }),
  ),
  noReplyDelay: Type.Optional(Type.Integer({ minimum: 10, maximum: 60, description: 'seconds, 10 to 60' })),
});

export const EmergencyNumbers = Obj({
  emergencyOptions: Obj({
    callAuthorizationWithSoftPhone: Type.Boolean(),
    emergencyGroupActivated: Type.Boolean(),
  }),
  outgoingPrefix: Nullable(Type.String()),
  emergencyNumbers: Type.Array(Obj({ number: Type.String(), description: Type.String() })),
});

export const DeviceModel = Obj({
  id: Type.Integer(),
  vendor: Type.String(),
  model: Type.String(),
  programmableKeys: Type.Integer(),
  can_speeddial: Type.Boolean(),
  can_monitor: Type.Boolean(),
  keys: Type.Array(
    Obj({ keyNum: Type.Integer(), keyTypes: Type.Array(Type.String(), { description: 'speeddial, monitor' }) }),
  ),
});

export const DeviceModelParams = Type.Object({
  systemId: Id(),
  deviceModelId: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
});
