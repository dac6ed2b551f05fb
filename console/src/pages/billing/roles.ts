// Who reads invoices and invoicing files, from the service's policy
// (src/modules/billing/billing.policy.ts). The service decides; these lists only hide what would
// certainly be refused (issue 28, point 1).
import { rolesFor, type Role } from '../../auth/roles.ts';

/** Document 1, list invoices and their PDF: superadmin; bp_finance (own BP, or with organization_admin the organisation's). */
export const INVOICE_READERS: readonly Role[] = rolesFor('listInvoices');
/** Document 1, invoicing module (invoicingFileReaders): the invoiced BP's administrators too. */
export const FILE_READERS: readonly Role[] = rolesFor('listInvoicingFiles');
