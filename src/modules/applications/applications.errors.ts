// Errors of the applications module (codes kept from the first catalogue).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const applicationsErrors = {
  INVALID_REDIRECT_URI: {
    status: 400,
    code: 400006,
    message: 'Bad Request: redirect URIs must be absolute https URLs (http only for loopback)',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof applicationsErrors, true> {}
}
