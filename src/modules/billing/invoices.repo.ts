// SQL of invoices, billing runs and invoicing files; every function takes the executor it runs on.
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Page } from '../../http/paging.ts';
import type { Executor } from '../../db/client.ts';
import type { FileType, InvoiceType } from './invoicing-files.ts';
import { billedPeriods, invoiceFiles, invoiceItems, invoices, invoicingFiles } from './invoices.tables.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;
export type InvoiceItemRow = typeof invoiceItems.$inferSelect;
export type NewInvoiceItem = typeof invoiceItems.$inferInsert;
export type InvoicingFileRow = typeof invoicingFiles.$inferSelect;
export type NewInvoicingFile = typeof invoicingFiles.$inferInsert;

// The invoiced BPs and their customers are companies' (its face); their subscriptions commerce's.
export {
  type InvoicedBp,
  invoicedBps,
  customerNames,
  lockCompany as lockBp,
} from '../admin/companies/companies.api.ts';
export { recurringSubscriptions, type RecurringRow } from '../commerce/commerce.api.ts';

/** Claims the BP's period; false when it is billed already (by this run's predecessor or a concurrent one). */
export async function claimPeriod(tx: Executor, companyId: string, billingPeriod: string, at: Date): Promise<boolean> {
  const rows = await tx
    .insert(billedPeriods)
    .values({ companyId, billingPeriod, billedAt: at })
    .onConflictDoNothing()
    .returning({ companyId: billedPeriods.companyId });
  return rows.length === 1;
}

export async function setPeriodInvoice(
  tx: Executor,
  companyId: string,
  billingPeriod: string,
  invoiceId: string,
): Promise<void> {
  await tx
    .update(billedPeriods)
    .set({ invoiceId })
    .where(and(eq(billedPeriods.companyId, companyId), eq(billedPeriods.billingPeriod, billingPeriod)));
}

export async function nextSequence(tx: Executor, companyId: string): Promise<number> {
  const [r] = await tx
    .select({ n: sql<number>`COALESCE(MAX(${invoices.sequence}), 0)::int` })
    .from(invoices)
    .where(eq(invoices.companyId, companyId));
  return (r?.n ?? 0) + 1;
}

export async function insertInvoice(tx: Executor, row: NewInvoice): Promise<void> {
  await tx.insert(invoices).values(row);
}

/** Items in batches (a statement carries at most 65,535 parameters). */
export async function insertItems(tx: Executor, rows: NewInvoiceItem[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(invoiceItems).values(rows.slice(i, i + 1000));
}

export async function insertInvoiceFile(tx: Executor, row: typeof invoiceFiles.$inferInsert): Promise<void> {
  await tx.insert(invoiceFiles).values(row);
}

export async function insertInvoicingFiles(tx: Executor, rows: NewInvoicingFile[]): Promise<void> {
  if (rows.length) await tx.insert(invoicingFiles).values(rows);
}

// ---------------------------------------------------------------------------------------------
// Reads

export async function companyInvoices(
  db: Executor,
  companyId: string,
  withItems: boolean,
  page?: Page,
): Promise<{ invoice: InvoiceRow; items: InvoiceItemRow[] }[]> {
  // (updatedAt, sequence): sequence is unique in the company, so the order is total and pages neither repeat nor skip.
  const query = db
    .select()
    .from(invoices)
    .where(eq(invoices.companyId, companyId))
    .orderBy(desc(invoices.updatedAt), desc(invoices.sequence))
    .$dynamic();
  const list = await (page ? query.limit(page.limit).offset(page.offset) : query);
  if (!withItems || list.length === 0) return list.map((invoice) => ({ invoice, items: [] }));
  const items = await db
    .select()
    .from(invoiceItems)
    .where(
      inArray(
        invoiceItems.invoiceId,
        list.map((i) => i.id),
      ),
    )
    .orderBy(asc(invoiceItems.invoiceId), asc(invoiceItems.position));
  const by = new Map<string, InvoiceItemRow[]>();
  for (const it of items) by.set(it.invoiceId, [...(by.get(it.invoiceId) ?? []), it]);
  return list.map((invoice) => ({ invoice, items: by.get(invoice.id) ?? [] }));
}

/** How many invoices a company has (the total of a page of them). */
export async function countCompanyInvoices(db: Executor, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(invoices).where(eq(invoices.companyId, companyId));
  return row?.n ?? 0;
}

export async function invoiceFile(db: Executor, companyId: string, fileId: string) {
  const [f] = await db
    .select()
    .from(invoiceFiles)
    .where(and(eq(invoiceFiles.id, fileId), eq(invoiceFiles.companyId, companyId)));
  return f;
}

export interface FileFilters {
  companyId?: string;
  billingPeriod?: string;
  invoiceType?: InvoiceType;
  fileType?: FileType;
  invoiceCreationDate?: string;
  fromInvoiceCreationDate?: string;
  toInvoiceCreationDate?: string;
}

const fileListColumns = {
  id: invoicingFiles.id,
  companyId: invoicingFiles.companyId,
  billingPeriod: invoicingFiles.billingPeriod,
  invoiceType: invoicingFiles.invoiceType,
  fileType: invoicingFiles.fileType,
  path: invoicingFiles.path,
  fileName: invoicingFiles.fileName,
  invoiceId: invoicingFiles.invoiceId,
  invoiceNumber: invoicingFiles.invoiceNumber,
  invoiceCreationDate: invoicingFiles.invoiceCreationDate,
  lines: invoicingFiles.lines,
  size: invoicingFiles.size,
};

/** Document 1, invoicing module, list: every filter; the exact creation date wins over from/to. */
function invoicingFilesWhere(scope: SQL | undefined, f: FileFilters): SQL | undefined {
  const where: SQL[] = [];
  if (scope) where.push(scope);
  if (f.companyId) where.push(eq(invoicingFiles.companyId, f.companyId));
  if (f.billingPeriod) where.push(eq(invoicingFiles.billingPeriod, f.billingPeriod));
  if (f.invoiceType) where.push(eq(invoicingFiles.invoiceType, f.invoiceType));
  if (f.fileType) where.push(eq(invoicingFiles.fileType, f.fileType));
  if (f.invoiceCreationDate) where.push(eq(invoicingFiles.invoiceCreationDate, f.invoiceCreationDate));
  else {
    if (f.fromInvoiceCreationDate)
      where.push(sql`${invoicingFiles.invoiceCreationDate} > ${f.fromInvoiceCreationDate}`);
    if (f.toInvoiceCreationDate) where.push(sql`${invoicingFiles.invoiceCreationDate} < ${f.toInvoiceCreationDate}`);
  }
  return where.length ? and(...where) : undefined;
}

/** The files the filters keep, the whole list or a page of it (issue 28, point 9). */
export function listInvoicingFiles(db: Executor, scope: SQL | undefined, f: FileFilters, page?: Page) {
  // A path is unique: (billingPeriod, companyId, path) orders every file, so pages are stable.
  const query = db
    .select(fileListColumns)
    .from(invoicingFiles)
    .where(invoicingFilesWhere(scope, f))
    .orderBy(desc(invoicingFiles.billingPeriod), asc(invoicingFiles.companyId), asc(invoicingFiles.path))
    .$dynamic();
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

/** How many files the filters keep (the total of a page). */
export async function countInvoicingFiles(db: Executor, scope: SQL | undefined, f: FileFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(invoicingFiles).where(invoicingFilesWhere(scope, f));
  return row?.n ?? 0;
}

/** The file at exactly this path, when the caller's scope reaches it. */
export async function invoicingFileAt(
  db: Executor,
  scope: SQL | undefined,
  path: string,
): Promise<InvoicingFileRow | undefined> {
  const [f] = await db
    .select()
    .from(invoicingFiles)
    .where(scope ? and(scope, eq(invoicingFiles.path, path)) : eq(invoicingFiles.path, path));
  return f;
}
