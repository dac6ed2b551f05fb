// Who may do what in commerce, from the service's policy (src/modules/commerce/commerce.policy.ts,
// src/modules/billing/quotations.policy.ts). The service decides; these lists only hide buttons
// that would certainly be refused (issue 28, point 1).
import { rolesFor, type Role } from '../../auth/roles.ts';

/** Catalogs and offers: superadmin manages, support reads (commercePolicy: manageGrants, readGrants). */
export const CATALOG_READERS: readonly Role[] = rolesFor('listCatalogs');
export const CATALOG_MANAGERS: readonly Role[] = rolesFor('createCatalog');

/** Document 1, list subscriptions: those who oversee the company (companyOverseers). */
export const SUBSCRIPTION_READERS: readonly Role[] = rolesFor('listSubscriptions');

/** Document 1, create a subscription, rules 3 to 6 (buyers): other admins are denied. */
export const BUYERS: readonly Role[] = rolesFor('createSubscription');
/** Document 1, update a subscription, rule 4: the buyers and the company's own company_admin. */
export const RESIZERS: readonly Role[] = rolesFor('updateSubscription');
/** Document 1, create a quotation, rule 1: "only superadmin and bp_finance may quote". */
export const QUOTERS: readonly Role[] = rolesFor('createQuotation');
/** Licences (commercePolicy: licenceGrants): the user's administrators and the BP's bp_finance. */
export const LICENCE_MANAGERS: readonly Role[] = rolesFor('assignUserLicence');
