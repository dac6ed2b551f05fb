// Schemas of the phone numbers of a system (document 3, Phone numbers of a system).
import { Type } from 'typebox';
import { Id, Nullable, Obj, OneOf } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { pagingQuery } from '../../http/paging.ts';

export const PHONE_TYPES = ['home', 'work', 'other'] as const;
export const DEVICE_TYPES = ['landline', 'mobile', 'fax', 'other'] as const;
const S = Nullable(Type.String());
const Short = Type.String({ minLength: 1, maxLength: 32 });
const Text = Type.String({ maxLength: 255 });

/** Document 3, System phone number. */
export const PhoneNumber = Obj(
  {
    id: Id(),
    systemId: Id(),
    pbxId: Type.String(),
    pbxUserId: S,
    shortNumber: Type.String(),
    internalNumber: Type.String(),
    voiceMailNumber: S,
    number: S,
    numberE164: S,
    country: S,
    type: OneOf(PHONE_TYPES),
    deviceType: OneOf(DEVICE_TYPES),
    deviceName: S,
    firstName: S,
    lastName: S,
    isFromSystem: Type.Boolean(),
    isMonitored: Type.Boolean(),
    isVisibleByOthers: Type.Boolean(),
    isNomadic: Type.Boolean(),
    isVoipNomadic: Type.Boolean(),
    isNomadicModeInitialized: Type.Boolean(),
    userId: S,
    jid_im: S,
    jid_tel: S,
    jid_password: S,
    svcNumber: S,
    userType: S,
    companyPrefix: S,
  },
  { description: 'a phone number of a telephone system; fields per format level in docs/formats.md' },
);

export const PHONE_NUMBER_FORMATS = {
  small: ['id', 'systemId', 'shortNumber', 'internalNumber', 'numberE164', 'firstName', 'lastName', 'userId'],
  medium: [
    'id',
    'systemId',
    'pbxId',
    'pbxUserId',
    'shortNumber',
    'internalNumber',
    'number',
    'numberE164',
    'type',
    'deviceType',
    'deviceName',
    'firstName',
    'lastName',
    'isMonitored',
    'userId',
    'companyPrefix',
  ],
} as const;

/** One number the system reports (createSystemPhoneNumbers, +): created, or updated when its shortNumber exists. */
export const ReportedPhoneNumber = Obj({
  shortNumber: Short,
  pbxUserId: Type.Optional(Nullable(Text)),
  internalNumber: Type.Optional(Short),
  voiceMailNumber: Type.Optional(Nullable(Short)),
  number: Type.Optional(Nullable(Type.String({ maxLength: 32, description: 'raw DDI; its E.164 form is computed' }))),
  type: Type.Optional(OneOf(PHONE_TYPES)),
  deviceType: Type.Optional(OneOf(DEVICE_TYPES)),
  deviceName: Type.Optional(Nullable(Text)),
  firstName: Type.Optional(Nullable(Text)),
  lastName: Type.Optional(Nullable(Text)),
  companyPrefix: Type.Optional(
    Nullable(Type.String({ maxLength: 32, description: "multi-tenant systems: the tenant's call number" })),
  ),
  userType: Type.Optional(Nullable(Text)),
});

export const CreatePhoneNumbersBody = Obj({
  phoneNumbers: Type.Array(ReportedPhoneNumber, { minItems: 1, maxItems: 1000 }),
});

export const UpdatePhoneNumberBody = Obj({
  deviceName: Type.Optional(Nullable(Text)),
  firstName: Type.Optional(Nullable(Text)),
  lastName: Type.Optional(Nullable(Text)),
  internalNumber: Type.Optional(Short),
  number: Type.Optional(
    Nullable(Type.String({ maxLength: 32, description: 'raw DDI; an uncomputable E.164 gives 400' })),
  ),
  isMonitored: Type.Optional(Type.Boolean()),
  isVisibleByOthers: Type.Optional(Type.Boolean()),
  deviceType: Type.Optional(OneOf(DEVICE_TYPES)),
  type: Type.Optional(OneOf(PHONE_TYPES)),
  userId: Type.Optional(Nullable(Id('the user the number is linked to; null unlinks'))),
  // Document 3: these cannot change; only their current values are accepted.
  pbxId: Type.Optional(Type.String({ description: 'read-only' })),
  systemId: Type.Optional(Type.String({ description: 'read-only' })),
  shortNumber: Type.Optional(Type.String({ description: 'read-only' })),
  pbxUserId: Type.Optional(Nullable(Type.String({ description: 'read-only' }))),
});

export const PHONE_NUMBER_SORT_FIELDS = [
  'shortNumber',
  'internalNumber',
  'lastName',
  'firstName',
  'deviceName',
  'pbxUserId',
] as const;

export const ListPhoneNumbersQuery = Type.Object({
  format: formatQuery(),
  shortNumber: Type.Optional(Type.String({ description: 'prefix' })),
  internalNumber: Type.Optional(Type.String({ description: 'prefix' })),
  pbxUserId: Type.Optional(Type.String()),
  companyPrefix: Type.Optional(Type.String()),
  isMonitored: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String({ description: 'a prefix of the first or last name, case-insensitive' })),
  deviceName: Type.Optional(Type.String()),
  isAssignedToUser: Type.Optional(Type.Boolean()),
  ...pagingQuery(PHONE_NUMBER_SORT_FIELDS, 'shortNumber'),
});

export const PhoneNumberParams = Type.Object({ systemId: Id(), phoneNumberId: Id() });
