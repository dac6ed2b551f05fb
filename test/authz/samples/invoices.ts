// Sample requests of the billing module's invoices, billing runs and invoicing files, for the
// authorisation matrix (see ./types.ts).
import { eq } from 'drizzle-orm';
import { users } from '../../../src/modules/admin/users/users.tables.ts';
import { invoiceFiles, invoices, invoicingFiles } from '../../../src/modules/billing/invoices.tables.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { Ctx, Placement, Sample } from './types.ts';

const S = '/api/svc/subscription/v1.0';
const I = '/api/svc/invoicing/v1.0';

/** Document 1: only BP DR and VAD companies have invoices; in the matrix's world, the two VADs (400751 elsewhere). */
const INVOICED = new Set(['vad', 'orgBp']);
const notInvoiced = (p: Placement) =>
  p.company && INVOICED.has(p.company) ? undefined : { status: 400, code: 400751 };

/** An invoice with its PDF for a company (any company: the kind check comes after authorisation). */
async function invoiceWithFile(ctx: Ctx, companyId: string): Promise<string> {
  const id = newId();
  const fileId = newId();
  await ctx.t.db.insert(invoices).values({
    id,
    companyId,
    billingPeriod: `M${ctx.n}`,
    accountId: 'acc',
    accountNumber: 'A1',
    accountName: 'Matrix',
    invoiceDate: '2026-11-01',
    dueDate: '2026-12-01',
    invoiceTargetDate: '2026-11-01',
    invoiceNumber: `INV-M${ctx.n}`,
    sequence: 1000 + ctx.n,
    currency: 'EUR',
    amountWithoutTax: '1.00',
    taxAmount: '0.20',
    amount: '1.20',
    balance: '1.20',
    createdBy: 'matrix',
    body: `/v1/files/${fileId}`,
    invoiceFiles: [{ id: fileId, versionNumber: 1 }],
  });
  await ctx.t.db.insert(invoiceFiles).values({
    id: fileId,
    invoiceId: id,
    companyId,
    fileName: 'matrix.pdf',
    contentType: 'application/pdf',
    data: Buffer.from('%PDF-1.3 matrix'),
  });
  return fileId;
}

/** A CSV file of the caller's own company: whoever holds a grant reaches it (every grant reaches the caller's home). */
async function fileOfCallersCompany(ctx: Ctx): Promise<string> {
  const [u] = await ctx.t.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, ctx.caller.id));
  const path = `${u.companyId}/2026-11/services/matrix-${ctx.n}.csv`;
  await ctx.t.db.insert(invoicingFiles).values({
    id: newId(),
    companyId: u.companyId,
    billingPeriod: '2026-11',
    invoiceType: 'services',
    fileType: 'INV',
    path,
    fileName: `matrix-${ctx.n}.csv`,
    invoiceCreationDate: '2026-11-01',
    lines: 0,
    size: 3,
    data: Buffer.from('a\r\n'),
  });
  return path;
}

export const invoicesSamples: Record<string, Sample> = {
  listInvoices: {
    type: 'target',
    kind: 'company',
    fresh: false,
    businessRefusal: notInvoiced,
    request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/invoices` }),
  },
  downloadInvoiceFile: {
    type: 'target',
    kind: 'company',
    fresh: false,
    businessRefusal: notInvoiced,
    request: async (id, ctx) => ({
      method: 'GET',
      url: `${S}/companies/${id}/invoices/files/${ctx.t ? await invoiceWithFile(ctx, id) : 'x'}`,
    }),
  },
  runBilling: {
    type: 'targetless',
    request: () => ({ method: 'POST', url: `${S}/billing-runs`, payload: { billingPeriod: '2026-01' } }),
  },
  listInvoicingFiles: {
    type: 'list',
    kind: 'invoicingFile',
    request: () => ({ method: 'GET', url: `${I}/invoices` }),
    ids: (b) => b.data.map((f: { id: string }) => f.id),
  },
  // Targetless: a file of the caller's own company, which each grant of the table reaches.
  downloadInvoicingFile: {
    type: 'targetless',
    request: async (ctx) => ({ method: 'GET', url: `${I}/invoices/${await fileOfCallersCompany(ctx)}` }),
  },
};
