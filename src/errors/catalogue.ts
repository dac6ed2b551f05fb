// The one error catalogue: every failure the service reports has a key here with its HTTP
// status, its errorDetailsCode and its message. Codes from the specification keep their value
// (401523, 409553, 43709); the project's own codes are six digits: status * 1000 + n.

export interface ErrorEntry {
  status: number;
  code: number;
  message: string;
}

export const ERRORS = {
  // 400
  VALIDATION_FAILED: { status: 400, code: 400000, message: 'Bad Request: the request does not match the operation schema' },
  MALFORMED_JSON: { status: 400, code: 400001, message: 'Bad Request: the body is not valid JSON' },
  WEAK_PASSWORD: { status: 400, code: 400002, message: 'Bad Request: the password needs at least 8 characters with an upper case letter, a lower case letter, a digit and a special character' },
  INVALID_ROLES: { status: 400, code: 400003, message: 'Bad Request: roles must be a list of known role names' },
  SITE_REQUIRED: { status: 400, code: 400004, message: 'Bad Request: a site_admin needs a siteId of a site of his company' },
  UNKNOWN_REFERENCE: { status: 400, code: 400005, message: 'Bad Request: a referenced resource does not exist' },
  INVALID_REDIRECT_URI: { status: 400, code: 400006, message: 'Bad Request: redirect URIs must be absolute https URLs (http only for loopback)' },
  OAUTH_INVALID_REQUEST: { status: 400, code: 400007, message: 'Bad Request: the OAuth authorization request is invalid' },
  OAUTH_INVALID_CLIENT: { status: 400, code: 400008, message: 'Bad Request: unknown or inactive OAuth client, or redirect_uri not registered for it' },
  OAUTH_INVALID_GRANT: { status: 400, code: 400009, message: 'Bad Request: the authorization code or refresh token is invalid, expired or already used' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 415000, message: 'Unsupported Media Type' },
  // 401
  AUTH_REQUIRED: { status: 401, code: 401500, message: 'Unauthorized: credentials are missing' },
  BAD_CREDENTIALS: { status: 401, code: 401501, message: 'Unauthorized: the login or the password is wrong' },
  TOKEN_INVALID: { status: 401, code: 401520, message: 'Unauthorized: the token is invalid' },
  TOKEN_REVOKED: { status: 401, code: 401521, message: 'Unauthorized: the token has been revoked' },
  TOKEN_EXPIRED: { status: 401, code: 401523, message: 'Unauthorized: the token has expired' },
  BAD_APP_PROOF: { status: 401, code: 401530, message: 'Unauthorized: the application proof is wrong' },
  OAUTH_CLIENT_AUTH_FAILED: { status: 401, code: 401540, message: 'Unauthorized: the OAuth client credentials (Basic appId:appSecret) are missing or wrong' },
  // 403
  API_KEY_NOT_ALLOWED: { status: 403, code: 403000, message: 'Not Allowed' },
  FORBIDDEN: { status: 403, code: 403001, message: 'Forbidden: your roles do not allow this operation on this resource' },
  ROLE_NOT_ASSIGNABLE: { status: 403, code: 403002, message: 'Forbidden: you cannot give a role you do not administer' },
  CANNOT_DELETE_SELF: { status: 403, code: 403003, message: 'Forbidden: you cannot delete your own account' },
  LAST_SUPERADMIN: { status: 403, code: 403004, message: 'Forbidden: the last superadmin cannot be removed' },
  // 404
  NOT_FOUND: { status: 404, code: 404000, message: 'Resource not found' },
  ROUTE_NOT_FOUND: { status: 404, code: 404001, message: 'Route not found' },
  // 409
  CONFLICT: { status: 409, code: 409000, message: 'Conflict: the resource already exists' },
  LOGIN_EMAIL_TAKEN: { status: 409, code: 409001, message: 'Conflict: this loginEmail is already used' },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, code: 409002, message: 'Conflict: a request with this Idempotency-Key is still running' },
  // 413, 422, 429
  BODY_TOO_LARGE: { status: 413, code: 413000, message: 'Payload Too Large' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, code: 422000, message: 'Unprocessable: this Idempotency-Key was used with another request body' },
  TOO_MANY_LOGIN_FAILURES: { status: 429, code: 429000, message: 'Too Many Requests: too many failed logins, retry later' },
  // 500
  INTERNAL: { status: 500, code: 500000, message: 'Internal Server Error' },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorKey = keyof typeof ERRORS;

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
  errorDetails: Record<string, unknown> | string;
  errorDetailsCode: number;
}

export function errorBody(key: ErrorKey, details?: Record<string, unknown> | string): ErrorBody {
  const e = ERRORS[key];
  return { errorCode: e.status, errorMsg: e.message, errorDetails: details ?? {}, errorDetailsCode: e.code };
}
