// Bulk import (issue 28, point 5): templates, check, import, reports.
import { lazyPage, type Area } from '../../areas.ts';
import { rolesFor, type Role } from '../../auth/roles.ts';

/**
 * Who may import (src/modules/imports/imports.policy.ts, issue 27, point 10): the superadmin into
 * any company, a bp_admin into its End Customers, an organization_admin into its organisation's
 * companies, a company_admin into his own; the reports are read by the same roles.
 */
export const IMPORTERS: readonly Role[] = rolesFor('listImports');

export const imports: Area = {
  label: 'Bulk import',
  nav: [{ to: '/imports', label: 'Import a CSV', roles: IMPORTERS }],
  routes: [
    { path: 'imports', ...lazyPage(() => import('./ImportPage.tsx')) },
    // An import is known by its reqId (document 3, rule 1: the hash of its CSV data), which every
    // import answers; a commandId is optional and names only the last result of a command.
    { path: 'imports/:reqId', ...lazyPage(() => import('./ImportProgressPage.tsx')) },
  ],
};
