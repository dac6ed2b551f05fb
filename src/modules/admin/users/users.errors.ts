// Errors of the users module (codes kept from the first catalogue).
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const usersErrors = {
  INVALID_ROLES: { status: 400, code: 400003, message: 'Bad Request: roles must be a list of known role names' },
  SITE_REQUIRED: {
    status: 400,
    code: 400004,
    message: 'Bad Request: a site_admin needs a siteId of a site of his company',
  },
  ROLE_NOT_ASSIGNABLE: {
    status: 403,
    code: 403002,
    message: 'Forbidden: you cannot give a role you do not administer',
  },
  CANNOT_DELETE_SELF: { status: 403, code: 403003, message: 'Forbidden: you cannot delete your own account' },
  LAST_SUPERADMIN: { status: 403, code: 403004, message: 'Forbidden: the last superadmin cannot be removed' },
  LOGIN_EMAIL_TAKEN: { status: 409, code: 409001, message: 'Conflict: this loginEmail is already used' },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof usersErrors, true> {}
}
