// Billing (issue 28, point 3): invoices, their PDF and the invoicing files. The menu shows to those
// who read either (src/modules/billing/billing.policy.ts; roles.ts here).
import { lazyPage, type Area } from '../../areas.ts';
import { FILE_READERS } from './roles.ts';

export const billing: Area = {
  label: 'Billing',
  nav: [{ to: '/invoices', label: 'Invoices', roles: FILE_READERS, also: ['/companies/:companyId/invoices'] }],
  routes: [
    { path: 'invoices', ...lazyPage(() => import('./InvoicesMenuPage.tsx')) },
    { path: 'companies/:companyId/invoices', ...lazyPage(() => import('./CompanyInvoicesPage.tsx')) },
  ],
};
