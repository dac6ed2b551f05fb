// The one error catalogue: every failure the service reports has a key here with its HTTP
// status, its errorDetailsCode and its message. Codes from the specification keep their value
// (401523, 409553, 43709); the project's own codes are six digits: status * 1000 + n.

export interface ErrorEntry {
  status: number;
  code: number;
  message: string;
}

const PLATFORM_ERRORS = {
  // 400
  VALIDATION_FAILED: {
    status: 400,
    code: 400000,
    message: 'Bad Request: the request does not match the operation schema',
  },
  MALFORMED_JSON: { status: 400, code: 400001, message: 'Bad Request: the body is not valid JSON' },
  WEAK_PASSWORD: {
    status: 400,
    code: 400002,
    message:
      'Bad Request: the password needs at least 8 characters with an upper case letter, a lower case letter, a digit and a special character',
  },
  UNKNOWN_REFERENCE: {
    status: 400,
    code: 400005,
    message: 'Bad Request: a referenced resource does not exist, or may not be referenced here',
  },
  EMPTY_BODY: { status: 400, code: 400010, message: 'Bad Request: the request body is empty' },
  MULTIPART_MALFORMED: {
    status: 400,
    code: 400011,
    message: 'Bad Request: the multipart/form-data body is malformed or holds no file',
  },
  // What the HTTP layer refuses before any operation runs (docs/security.md, Input: no request breaks it); no
  // input is echoed back.
  MALFORMED_REQUEST: { status: 400, code: 400020, message: 'Bad Request: the HTTP request is malformed' },
  BAD_URL: { status: 400, code: 400021, message: 'Bad Request: the URL is not validly percent-encoded' },
  JSON_TOO_COMPLEX: {
    status: 400,
    code: 400022,
    message: 'Bad Request: the JSON body is nested too deeply or a list or object in it has too many members',
  },
  REQUEST_TIMEOUT: { status: 408, code: 408000, message: 'Request Timeout: the request was not received in time' },
  URI_TOO_LONG: {
    status: 414,
    code: 414000,
    message: 'URI Too Long: a path segment is longer than the service accepts',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    code: 431000,
    message: 'Request Header Fields Too Large: the request line and headers exceed 16 KB',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    code: 415000,
    message: 'Unsupported Media Type: the operation does not take a body of this type',
  },
  RANGE_NOT_SATISFIABLE: { status: 416, code: 416000, message: 'Range Not Satisfiable: the range is outside the file' },
  // 401
  AUTH_REQUIRED: { status: 401, code: 401500, message: 'Unauthorized: credentials are missing' },
  TOKEN_INVALID: { status: 401, code: 401520, message: 'Unauthorized: the token is invalid' },
  TOKEN_REVOKED: { status: 401, code: 401521, message: 'Unauthorized: the token has been revoked' },
  TOKEN_EXPIRED: { status: 401, code: 401523, message: 'Unauthorized: the token has expired' },
  // 403
  API_KEY_NOT_ALLOWED: { status: 403, code: 403000, message: 'Not Allowed' },
  FORBIDDEN: {
    status: 403,
    code: 403001,
    message: 'Forbidden: your roles do not allow this operation on this resource',
  },
  // 404
  NOT_FOUND: { status: 404, code: 404000, message: 'Resource not found' },
  ROUTE_NOT_FOUND: { status: 404, code: 404001, message: 'Route not found' },
  // 409
  CONFLICT: { status: 409, code: 409000, message: 'Conflict: the resource already exists' },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    code: 409002,
    message: 'Conflict: a request with this Idempotency-Key is still running',
  },
  // 413, 422, 429
  BODY_TOO_LARGE: { status: 413, code: 413000, message: 'Payload Too Large' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    code: 422000,
    message: 'Unprocessable: this Idempotency-Key was used with another request body',
  },
  TOO_MANY_REQUESTS: {
    status: 429,
    code: 429001,
    message: 'Too Many Requests: this client sent too many requests, retry later',
  },
  // 500, 503
  INTERNAL: { status: 500, code: 500000, message: 'Internal Server Error' },
  SHUTTING_DOWN: {
    status: 503,
    code: 503000,
    message: 'Service Unavailable: this instance is shutting down, retry on another',
  },
} as const satisfies Record<string, ErrorEntry>;

/**
 * The error keys of the modules. Each module declares its errors in its own file and adds their
 * keys here by declaration merging (see src/modules/module.ts, `ModuleErrors<typeof errors>`), so
 * `fail()` is typed with every key while the catalogue is assembled from the modules at start.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules (declaration merging)
export interface ModuleErrorKeys {}

export type ErrorKey = keyof typeof PLATFORM_ERRORS | keyof ModuleErrorKeys;

/**
 * The one catalogue: the platform's errors and every installed module's, keyed by ErrorKey (keyed
 * by text: the modules add theirs at start, each refused if already there).
 */
export const ERRORS: Record<string, ErrorEntry> = { ...PLATFORM_ERRORS };

/** Adds a module's errors to the catalogue; a key or an errorDetailsCode used twice is refused. */
export function registerErrors(owner: string, errors: Record<string, ErrorEntry>): void {
  const codes = new Map(Object.entries(ERRORS).map(([k, e]) => [e.code, k]));
  for (const [key, entry] of Object.entries(errors)) {
    if (key in ERRORS) throw new Error(`error ${key} of ${owner} is declared twice`);
    const other = codes.get(entry.code);
    if (other) throw new Error(`errorDetailsCode ${entry.code} of ${key} (${owner}) is already ${other}'s`);
    ERRORS[key] = entry;
    codes.set(entry.code, key);
  }
}

/** Services throw by key; the error handler renders the body of document 1. */
export class AppError extends Error {
  readonly key: ErrorKey;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(key: ErrorKey, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(ERRORS[key].message);
    this.key = key;
    this.details = details;
    this.headers = headers;
  }
}

export function fail(key: ErrorKey, details?: Record<string, unknown>, headers?: Record<string, string>): never {
  throw new AppError(key, details, headers);
}

export interface ErrorBody {
  errorCode: number;
  errorMsg: string;
  /** Always an object (document 1, Errors); `{}` when there is nothing to add. */
  errorDetails: Record<string, unknown>;
  errorDetailsCode: number;
}

export function errorBody(key: ErrorKey, details?: Record<string, unknown>): ErrorBody {
  const e = ERRORS[key];
  return { errorCode: e.status, errorMsg: e.message, errorDetails: details ?? {}, errorDetailsCode: e.code };
}
