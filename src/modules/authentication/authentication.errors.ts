// Errors of the authentication module (codes kept from the first catalogue).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const authenticationErrors = {
  OAUTH_INVALID_REQUEST: {
    status: 400,
    code: 400007,
    message: 'Bad Request: the OAuth authorization request is invalid',
  },
  OAUTH_INVALID_CLIENT: {
    status: 400,
    code: 400008,
    message: 'Bad Request: unknown or inactive OAuth client, or redirect_uri not registered for it',
  },
  OAUTH_INVALID_GRANT: {
    status: 400,
    code: 400009,
    message: 'Bad Request: the authorization code or refresh token is invalid, expired or already used',
  },
  BAD_CREDENTIALS: { status: 401, code: 401501, message: 'Unauthorized: the login or the password is wrong' },
  BAD_APP_PROOF: { status: 401, code: 401530, message: 'Unauthorized: the application proof is wrong' },
  OAUTH_CLIENT_AUTH_FAILED: {
    status: 401,
    code: 401540,
    message: 'Unauthorized: the OAuth client credentials (Basic appId:appSecret) are missing or wrong',
  },
  TOO_MANY_LOGIN_FAILURES: {
    status: 429,
    code: 429000,
    message: 'Too Many Requests: too many failed logins, retry later',
  },
  TOO_MANY_CLIENT_FAILURES: {
    status: 429,
    code: 429002,
    message: 'Too Many Requests: too many failed client authentications, retry later',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof authenticationErrors, true> {}
}
