// Errors of the applications module (codes kept from the first catalogue).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const applicationsErrors = {
  INVALID_REDIRECT_URI: {
    status: 400,
    code: 400006,
    message: 'Bad Request: redirect URIs must be absolute https URLs (http only for loopback)',
  },
  // The console is an application of the service (issue 28, point 1): changing its redirect path,
  // disabling, renewing (it has no secret) or deleting it would break the console.
  APPLICATION_BUILT_IN: {
    status: 403,
    code: 403010,
    message: 'Forbidden: this application is built into the service and cannot be changed or deleted',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof applicationsErrors, true> {}
}
