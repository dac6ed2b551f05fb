// Errors of the Sites module (document 3, Sites): n = 250..299.
import type { ErrorEntry } from '../../../errors/catalogue.ts';

export const sitesErrors = {
  SITE_MOVE_NOT_ALLOWED: {
    status: 403,
    code: 403250,
    message:
      "Forbidden: only a bp_admin or an administrator of the site's organisation may move a site to another company",
  },
  SITE_LINKED_TO_SYSTEMS: {
    status: 409,
    code: 409250,
    message: 'Conflict: the site is still linked to systems; unlink them first',
  },
  SITE_HAS_SITE_ADMINS: {
    status: 409,
    code: 409251,
    message:
      'Conflict: site administrators are attached to the site; give them another site or remove their role first',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof sitesErrors, true> {}
}
