// Hierarchy (issue 28, point 2): organisations, BPs, End Customers, sites and users.
import { lazyPage, type Area } from '../../areas.ts';

export const hierarchy: Area = {
  label: 'Hierarchy',
  nav: [
    {
      to: '/companies',
      label: 'Companies',
      roles: ['superadmin', 'support', 'business_admin', 'bp_admin', 'bp_finance', 'organization_admin'],
    },
  ],
  routes: [{ path: 'companies', ...lazyPage(() => import('./CompaniesPage.tsx')) }],
};
