// The errors of one CSV line (document 3: "the full lists of supported user and device fields and
// of import error codes: not shown"; issue 27, point 4: every line error has a documented numeric
// code and a message naming the column). They are not HTTP answers: they are the `error {code,
// message}` of the line's report. An operation the line runs (createUser, createSubscriber...)
// that refuses gives its own catalogue code and message instead (six digits, docs/errors.md).
// The table is README's "Line errors of the bulk import".

export const LINE_ERRORS = {
  // 1xxx: reading the line.
  NOT_UTF8: { code: 1001, message: 'the line is not UTF-8 text (a byte that is no UTF-8, or a NUL character)' },
  FIELD_COUNT: { code: 1002, message: 'the line has {found} fields where the header names {expected}' },
  MALFORMED_QUOTE: { code: 1003, message: 'a quote is not closed, or text follows a closing quote' },
  VALUE_INVALID: { code: 1004, message: 'column {column}: {reason}' },
  LOGIN_MISSING: { code: 1005, message: 'column loginEmail: a login e-mail is required on every line' },
  ACTION_UNKNOWN: { code: 1006, message: 'column __action__: {value} is none of upsert, sync, delete, detach' },
  LOGIN_REPEATED: { code: 1007, message: 'column loginEmail: this login is on line {first} already' },
  ACTION_NOT_IN_MODE: { code: 1008, message: 'column __action__: {value} has no meaning in {mode} mode' },
  // 11xx: the user of the line.
  LOGIN_OF_OTHER_COMPANY: { code: 1101, message: 'column loginEmail: a user of another company signs in with it' },
  USER_NOT_FOUND: { code: 1102, message: 'column loginEmail: no user of the company signs in with it' },
  USER_NOT_MANAGEABLE: { code: 1103, message: 'column loginEmail: the user holds a role above those you may manage' },
  CANNOT_DELETE_SELF: { code: 1104, message: 'column loginEmail: you cannot delete your own account' },
  PASSWORD_WEAK: {
    code: 1105,
    message: 'column password: 8 to 256 characters with upper case, lower case, a digit and a special character',
  },
  TEMPLATE_UNKNOWN: {
    code: 1106,
    message: 'column selectedAppCustomisationTemplateName: no customisation template has that name',
  },
  // 2xxx: the voice of the line (its CloudPBX subscriber, DDI number and SIP device).
  SUBSCRIBER_REQUIRED: { code: 2011, message: 'column macAddress: the user is not a subscriber of the CloudPBX' },
  SHORT_NUMBER_REFUSED: { code: 2012, message: 'column shortNumber: {reason}' },
  DDI_REFUSED: { code: 2013, message: 'column ddiE164Number: {reason}' },
  DEVICE_REFUSED: { code: 2014, message: 'column macAddress: {reason}' },
  SIP_HEADER_REFUSED: { code: 2015, message: 'column {column}: {reason}' },
  // 3xxx: the PBX extension of the line (a telephone system's phone number).
  EXTENSION_NOT_FOUND: {
    code: 3001,
    message: 'column {column}: no phone number of a telephone system of the company has this number',
  },
  EXTENSION_AMBIGUOUS: {
    code: 3002,
    message:
      'column {column}: several telephone systems of the company have this number; give pbxShortNumber and pbxInternalNumber',
  },
  EXTENSION_NOT_ATTACHED: { code: 3003, message: 'the user has no PBX extension to detach' },
  // 9xxx: the service.
  LINE_FAILED: { code: 9001, message: 'the line could not be applied: {reason}' },
  // (Appended by the voice and device parts of a line: voice-lines.ts.)
  NOT_SUBSCRIBER: {
    code: 2016,
    message: 'column {column}: the user is not a subscriber of the CloudPBX; give a shortNumber to make him one',
  },
  SUBSCRIBER_NOT_FOUND: { code: 2017, message: 'the user is not a subscriber of the CloudPBX: nothing to detach' },
  CLOUDPBX_MISSING: { code: 2018, message: 'column {column}: the company has no CloudPBX' },
} as const;

export type LineErrorKey = keyof typeof LINE_ERRORS;

export interface LineError {
  code: number;
  message: string;
}

/** The `{code, message}` of a line error, its message filled with `values`. */
export function lineError(key: LineErrorKey, values: Record<string, string | number> = {}): LineError {
  const e = LINE_ERRORS[key];
  return { code: e.code, message: e.message.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? k)) };
}
