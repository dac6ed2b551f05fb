// Invoice reads (document 1, list invoices, download an invoice file) and invoicing files.
import type { SQL } from 'drizzle-orm';
import { create as contentDisposition } from 'content-disposition';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import type { Static } from 'typebox';
import type { ListResult } from '../../http/operation.ts';
import type { Page } from '../../http/paging.ts';
import type { Invoice, InvoicingFile } from './invoices.schemas.ts';
import * as repo from './invoices.repo.ts';
import type { CompanyFacts } from '../admin/companies/companies.api.ts';

/** What the invoice reads know of the target company (companies' facts). */
type InvoicedCompany = Pick<CompanyFacts, 'id' | 'isBP' | 'bpType'>;

/** Document 1: "Only BP DR and BP VAD companies have invoices; for other companies an error is returned". */
function mustBeInvoiced(company: InvoicedCompany): void {
  if (!company.isBP || (company.bpType !== 'DR' && company.bpType !== 'VAD'))
    fail('INVOICES_BP_ONLY', { companyId: company.id, bpType: company.bpType });
}

const num = (s: string) => Number(s);

export async function listInvoices(
  db: Executor,
  company: InvoicedCompany,
  full: boolean,
  page?: Page,
): Promise<ListResult<Static<typeof Invoice>>> {
  mustBeInvoiced(company);
  const rows = await repo.companyInvoices(db, company.id, full, page);
  const items = rows.map(({ invoice: i, items }) => ({
    id: i.id,
    accountId: i.accountId,
    accountNumber: i.accountNumber,
    accountName: i.accountName,
    invoiceDate: i.invoiceDate,
    dueDate: i.dueDate,
    invoiceTargetDate: i.invoiceTargetDate,
    invoiceNumber: i.invoiceNumber,
    amount: num(i.amount),
    amountWithoutTax: num(i.amountWithoutTax),
    taxAmount: num(i.taxAmount),
    balance: num(i.balance),
    creditBalanceAdjustmentAmount: num(i.creditBalanceAdjustmentAmount),
    createdBy: i.createdBy,
    status: i.status,
    currency: i.currency,
    billingPeriod: i.billingPeriod,
    body: i.body,
    invoiceFiles: i.invoiceFiles,
    updatedDate: i.updatedAt.toISOString(),
    invoiceItems: items.map((it) => ({
      id: it.id,
      subscriptionName: it.subscriptionName,
      subscriptionId: it.subscriptionId,
      chargeDescription: it.chargeDescription,
      chargeName: it.chargeName,
      chargeId: it.chargeId,
      productName: it.productName,
      unitOfMeasure: it.unitOfMeasure,
      serviceStartDate: it.serviceStartDate,
      serviceEndDate: it.serviceEndDate,
      chargeAmount: num(it.chargeAmount),
      taxAmount: num(it.taxAmount),
      quantity: it.quantity,
      chargeDate: it.chargeDate,
      chargeType: it.chargeType,
      processingType: it.processingType,
      calculation: it.calculation,
      taxRate: it.taxRate,
    })),
  }));
  // Without a page: the whole list, as document 1 answers it (total = limit = its length).
  if (!page) return { items, total: items.length, limit: items.length, offset: 0 };
  return { items, total: await repo.countCompanyInvoices(db, company.id), ...page };
}

export async function invoiceFile(db: Executor, company: InvoicedCompany, fileId: string) {
  mustBeInvoiced(company);
  const file = await repo.invoiceFile(db, company.id, fileId);
  if (!file) fail('INVOICE_FILE_NOT_FOUND', { fileId });
  return file;
}

/** The PDF itself when the client asks for it and not for JSON; JSON (document 1's `{Invoice}`) otherwise. */
export function wantsPdf(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  return types.includes('application/pdf') && !types.includes('application/json');
}

export const attachment = (fileName: string) => contentDisposition(fileName, { type: 'attachment' });

export async function listFiles(
  db: Executor,
  scope: SQL | undefined,
  filters: repo.FileFilters,
  page?: Page,
): Promise<ListResult<Static<typeof InvoicingFile>>> {
  const items = await repo.listInvoicingFiles(db, scope, filters, page);
  // Without a page: the whole list, as document 1 answers it (total = limit = its length).
  if (!page) return { items, total: items.length, limit: items.length, offset: 0 };
  return { items, total: await repo.countInvoicingFiles(db, scope, filters), ...page };
}

/**
 * Document 1, invoicing module, download: the file at exactly this path among those the caller
 * may read. The path is compared as text with the stored paths, never resolved on a disk: '..',
 * an encoded '../', an absolute path or another company's folder names no file the caller reaches.
 */
export async function fileAt(db: Executor, scope: SQL | undefined, path: string) {
  const file = path.length > 0 && path.length <= 1024 ? await repo.invoicingFileAt(db, scope, path) : undefined;
  if (!file) fail('INVOICING_FILE_NOT_FOUND', {});
  return file;
}
