// Schemas of invoices (document 1, Invoice and Invoice item; docs/billing.md, Explanations: calculation and,
// at format=full, the tax rate), of the billing run and of the invoicing module's files.
import { Type } from 'typebox';
import { Id, Nullable, Obj, OneOf, nameSchemas } from '../../http/schemas.ts';
import { formatQuery } from '../../http/format.ts';
import { optionalPageQuery } from '../../http/paging.ts';
import { FILE_TYPES, INVOICE_TYPES } from './invoicing-files.ts';
import { PERIOD_PATTERN } from './billing-runs.service.ts';

export const CHARGE_TYPES = ['Recurring', 'OneTime'] as const;
/** The union the invoice items' chargeType column carries (invoices.tables.ts). */
export type ChargeType = (typeof CHARGE_TYPES)[number];

const Day = (description?: string) => Type.String({ format: 'date', ...(description ? { description } : {}) });
const Money = (description?: string) => Type.Number(description ? { description } : {});

export const InvoiceItem = Obj({
  id: Type.String(),
  subscriptionName: Type.String({ description: 'the customer company and the offer: "<company name> / <offer name>"' }),
  subscriptionId: Type.String(),
  chargeDescription: Type.String(),
  chargeName: Type.String(),
  chargeId: Type.String({
    description: "Recurring: the offer's billingProductRatePlanChargeId (else its id); OneTime: the ledger charge's id",
  }),
  productName: Type.String(),
  unitOfMeasure: Type.String(),
  serviceStartDate: Day(),
  serviceEndDate: Day('last day included'),
  chargeAmount: Money('rounded half-up to the currency decimals'),
  taxAmount: Money('the item charge x the tax rate, rounded half-up'),
  quantity: Type.Number(),
  chargeDate: Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC)' }),
  chargeType: OneOf(CHARGE_TYPES),
  processingType: Type.String({ description: 'Charge' }),
  calculation: Type.String({ description: 'how chargeAmount was computed, e.g. "10 users x 5.00 EUR x 1 month"' }),
  taxRate: Type.Optional(
    Type.String({ description: 'the tax rate used, decimal text (0.2 = 20 %); format=full only' }),
  ),
});

export const Invoice = Obj({
  id: Type.String(),
  accountId: Type.String(),
  accountNumber: Type.String(),
  accountName: Type.String(),
  invoiceDate: Day(),
  dueDate: Day('invoiceDate + 30 days'),
  invoiceTargetDate: Day("the period's 1st: charges dated before it are invoiced"),
  invoiceNumber: Type.String({ description: 'sequential per BP: INV-000001, INV-000002...' }),
  amount: Money('amountWithoutTax + taxAmount'),
  amountWithoutTax: Money('sum of the rounded item charges'),
  taxAmount: Money('sum of the rounded item taxes'),
  balance: Money(),
  creditBalanceAdjustmentAmount: Money(),
  createdBy: Type.String({ description: 'the superadmin who ran the billing, or billing-run (the monthly schedule)' }),
  status: Type.String({ description: 'Posted' }),
  currency: Type.String({ description: 'ISO 4217' }),
  billingPeriod: Type.String({ description: 'YYYY-MM' }),
  body: Type.String({ description: '/v1/files/<file_id>: the PDF (download an invoice file)' }),
  invoiceItems: Type.Array(InvoiceItem),
  invoiceFiles: Type.Array(Obj({ id: Type.String(), versionNumber: Type.Integer() })),
  updatedDate: Type.String({ format: 'date-time' }),
});

/** docs/billing.md, Invoices: the fields of each format level. */
export const INVOICE_FORMATS = {
  small: [
    'id',
    'invoiceNumber',
    'invoiceDate',
    'dueDate',
    'amount',
    'balance',
    'status',
    'currency',
    'billingPeriod',
    'updatedDate',
  ],
  medium: [
    'id',
    'accountId',
    'accountNumber',
    'accountName',
    'invoiceDate',
    'dueDate',
    'invoiceTargetDate',
    'invoiceNumber',
    'amount',
    'amountWithoutTax',
    'taxAmount',
    'balance',
    'creditBalanceAdjustmentAmount',
    'createdBy',
    'status',
    'currency',
    'billingPeriod',
    'body',
    'invoiceFiles',
    'updatedDate',
  ],
} as const;

export const CompanyParams = Type.Object({ companyId: Id() });
export const InvoiceFileParams = Type.Object({ companyId: Id(), fileId: Id() });
export const ListInvoicesQuery = Type.Object({ format: formatQuery('small'), ...optionalPageQuery() });

export const InvoiceFileJson = Obj(
  { Invoice: Type.String({ description: 'the PDF, base64' }) },
  { description: 'the PDF as base64 (Accept: application/json, the default)' },
);

export const RunBillingBody = Obj({
  billingPeriod: Type.String({
    pattern: PERIOD_PATTERN,
    description: 'the month to invoice, YYYY-MM, not later than next month (run ahead: docs/billing.md, Invoices)',
    examples: ['2026-06'],
  }),
});

const Total = Obj({
  currency: Type.String(),
  amountWithoutTax: Type.String(),
  taxAmount: Type.String(),
  amount: Type.String(),
});
export const RunSummary = Obj({
  billingPeriod: Type.String({ examples: ['2026-06'] }),
  companies: Type.Integer({ description: 'BP DR and VAD companies looked at' }),
  invoices: Type.Integer({ description: 'invoices written by this run' }),
  alreadyBilled: Type.Integer({
    description: 'BPs whose period an earlier (or concurrent) run billed: left unchanged',
  }),
  nothingToInvoice: Type.Integer(),
  items: Type.Integer(),
  charges: Type.Integer({ description: 'ledger charges invoiced' }),
  files: Type.Integer({ description: 'PDF and CSV files written' }),
  totals: Type.Array(Total, { description: 'per currency, decimal text' }),
  durationMs: Type.Integer(),
});

const dayQuery = (description: string) => Type.Optional(Type.String({ format: 'date', description }));
export const ListInvoicingFilesQuery = Type.Object({
  companyId: Type.Optional(Id('files of this company')),
  billingPeriod: Type.Optional(Type.String({ pattern: PERIOD_PATTERN, description: 'YYYY-MM', examples: ['2026-06'] })),
  invoiceType: Type.Optional(OneOf(INVOICE_TYPES)),
  fileType: Type.Optional(OneOf(FILE_TYPES)),
  invoiceCreationDate: dayQuery('files created that day (exact); the from and to filters are then ignored'),
  fromInvoiceCreationDate: dayQuery('files created strictly after that day'),
  toInvoiceCreationDate: dayQuery('files created strictly before that day'),
  ...optionalPageQuery(),
});

export const InvoicingFile = Obj({
  id: Type.String(),
  companyId: Type.String(),
  billingPeriod: Type.String(),
  invoiceType: OneOf(INVOICE_TYPES),
  fileType: OneOf(FILE_TYPES),
  path: Type.String({ description: 'download it with GET I/invoices/<path>' }),
  fileName: Type.String(),
  invoiceId: Nullable(Type.String()),
  invoiceNumber: Nullable(Type.String()),
  invoiceCreationDate: Day(),
  lines: Type.Integer({ description: 'CSV lines after the header' }),
  size: Type.Integer({ description: 'bytes' }),
});

export const InvoicingFileParams = Type.Object({
  '*': Type.String({
    title: 'invoicePath',
    description: 'the file path of the list: <companyId>/<billingPeriod>/<invoiceType>/<fileName>',
  }),
});

nameSchemas({ Invoice, InvoiceItem, InvoicingFile, RunSummary });
