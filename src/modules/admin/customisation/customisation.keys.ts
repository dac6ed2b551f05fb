// Document 3, Customisation keys: the 20 keys managed through customisation templates, their
// values, the built-in templates and the defaults of a company that never applied one.
import { Type, type TSchema } from 'typebox';
import { Obj } from '../../../http/schemas.ts';
import { mapProps } from '../../../http/schema-maps.ts';
import { isRecord, recordOf } from '../../../shared/json-values.ts';

export const CUSTOMISATION_KEYS = [
  'fileSharingCustomisation',
  'userTitleNameCustomisation',
  'softphoneOnlyCustomisation',
  'useRoomCustomisation',
  'phoneMeetingCustomisation',
  'useChannelCustomisation',
  'useScreenSharingCustomisation',
  'useWebRTCVideoCustomisation',
  'useWebRTCAudioCustomisation',
  'instantMessagesCustomisation',
  'userProfileCustomisation',
  'fileStorageCustomisation',
  'overridePresenceCustomisation',
  'changeTelephonyCustomisation',
  'changeSettingsCustomisation',
  'recordingConversationCustomisation',
  'useGifCustomisation',
  'fileCopyCustomisation',
  'fileTransferCustomisation',
  'forbidFileOwnerChangeCustomisation',
] as const;

export type CustomisationKey = (typeof CUSTOMISATION_KEYS)[number];
export type CompanyValue = 'enabled' | 'disabled';
export type UserValue = 'same_than_company' | CompanyValue;
export type CompanyValues = Record<CustomisationKey, CompanyValue>;
export type UserValues = Record<CustomisationKey, UserValue>;

/** Keys still managed by the company operations (columns of companies), shown read-only here. */
export const COMPANY_MANAGED_KEYS = [
  'alertNotificationReception',
  'alertNotificationSending',
  'useDialOutCustomisation',
] as const;

const COMPANY_VALUE = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]);
const USER_VALUE = Type.Union([Type.Literal('same_than_company'), Type.Literal('enabled'), Type.Literal('disabled')]);

const keysObject = <T extends TSchema>(value: T, description: string) =>
  Obj(
    recordOf(CUSTOMISATION_KEYS, () => value),
    { description },
  );
const optionalKeysObject = <T extends TSchema>(value: T, description: string) =>
  Obj(
    mapProps(
      recordOf(CUSTOMISATION_KEYS, () => value),
      'optional',
    ),
    { description },
  );

export const CompanyValuesSchema = keysObject(COMPANY_VALUE, 'company value of each customisation key');
export const UserValuesSchema = keysObject(USER_VALUE, 'user value of each customisation key');
export const CompanyValuesPatch = optionalKeysObject(
  COMPANY_VALUE,
  'customisation keys to change; absent keys are left unchanged, unknown keys ignored',
);

// "Restriction" keys: enabling them takes something away, so a full-featured company has them disabled.
const RESTRICTIONS: readonly CustomisationKey[] = ['softphoneOnlyCustomisation', 'forbidFileOwnerChangeCustomisation'];

function values(
  disabled: readonly CustomisationKey[],
  enabledRestrictions: readonly CustomisationKey[] = [],
): CompanyValues {
  return recordOf(CUSTOMISATION_KEYS, (k) => {
    const on = RESTRICTIONS.includes(k) ? enabledRestrictions.includes(k) : !disabled.includes(k);
    return on ? 'enabled' : 'disabled';
  });
}

/** The values of a company that never applied a template (those of the `Full` template). */
export const DEFAULT_COMPANY_VALUES: CompanyValues = values([]);

export interface BuiltInTemplate {
  id: string;
  name: string;
  description: string;
  isDefault: boolean;
  values: CompanyValues;
}

const FILE_KEYS: CustomisationKey[] = [
  'fileSharingCustomisation',
  'fileStorageCustomisation',
  'fileCopyCustomisation',
  'fileTransferCustomisation',
];

/** Built-in templates, seeded at start with fixed ids (idempotent). */
export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  {
    id: '5ee7c0570000000000000001',
    name: 'Full',
    description: 'every feature',
    isDefault: true,
    values: DEFAULT_COMPANY_VALUES,
  },
  {
    id: '5ee7c0570000000000000002',
    name: 'Chat - Audio - Video',
    description: 'conversations with audio, video and screen sharing; no files and no recording',
    isDefault: false,
    values: values([...FILE_KEYS, 'recordingConversationCustomisation']),
  },
  {
    id: '5ee7c0570000000000000003',
    name: 'Chat only',
    description: 'instant messages only: no audio, video, meetings, rooms, channels, files, telephony or recording',
    isDefault: false,
    values: values([
      ...FILE_KEYS,
      'useRoomCustomisation',
      'phoneMeetingCustomisation',
      'useChannelCustomisation',
      'useScreenSharingCustomisation',
      'useWebRTCVideoCustomisation',
      'useWebRTCAudioCustomisation',
      'changeTelephonyCustomisation',
      'recordingConversationCustomisation',
    ]),
  },
  {
    id: '5ee7c0570000000000000004',
    name: 'Softphone only',
    description: 'every feature, the application used as a softphone only',
    isDefault: false,
    values: values([], ['softphoneOnlyCustomisation']),
  },
];

const isKey = (k: string): k is CustomisationKey => CUSTOMISATION_KEYS.some((key) => key === k);

/** The company's value of every key: what it set, the default for the rest. Stray stored keys are ignored. */
export function companyValues(stored: unknown): CompanyValues {
  const out = { ...DEFAULT_COMPANY_VALUES };
  if (isRecord(stored)) {
    for (const [k, v] of Object.entries(stored)) if (isKey(k) && (v === 'enabled' || v === 'disabled')) out[k] = v;
  }
  return out;
}

/** A user's value of every key: same_than_company unless he has his own. */
export function userValues(stored: unknown): UserValues {
  const out: UserValues = recordOf(CUSTOMISATION_KEYS, () => 'same_than_company');
  if (isRecord(stored)) {
    for (const [k, v] of Object.entries(stored)) if (isKey(k) && (v === 'enabled' || v === 'disabled')) out[k] = v;
  }
  return out;
}

/** Only known keys with a company value: what a template or a PUT may store. */
export function cleanCompanyValues(input: object): Partial<CompanyValues> {
  const out: Partial<CompanyValues> = {};
  for (const k of Object.keys(input)) {
    const v: unknown = Reflect.get(input, k);
    if (isKey(k) && (v === 'enabled' || v === 'disabled')) out[k] = v;
  }
  return out;
}
