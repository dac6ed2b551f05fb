// The columns of an import's CSV (document 3, Bulk import: "most names are those of the admin
// create-user operation"; the reference template; issue 27, points 1 and 2). Each column is read
// into a field of the line; a value of the wrong form fails the line, naming the column. A column
// not known here is reported by the check and ignored.
import countries from 'i18n-iso-countries/index.js';
import { isStrongPassword } from '../../shared/passwords.ts';
import { lineError, type LineError } from './line-errors.ts';
import type { ImportMode, ImportRoute } from './imports.tables.ts';

export const ACTIONS = ['upsert', 'sync', 'delete', 'detach'] as const;
export type Action = (typeof ACTIONS)[number];

/** The fields of the user a line creates or updates (createUser's names; the profile of users.tables.ts). */
export interface UserFields {
  firstName: string;
  lastName: string;
  nickName: string | null;
  title: string | null;
  jobTitle: string | null;
  department: string | null;
  country: string | null;
  language: string | null;
  timezone: string | null;
  email0: string | null;
  businessPhone0: string | null;
  mobilePhone0: string | null;
  selectedAppCustomisationTemplateName: string | null;
}
export type UserField = keyof UserFields;

/** The PBX extension of a line (device mode): a phone number of a telephone system of the company. */
export interface DeviceFields {
  pbxShortNumber: string | null;
  pbxInternalNumber: string | null;
}

/**
 * The voice of a line (voice mode): the subscriber of the company's CloudPBX, its DDI number, its
 * SIP device. null: an empty cell (cleared on a sync line); undefined: a column the header lacks
 * (left as it is, whatever the action).
 */
export interface VoiceFields {
  shortNumber?: string | null;
  ddiE164Number?: string | null;
  macAddress?: string | null;
  deviceTypeId?: number | null;
  customSipHeader_1?: string | null;
  customSipHeader_2?: string | null;
}

type Kind = 'key' | 'user' | 'device' | 'voice';

interface ColumnDef {
  kind: Kind;
  description: string;
  example: string;
  /** The value of a non-empty cell, or the reason it is refused. */
  read: (v: string) => { value: unknown } | { reason: string };
}

const text =
  (max: number) =>
  (v: string): { value: string } | { reason: string } =>
    v.length <= max ? { value: v } : { reason: `at most ${max} characters` };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const email = (v: string) => (EMAIL.test(v) && v.length <= 255 ? { value: v } : { reason: 'not an e-mail address' });
const phone = (v: string) =>
  /^\+?[0-9 ()./-]{2,32}$/.test(v) ? { value: v } : { reason: 'not a phone number (digits, spaces, + ( ) . / -)' };
const digits = (v: string) => (/^[0-9*#]{1,20}$/.test(v) ? { value: v } : { reason: 'digits only (1 to 20)' });

const TIMEZONES = new Set(Intl.supportedValuesOf('timeZone'));
TIMEZONES.add('UTC');

/**
 * Every column the import understands, in the order of the templates. `__action__` and
 * `loginEmail` are the line's key; `password` is the key's too (never exported).
 */
export const COLUMNS: Record<string, ColumnDef> = {
  __action__: {
    kind: 'key',
    description: 'upsert (default), sync, delete or detach',
    example: 'upsert',
    read: (v) => ({ value: v.toLowerCase() }),
  },
  loginEmail: {
    kind: 'key',
    description: 'the login of the user (required)',
    example: 'jane.doe@example.com',
    read: email,
  },
  password: {
    kind: 'key',
    description:
      '8+ characters with upper case, lower case, a digit and a special character; empty: none (a reset sets it)',
    example: 'Secret-Pass1',
    read: (v) => (isStrongPassword(v) ? { value: v } : { reason: 'weak' }),
  },
  firstName: { kind: 'user', description: 'first name', example: 'Jane', read: text(255) },
  lastName: { kind: 'user', description: 'last name', example: 'Doe', read: text(255) },
  nickName: { kind: 'user', description: 'nickname', example: 'JD', read: text(255) },
  title: { kind: 'user', description: 'title (Mr, Ms, Dr...)', example: 'Ms', read: text(40) },
  jobTitle: { kind: 'user', description: 'job title', example: 'Sales manager', read: text(255) },
  department: { kind: 'user', description: 'department', example: 'Sales', read: text(255) },
  country: {
    kind: 'user',
    description: 'ISO 3166-1 alpha-3 country code',
    example: 'FRA',
    read: (v) =>
      countries.isValid(v.toUpperCase()) && v.length === 3
        ? { value: v.toUpperCase() }
        : { reason: 'not an ISO 3166-1 alpha-3 country code' },
  },
  language: {
    kind: 'user',
    description: 'language code (ISO 639-1, optionally with a region: fr, en-US)',
    example: 'en',
    read: (v) =>
      /^[a-z]{2}([-_][A-Za-z]{2})?$/.test(v) ? { value: v } : { reason: 'not a language code such as fr or en-US' },
  },
  timezone: {
    kind: 'user',
    description: 'IANA time zone',
    example: 'Europe/Paris',
    read: (v) => (TIMEZONES.has(v) ? { value: v } : { reason: 'not an IANA time zone' }),
  },
  email0: { kind: 'user', description: 'work e-mail address', example: 'jane@example.com', read: email },
  businessPhone0: { kind: 'user', description: 'work landline number', example: '+33 1 23 45 67 89', read: phone },
  mobilePhone0: { kind: 'user', description: 'work mobile number', example: '+33 6 12 34 56 78', read: phone },
  selectedAppCustomisationTemplateName: {
    kind: 'user',
    description: 'name of a customisation template of the company',
    example: 'Default',
    read: text(255),
  },
  pbxShortNumber: {
    kind: 'device',
    description: "short number of a phone number of the company's telephone system",
    example: '2001',
    read: digits,
  },
  pbxInternalNumber: {
    kind: 'device',
    description: "internal number of a phone number of the company's telephone system",
    example: '2001',
    read: digits,
  },
  shortNumber: {
    kind: 'voice',
    description: "CloudPBX subscriber's short number (voice mode)",
    example: '8001',
    read: digits,
  },
  ddiE164Number: {
    kind: 'voice',
    description: 'DDI number of the CloudPBX to assign to the subscriber (voice mode)',
    example: '+33123456789',
    read: (v) => (/^\+?[0-9 ()./-]{2,32}$/.test(v) ? { value: v } : { reason: 'not a phone number' }),
  },
  macAddress: {
    kind: 'voice',
    description: 'MAC address of the SIP device of the subscriber (voice mode)',
    example: '00:1a:2b:3c:4d:5e',
    read: (v) => (/^([0-9A-Fa-f]{2}[:-]?){5}[0-9A-Fa-f]{2}$/.test(v) ? { value: v } : { reason: 'not a MAC address' }),
  },
  deviceTypeId: {
    kind: 'voice',
    description: 'device model of the SIP device (GET .../devicemodels; default 999999, generic SIP)',
    example: '999999',
    read: (v) => (/^[0-9]{1,9}$/.test(v) ? { value: Number(v) } : { reason: 'not a device model id' }),
  },
  customSipHeader_1: {
    kind: 'voice',
    description: 'first custom SIP header of the subscriber (voice mode)',
    example: '',
    read: text(255),
  },
  customSipHeader_2: {
    kind: 'voice',
    description: 'second custom SIP header of the subscriber (voice mode)',
    example: '',
    read: text(255),
  },
};

export const USER_COLUMNS = Object.keys(COLUMNS).filter((c) => COLUMNS[c].kind === 'user');
export const DEVICE_COLUMNS = Object.keys(COLUMNS).filter((c) => COLUMNS[c].kind === 'device');
export const VOICE_COLUMNS = Object.keys(COLUMNS).filter((c) => COLUMNS[c].kind === 'voice');

/** The columns of a template of each mode, in order (issue 27, point 6). */
export const TEMPLATE_COLUMNS: Record<ImportMode, string[]> = {
  user: ['__action__', 'loginEmail', 'password', ...USER_COLUMNS],
  device: ['__action__', 'loginEmail', ...DEVICE_COLUMNS],
  useranddevice: ['__action__', 'loginEmail', 'password', ...USER_COLUMNS, ...DEVICE_COLUMNS],
  voice: ['__action__', 'loginEmail', 'password', ...USER_COLUMNS, ...VOICE_COLUMNS],
};

export interface HeaderPlan {
  mode: ImportMode;
  /** For each position of the header, the column it fills (undefined: unknown or not of this route, ignored). */
  positions: (string | undefined)[];
  /** Header names not understood by this route (reported by the check, ignored). */
  ignored: string[];
}

/**
 * The mode of a CSV from its header and its route (document 3: user, device, user-and-device, or
 * the voice mode of its own routes). Voice columns are understood only by the voice routes, and
 * device columns only by the others. A header with no column of the import is 400902.
 */
export function planHeader(
  columns: string[],
  route: ImportRoute | 'check' | 'checkSync' | 'checkVoice',
): HeaderPlan | undefined {
  const voice = route === 'voice' || route === 'checkVoice';
  const understood = (c: string) => {
    const d = COLUMNS[c];
    return !!d && (voice ? d.kind !== 'device' : d.kind !== 'voice');
  };
  const seen = new Set<string>();
  const positions = columns.map((c) => {
    if (!understood(c) || seen.has(c)) return undefined;
    seen.add(c);
    return c;
  });
  const ignored = columns.filter((_, i) => positions[i] === undefined);
  if (!seen.has('loginEmail')) return undefined;
  const has = (kind: Kind) => [...seen].some((c) => COLUMNS[c].kind === kind);
  const mode: ImportMode = voice ? 'voice' : has('device') ? (has('user') ? 'useranddevice' : 'device') : 'user';
  return { mode, positions, ignored };
}

/** One line of the import, read and checked column by column (nothing of the database yet). */
export interface ImportLine {
  line: number;
  raw: string;
  action: Action;
  login: string;
  password?: string;
  /** The user fields of non-empty cells. */
  user: Partial<UserFields>;
  /** The user fields whose cell is empty on a `sync` line: cleared. */
  cleared: UserField[];
  /** The PBX extension: given, cleared (an empty cell on a sync line: detach), or absent. */
  device?: DeviceFields;
  /** The voice columns of a voice line (null: empty). */
  voice?: VoiceFields;
}

const USER_CLEARABLE: readonly UserField[] = USER_COLUMNS.filter(
  (c): c is UserField => c !== 'firstName' && c !== 'lastName',
);

/**
 * Reads a record into a line of the import, or the error of its line. `defaultAction` is the
 * action of a line whose `__action__` is empty or absent: `upsert` for importCsv and
 * importVoiceCsv, `sync` for syncCsv (docs/decisions.md, Bulk import).
 */
export function readLine(
  plan: HeaderPlan,
  record: { line: number; cells: string[]; raw: string },
  defaultAction: Action,
  lenient = false,
): { line: ImportLine; warnings: number } | { error: LineError; login: string } {
  const given: Record<string, unknown> = {};
  const empty: string[] = [];
  let login = '';
  let warnings = 0;
  for (let i = 0; i < plan.positions.length; i++) {
    const col = plan.positions[i];
    if (!col) continue;
    const cell = record.cells[i] ?? '';
    if (col === 'loginEmail') login = cell.toLowerCase();
    if (cell === '') {
      empty.push(col);
      continue;
    }
    const read = COLUMNS[col].read(cell);
    if ('reason' in read) {
      // nostrict (issue 27, point 9): a wrong value of a column other than the key is left out, a warning.
      if (lenient && COLUMNS[col].kind !== 'key') {
        warnings++;
        continue;
      }
      if (col === 'password') return { error: lineError('PASSWORD_WEAK'), login };
      return { error: lineError('VALUE_INVALID', { column: col, reason: read.reason }), login };
    }
    given[col] = read.value;
  }
  if (!login) return { error: lineError('LOGIN_MISSING'), login: `line ${record.line}` };
  const actionText = typeof given.__action__ === 'string' ? given.__action__ : defaultAction;
  const action = ACTIONS.find((a) => a === actionText);
  if (!action) return { error: lineError('ACTION_UNKNOWN', { value: actionText }), login };
  if (action === 'detach' && plan.mode === 'user')
    return { error: lineError('ACTION_NOT_IN_MODE', { value: action, mode: plan.mode }), login };
  const user: Partial<UserFields> = {};
  // Set in place (no object per column): this runs for every line of an import.
  for (const c of USER_COLUMNS) if (c in given) Reflect.set(user, c, given[c]);
  const cleared = action === 'sync' ? USER_CLEARABLE.filter((c) => empty.includes(c)) : [];
  const out: ImportLine = { line: record.line, raw: record.raw, action, login, user, cleared };
  if (typeof given.password === 'string') out.password = given.password;
  if (plan.mode === 'device' || plan.mode === 'useranddevice') {
    const short = given.pbxShortNumber;
    const internal = given.pbxInternalNumber;
    if (short !== undefined || internal !== undefined || action === 'sync')
      out.device = {
        pbxShortNumber: typeof short === 'string' ? short : null,
        pbxInternalNumber: typeof internal === 'string' ? internal : null,
      };
  }
  if (plan.mode === 'voice') {
    const inHeader = (c: string) => plan.positions.includes(c);
    const str = (c: string) => (typeof given[c] === 'string' ? String(given[c]) : inHeader(c) ? null : undefined);
    out.voice = {
      shortNumber: str('shortNumber'),
      ddiE164Number: str('ddiE164Number'),
      macAddress: str('macAddress'),
      deviceTypeId:
        typeof given.deviceTypeId === 'number' ? given.deviceTypeId : inHeader('deviceTypeId') ? null : undefined,
      customSipHeader_1: str('customSipHeader_1'),
      customSipHeader_2: str('customSipHeader_2'),
    };
  }
  return { line: out, warnings };
}
