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
  TOO_MANY_REQUESTS: { status: 429, code: 429001, message: 'Too Many Requests: this client sent too many requests, retry later' },
  // 500
  INTERNAL: { status: 500, code: 500000, message: 'Internal Server Error' },
  // Companies module (document 3, Companies): n = 100..199.
  COMPANY_COUNTRY_UNKNOWN: { status: 400, code: 400101, message: 'Bad Request: country must be an ISO 3166-1 alpha-3 code of GET /enduser/v1.0/countries' },
  COMPANY_STATE_INVALID: { status: 400, code: 400102, message: 'Bad Request: state is required for USA (a US state code) and CAN (a province code), and must be empty for other countries' },
  COMPANY_DATA_LOCATION_FIXED: { status: 400, code: 400103, message: 'Bad Request: the country (data location) of a company cannot change after creation' },
  COMPANY_CREATE_ONLY_FIELD: { status: 400, code: 400104, message: 'Bad Request: privateDC is set at creation only' },
  COMPANY_NOT_BP: { status: 400, code: 400105, message: 'Bad Request: allowPhoneNumbersVisibility is for BP companies only' },
  COMPANY_BP_INVALID: { status: 400, code: 400106, message: 'Bad Request: bpId must name a BP company (isBP true), other than the company itself' },
  COMPANY_STATUS_NOT_SETTABLE: { status: 400, code: 400107, message: 'Bad Request: status terminated is reached by deleting the company' },
  COMPANY_OWN_NOT_FROM_DEFAULT: { status: 403, code: 403101, message: 'Forbidden: only users of the Default company create their own company' },
  COMPANY_SUPERADMIN_FIELD: { status: 403, code: 403102, message: 'Forbidden: only a superadmin sets these company fields' },
  COMPANY_SYSTEM_PROTECTED: { status: 403, code: 403103, message: 'Forbidden: the Default and Terminated companies cannot be deleted' },
  COMPANY_CUSTOM_DATA_NOT_ALLOWED: { status: 403, code: 403104, message: 'Forbidden: adminCanSetCustomData is false for this company' },
  COMPANY_NAME_RESERVED: { status: 409, code: 409101, message: 'Conflict: the names Default and Terminated are reserved' },
  COMPANY_SYSTEM_RENAME: { status: 409, code: 409102, message: 'Conflict: the Default and Terminated companies cannot be renamed' },
  COMPANY_CENTREX_HAS_SITES: { status: 409, code: 409103, message: 'Conflict: isCentrex cannot change once sites exist for the company' },
  COMPANY_HAS_SUBSCRIPTIONS: { status: 409, code: 409104, message: 'Conflict: the company still has active subscriptions other than the default one' },
  // Organisations module (document 3, Organisations): n = 200..249.
  ORGANISATION_SYSTEM_COMPANY: { status: 403, code: 403200, message: 'Forbidden: the Default and Terminated companies cannot be linked to an organisation' },
  ORGANISATION_COMPANY_IN_OTHER: { status: 409, code: 409200, message: 'Conflict: the company already belongs to another organisation; unlink it from that one first' },
  // Sites module (document 3, Sites): n = 250..299.
  SITE_MOVE_NOT_ALLOWED: { status: 403, code: 403250, message: 'Forbidden: only a bp_admin or an administrator of the site\'s organisation may move a site to another company' },
  SITE_LINKED_TO_SYSTEMS: { status: 409, code: 409250, message: 'Conflict: the site is still linked to systems; unlink them first' },
  SITE_HAS_SITE_ADMINS: { status: 409, code: 409251, message: 'Conflict: site administrators are attached to the site; give them another site or remove their role first' },
  // Join module (join-company links, self-registration, join invitations): n = 300..399.
  JOIN_LINK_EXPIRATION_IN_PAST: { status: 400, code: 400300, message: 'Bad Request: expirationDate of a join-company link must be in the future' },
  JOIN_INVITATION_NO_ROLE_FOR_COMPANY: { status: 400, code: 400301, message: 'Bad Request: bp_admin and bp_finance invitations are only for BP companies' },
  JOIN_LINK_DISABLED: { status: 403, code: 403300, message: 'Forbidden: this join-company link is disabled' },
  JOIN_LINK_EXPIRED: { status: 403, code: 403301, message: 'Forbidden: this join-company link has expired' },
  JOIN_LINK_FULL: { status: 403, code: 403302, message: 'Forbidden: this join-company link has registered its maximum number of users' },
  SELF_REGISTER_DISABLED: { status: 403, code: 403303, message: 'Forbidden: self-registration is disabled for this company' },
  SELF_REGISTER_DOMAIN_NOT_ALLOWED: { status: 403, code: 403304, message: 'Forbidden: the domain of this e-mail is not allowed to self-register in this company' },
  JOIN_INVITATION_EXPIRED: { status: 403, code: 403305, message: 'Forbidden: this join invitation has expired' },
  JOIN_LINK_NOT_FOUND: { status: 404, code: 404300, message: 'Not Found: no such join-company link' },
  JOIN_INVITATION_NOT_FOUND: { status: 404, code: 404301, message: 'Not Found: no such join invitation, or the token is wrong' },
  JOIN_INVITATION_USED: { status: 409, code: 409300, message: 'Conflict: this join invitation has already been accepted' },
  JOIN_INVITATION_EMAIL_TAKEN: { status: 409, code: 409301, message: 'Conflict: a user with this e-mail already exists' },
  // Branding module (company avatar and banner): n = 400..449.
  IMAGE_FORMAT_UNSUPPORTED: { status: 400, code: 400400, message: 'Bad Request: the image must be a readable PNG, JPEG or WebP file, base64-encoded' },
  IMAGE_DIMENSIONS_TOO_LARGE: { status: 400, code: 400401, message: 'Bad Request: the image is wider or higher than allowed' },
  SYSTEM_COMPANY_IMAGE: { status: 403, code: 403400, message: 'Forbidden: only a superadmin handles the avatar and banner of the Default and Terminated companies' },
  IMAGE_NOT_SET: { status: 404, code: 404400, message: 'Not Found: this company has no such image' },
  IMAGE_TOO_LARGE: { status: 413, code: 413400, message: 'Payload Too Large: the image file is larger than allowed' },
  // Customisation module (customisation keys, templates, feature customisation, service description): n = 450..499.
  CUSTOMISATION_TARGET_REQUIRED: { status: 400, code: 400450, message: 'Bad Request: give either companyId or userId, not both' },
  CUSTOMISATION_TEMPLATE_REQUIRED: { status: 400, code: 400451, message: 'Bad Request: give either templateId or templateName, not both' },
  CUSTOMISATION_TEMPLATE_NOT_FOUND: { status: 404, code: 404450, message: 'Not Found: no such customisation template' },
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
