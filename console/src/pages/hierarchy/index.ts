// Hierarchy (issue 28, point 2): organisations, BPs, End Customers, sites and users. The menu
// entries follow the policies of src/modules/admin (roles.ts in this folder).
import { lazyPage, type Area } from '../../areas.ts';
import { COMPANY_LIST_ROLES, ORGANISATION_READ_ROLES, OWN_COMPANY_ROLES, USER_READ_ROLES } from './roles.ts';

export const hierarchy: Area = {
  label: 'Hierarchy',
  nav: [
    { to: '/organisations', label: 'Organisations', roles: ORGANISATION_READ_ROLES },
    { to: '/companies', label: 'Companies', roles: COMPANY_LIST_ROLES },
    { to: '/my-company', label: 'My company', roles: OWN_COMPANY_ROLES },
    { to: '/users', label: 'Users', roles: USER_READ_ROLES },
  ],
  routes: [
    { path: 'organisations', ...lazyPage(() => import('./organisations/OrganisationsPage.tsx')) },
    { path: 'organisations/:organisationId', ...lazyPage(() => import('./organisations/OrganisationPage.tsx')) },
    { path: 'companies', ...lazyPage(() => import('./CompaniesPage.tsx')) },
    { path: 'companies/new', ...lazyPage(() => import('./NewCompanyPage.tsx')) },
    { path: 'companies/:companyId', ...lazyPage(() => import('./company/CompanyPage.tsx')) },
    { path: 'companies/:companyId/sites/:siteId', ...lazyPage(() => import('./company/SitePage.tsx')) },
    { path: 'my-company', ...lazyPage(() => import('./company/MyCompanyPage.tsx')) },
    { path: 'users', ...lazyPage(() => import('./users/UsersPage.tsx')) },
    { path: 'users/new', ...lazyPage(() => import('./users/NewUserPage.tsx')) },
    { path: 'users/:userId', ...lazyPage(() => import('./users/UserPage.tsx')) },
  ],
};
