// Policy of billing: quotations (document 1, create a quotation, rule 1); the invoices
// and billing runs join this table.
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';
import { quoters } from './quotations.policy.ts';

/**
 * Document 1, list invoices: "superadmin any company; bp_finance its own BP company; bp_finance
 * who is also organization_admin all companies of the organisation". The PDF download: the same.
 */
const invoiceReaders = [
  grant('superadmin', 'any'),
  grant('bp_finance', 'ownCompany'),
  grant(['bp_finance', 'organization_admin'], 'companyOfOwnOrganisation'),
];

/**
 * Document 1, invoicing module: "superadmin, bp_finance, admin" (docs/decisions.md, Invoicing
 * files): the files are the invoiced BP's; bp_finance and bp_admin read their own company's,
 * company_admin his company's, organization_admin those of the organisation's companies.
 */
const invoicingFileReaders = [
  grant('superadmin', 'any'),
  grant('bp_finance', 'ownCompany'),
  grant('bp_admin', 'ownCompany'),
  grant('company_admin', 'ownCompany'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
];

export const billingPolicy: Record<string, PolicyEntry> = {
  createQuotation: grants(quoters),
  listInvoices: grants(invoiceReaders),
  downloadInvoiceFile: grants(invoiceReaders),
  // Route table +: a superadmin invoices a period now (the monthly schedule does it otherwise).
  runBilling: grants([grant('superadmin', 'any')]),
  listInvoicingFiles: grants(invoicingFileReaders),
  downloadInvoicingFile: grants(invoicingFileReaders),
};
