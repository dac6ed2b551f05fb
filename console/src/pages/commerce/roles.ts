// Who may do what in commerce, from the service's policy (src/modules/commerce/commerce.policy.ts,
// src/modules/billing/quotations.policy.ts). The service decides; these lists only hide buttons
// that would certainly be refused (issue 28, point 1).
import type { Role } from '../../auth/roles.ts';

/** Catalogs and offers: superadmin manages, support reads (commercePolicy: manageGrants, readGrants). */
export const CATALOG_READERS: readonly Role[] = ['superadmin', 'support'];
export const CATALOG_MANAGERS: Role[] = ['superadmin'];

/** Document 1, list subscriptions: those who oversee the company (companyOverseers). */
export const SUBSCRIPTION_READERS: readonly Role[] = [
  'superadmin',
  'support',
  'business_admin',
  'bp_admin',
  'bp_finance',
  'organization_admin',
  'company_admin',
];

/** Document 1, create a subscription, rules 3 to 6 (buyers): other admins are denied. */
export const BUYERS: Role[] = ['superadmin', 'business_admin', 'bp_finance'];
/** Document 1, update a subscription, rule 4: the buyers and the company's own company_admin. */
export const RESIZERS: Role[] = [...BUYERS, 'company_admin'];
/** Document 1, create a quotation, rule 1: "only superadmin and bp_finance may quote". */
export const QUOTERS: Role[] = ['superadmin', 'bp_finance'];
/** Licences (commercePolicy: licenceGrants): the user's administrators and the BP's bp_finance. */
export const LICENCE_MANAGERS: Role[] = ['superadmin', 'bp_admin', 'organization_admin', 'company_admin', 'bp_finance'];
/** Roles that may list companies, and so choose one in the company picker (listCompanies). */
export const COMPANY_LISTERS: Role[] = [
  'superadmin',
  'support',
  'business_admin',
  'bp_admin',
  'bp_finance',
  'organization_admin',
];
