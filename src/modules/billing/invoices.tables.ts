// Tables of the invoices (document 1, Invoice; docs/billing.md, Invoices) and of the invoicing module's
// files (docs/billing.md, Files). A billing run writes, per invoiced BP and period, in one transaction:
// the period's mark (billed_periods), the invoice with its items, its PDF (invoice_files) and the
// period's CSV files (invoicing_files). File bytes are kept in the database, not in the file store
// of src/ports/files, so that they commit or roll back with the invoice (docs/billing.md, Files).
import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import type { ChargeType } from './invoices.schemas.ts';
import type { FileType, InvoiceType } from './invoicing-files.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * One row per invoiced BP and period, claimed first in the BP's transaction: a second run of the
 * period (or a concurrent one on another instance, which waits on the row's key) finds it and
 * changes nothing. A BP with nothing to invoice is marked too, with its reason.
 */
export const billedPeriods = pgTable(
  'billed_periods',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    billingPeriod: text('billing_period').notNull(),
    invoiceId: text('invoice_id'),
    billedAt: ts('billed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.billingPeriod] })],
);

/** An invoice's file: its id and version (document 1, invoiceFiles). */
export interface InvoiceFileRef {
  id: string;
  versionNumber: number;
}

// Document 1, Invoice: every field, plus the invoiced BP, its currency and the billing period.
export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    /** The invoiced BP company (DR or VAD). */
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    billingPeriod: text('billing_period').notNull(),
    accountId: text('account_id').notNull(),
    accountNumber: text('account_number').notNull(),
    accountName: text('account_name').notNull(),
    invoiceDate: text('invoice_date').notNull(),
    dueDate: text('due_date').notNull(),
    invoiceTargetDate: text('invoice_target_date').notNull(),
    /** Sequential per BP (INV-000001, INV-000002...). */
    invoiceNumber: text('invoice_number').notNull(),
    sequence: integer('sequence').notNull(),
    currency: text('currency').notNull(),
    amountWithoutTax: numeric('amount_without_tax').notNull(),
    taxAmount: numeric('tax_amount').notNull(),
    amount: numeric('amount').notNull(),
    balance: numeric('balance').notNull(),
    creditBalanceAdjustmentAmount: numeric('credit_balance_adjustment_amount').notNull().default('0'),
    createdBy: text('created_by').notNull(),
    status: text('status').notNull().default('Posted'),
    /** `/v1/files/<file_id>`: the invoice's PDF. */
    body: text('body').notNull(),
    invoiceFiles: jsonb('invoice_files')
      .$type<InvoiceFileRef[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_company_period_uq').on(t.companyId, t.billingPeriod),
    uniqueIndex('invoices_company_number_uq').on(t.companyId, t.sequence),
    // listInvoices: reverse chronological by updatedDate.
    index('invoices_company_updated_idx').on(t.companyId, t.updatedAt),
  ],
);

// Document 1, Invoice item: every field, plus calculation and the tax rate used (docs/billing.md, Explanations).
export const invoiceItems = pgTable(
  'invoice_items',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** The End Customer (or BP IR) company the subscription is for. */
    customerCompanyId: text('customer_company_id'),
    subscriptionName: text('subscription_name').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    chargeDescription: text('charge_description').notNull(),
    chargeName: text('charge_name').notNull(),
    chargeId: text('charge_id').notNull(),
    productName: text('product_name').notNull(),
    unitOfMeasure: text('unit_of_measure').notNull(),
    serviceStartDate: text('service_start_date').notNull(),
    serviceEndDate: text('service_end_date').notNull(),
    quantity: integer('quantity').notNull(),
    unitPrice: numeric('unit_price').notNull(),
    chargeAmount: numeric('charge_amount').notNull(),
    taxRate: numeric('tax_rate').notNull(),
    taxAmount: numeric('tax_amount').notNull(),
    chargeDate: text('charge_date').notNull(),
    chargeType: text('charge_type').$type<ChargeType>().notNull(),
    processingType: text('processing_type').notNull(),
    calculation: text('calculation').notNull(),
  },
  (t) => [index('invoice_items_invoice_idx').on(t.invoiceId, t.position)],
);

// The invoice's PDF (document 1, invoiceFiles; download an invoice file).
export const invoiceFiles = pgTable(
  'invoice_files',
  {
    id: text('id').primaryKey(),
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    companyId: text('company_id').notNull(),
    versionNumber: integer('version_number').notNull().default(1),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('invoice_files_company_idx').on(t.companyId), index('invoice_files_invoice_idx').on(t.invoiceId)],
);

// The invoicing module's files (document 1, Invoicing module): a CSV per company, period, invoice
// type (services, conference, voice) and file type (INV, CDR), found by its path
// `<companyId>/<billingPeriod>/<invoiceType>/<fileName>`.
export const invoicingFiles = pgTable(
  'invoicing_files',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    billingPeriod: text('billing_period').notNull(),
    invoiceType: text('invoice_type').$type<InvoiceType>().notNull(),
    fileType: text('file_type').$type<FileType>().notNull(),
    path: text('path').notNull(),
    fileName: text('file_name').notNull(),
    invoiceId: text('invoice_id'),
    invoiceNumber: text('invoice_number'),
    /** The day the file was made (UTC): the invoiceCreationDate filters compare it. */
    invoiceCreationDate: text('invoice_creation_date').notNull(),
    lines: integer('lines').notNull(),
    size: integer('size').notNull(),
    data: bytea('data').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoicing_files_path_uq').on(t.path),
    index('invoicing_files_company_idx').on(t.companyId, t.billingPeriod),
  ],
);
