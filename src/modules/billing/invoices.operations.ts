// Invoices (document 1, list invoices and download an invoice file), the billing run (route table
// +: runBilling) and the invoicing module's files (document 1, Invoicing module).
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { Binary } from '../../http/binary.ts';
import { parseOptionalPage } from '../../http/paging.ts';
import {
  CompanyParams,
  Invoice,
  INVOICE_FORMATS,
  InvoiceFileJson,
  InvoiceFileParams,
  InvoicingFile,
  InvoicingFileParams,
  ListInvoicesQuery,
  ListInvoicingFilesQuery,
  RunBillingBody,
  RunSummary,
} from './invoices.schemas.ts';
import * as service from './invoices.service.ts';
import { runBilling as run } from './billing-runs.service.ts';

const S = '/subscription/v1.0';
const I = '/invoicing/v1.0';
const companyTarget = { kind: 'company', from: 'params', field: 'companyId' } as const;

export const listInvoices = defineOperation({
  operationId: 'listInvoices',
  errors: ['INVOICES_BP_ONLY'],
  method: 'GET',
  path: `${S}/companies/:companyId/invoices`,
  tag: 'Invoices',
  summary: 'List the invoices of a BP DR or VAD company, most recently updated first',
  description:
    'format small (default), medium or full (with invoiceItems, each with its calculation and tax rate): docs/billing.md, Invoices. Other companies: 400 (400751).',
  params: CompanyParams,
  query: ListInvoicesQuery,
  response: Invoice,
  envelope: 'list',
  formats: INVOICE_FORMATS,
  target: companyTarget,
  command: (ctx, { query }) =>
    service.listInvoices(ctx.db, ctx.target, query.format === 'full', parseOptionalPage(query)),
});

export const downloadInvoiceFile = defineOperation({
  operationId: 'downloadInvoiceFile',
  errors: ['INVOICES_BP_ONLY', 'INVOICE_FILE_NOT_FOUND'],
  method: 'GET',
  path: `${S}/companies/:companyId/invoices/files/:fileId`,
  tag: 'Invoices',
  summary: "Download an invoice's PDF (fileId from its invoiceFiles)",
  description:
    'Document 1 answers `{Invoice: string}`: with Accept application/json (or none) the PDF comes base64 in `Invoice`; with Accept application/pdf (and not JSON) the PDF itself, with Content-Disposition. A file of another company: 404.',
  params: InvoiceFileParams,
  response: InvoiceFileJson,
  envelope: 'raw',
  target: companyTarget,
  handler: async (ctx, { params }) => {
    const file = await service.invoiceFile(ctx.db, ctx.target, params.fileId);
    if (service.wantsPdf(ctx.req.headers.accept)) {
      return ctx.reply
        .type('application/pdf')
        .header('Content-Disposition', service.attachment(file.fileName))
        .send(file.data);
    }
    return ctx.reply.type('application/json; charset=utf-8').send({ Invoice: file.data.toString('base64') });
  },
});

export const runBilling = defineOperation({
  operationId: 'runBilling',
  errors: ['BILLING_PERIOD_INVALID'],
  method: 'POST',
  path: `${S}/billing-runs`,
  tag: 'Invoices',
  summary: 'Invoice a period now (superadmin); the monthly schedule does it on the 1st otherwise',
  description:
    'Runs the billing of the period and answers 200 with its summary once done. Running a period again (or twice at once) changes nothing: BPs already billed count in alreadyBilled. docs/billing.md, Invoices.',
  body: RunBillingBody,
  response: RunSummary,
  envelope: 'data',
  successStatus: 200,
  scope: 'caller',
  idempotent: false,
  command: (ctx, { body }) => {
    return run(
      { db: ctx.deps.database.db, ports: ctx.deps.ports, config: ctx.deps.config, now: () => ctx.now, log: ctx.log },
      body.billingPeriod,
      ctx.caller.userId,
    );
  },
});

export const listInvoicingFiles = defineOperation({
  operationId: 'listInvoicingFiles',
  method: 'GET',
  path: `${I}/invoices`,
  tag: 'Invoicing',
  summary: 'List the invoicing files (INV and CDR CSV files) the caller may read',
  description:
    'Every filter of document 1; invoiceCreationDate (exact) wins over fromInvoiceCreationDate and toInvoiceCreationDate (both strict). docs/billing.md, Files.',
  query: ListInvoicingFilesQuery,
  response: InvoicingFile,
  envelope: 'list',
  scope: 'invoicingFile',
  command: (ctx, { query }) => service.listFiles(ctx.db, ctx.scope, query, parseOptionalPage(query)),
});

export const downloadInvoicingFile = defineOperation({
  operationId: 'downloadInvoicingFile',
  errors: ['INVOICING_FILE_NOT_FOUND'],
  method: 'GET',
  path: `${I}/invoices/*`,
  tag: 'Invoicing',
  summary: 'Download an invoicing file (CSV) by its path',
  description:
    'The path of the list (company/period/type/file name). A path that is not exactly one of the files you may read gives 404. Columns: docs/billing.md, Files.',
  params: InvoicingFileParams,
  response: Binary({ types: ['text/csv'], description: 'the CSV file (RFC 4180, a header line), as an attachment' }),
  envelope: 'binary',
  scope: 'invoicingFile',
  command: async (ctx, { params }) => {
    const file = await service.fileAt(ctx.db, ctx.scope, params['*']);
    return {
      mediaType: 'text/csv',
      fileName: file.fileName,
      disposition: 'attachment' as const,
      body: file.data,
      lastModified: file.createdAt,
    };
  },
});

export const invoicesOperations: AnyOperation[] = [
  listInvoices,
  downloadInvoiceFile,
  runBilling,
  listInvoicingFiles,
  downloadInvoicingFile,
];
