// Errors of the Organisations module (document 3, Organisations): n = 200..249.
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const organisationsErrors = {
  ORGANISATION_SYSTEM_COMPANY: {
    status: 403,
    code: 403200,
    message: 'Forbidden: the Default and Terminated companies cannot be linked to an organisation',
  },
  ORGANISATION_COMPANY_IN_OTHER: {
    status: 409,
    code: 409200,
    message: 'Conflict: the company already belongs to another organisation; unlink it from that one first',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof organisationsErrors, true> {}
}
