// Invoice reads (document 1, list invoices and download an invoice file; issue 11, points 3, 4
// and 7): the roles of document 1, the error of companies without invoices, reverse chronological
// order, the format levels, and the PDF read back with poppler's pdftotext.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { buildInvoiceWorld, call, runPeriod, S, type InvoiceWorld } from './invoices.fixture.ts';
import { invoices } from '../../src/modules/billing/invoices.tables.ts';

let t: TestApp;
let w: InvoiceWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildInvoiceWorld(t);
  // November first, then September (run later, so updated later: first in the list).
  expect((await runPeriod(t, '2026-11')).statusCode).toBe(200);
  t.clock.advance(60_000);
  expect((await runPeriod(t, '2026-09')).statusCode).toBe(200);
});
afterAll(() => t.close());

const list = (companyId: string, token = t.superToken, format?: string) =>
  call(t)('GET', `${S}/companies/${companyId}/invoices${format ? `?format=${format}` : ''}`, token);

function pdfText(pdf: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-invoice-')), 'i.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

describe('list invoices', () => {
  it('doc 1, list invoices: {data, total}, reverse chronological by updatedDate', async () => {
    const res = await list(w.dr);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.data.map((i: { billingPeriod: string }) => i.billingPeriod)).toEqual(['2026-09', '2026-11']);
    expect(body.data[0].updatedDate > body.data[1].updatedDate).toBe(true);
  });

  it('docs/billing.md, Invoices: small is the summary, medium adds the account and file fields, full adds the items with calculation and tax rate', async () => {
    const small = (await list(w.dr)).json().data[1];
    expect(Object.keys(small).sort()).toEqual([
      'amount',
      'balance',
      'billingPeriod',
      'currency',
      'dueDate',
      'id',
      'invoiceDate',
      'invoiceNumber',
      'status',
      'updatedDate',
    ]);
    const medium = (await list(w.dr, t.superToken, 'medium')).json().data[1];
    expect(medium).toMatchObject({
      accountName: 'Société Générale des Télécoms',
      invoiceTargetDate: '2026-11-01',
      creditBalanceAdjustmentAmount: 0,
      status: 'Posted',
    });
    expect(medium.invoiceItems).toBeUndefined();
    expect(medium.body).toBe(`/v1/files/${medium.invoiceFiles[0].id}`);
    const full = (await list(w.dr, t.superToken, 'full')).json().data[1];
    expect(full.invoiceItems).toHaveLength(3);
    expect(full.amount).toBe(107);
    for (const it of full.invoiceItems) {
      expect(it.calculation).toMatch(/EUR/);
      expect(it.taxRate).toBe('0.2');
      expect(Object.keys(it)).toEqual(
        expect.arrayContaining([
          'id',
          'subscriptionName',
          'subscriptionId',
          'chargeDescription',
          'chargeName',
          'chargeId',
          'productName',
          'unitOfMeasure',
          'serviceStartDate',
          'serviceEndDate',
          'chargeAmount',
          'taxAmount',
          'quantity',
          'chargeDate',
          'chargeType',
          'processingType',
        ]),
      );
    }
  });

  it('doc 1, list invoices: companies other than BP DR and VAD get 400 with its own code (400751)', async () => {
    for (const c of [w.ir, w.ecDr1, w.lone]) {
      const res = await list(c);
      expect(res.statusCode, c).toBe(400);
      expect(res.json().errorDetailsCode).toBe(400751);
    }
  });

  it('doc 1, list invoices, roles: superadmin any; bp_finance its own BP; bp_finance + organization_admin the organisation companies; nobody else', async () => {
    expect((await list(w.vad)).statusCode).toBe(200);
    expect((await list(w.dr, w.drFinance.token)).statusCode).toBe(200);
    expect((await list(w.vad, w.vadFinance.token)).statusCode).toBe(200);
    expect((await list(w.dr, w.drFinanceOrgAdmin.token)).statusCode).toBe(200);
    // Another BP's finance: not his company (the VAD's bp_finance cannot see the DR at all).
    expect([403, 404]).toContain((await list(w.dr, w.vadFinance.token)).statusCode);
    expect((await list(w.vad, w.drFinanceOrgAdmin.token)).statusCode).toBe(404);
    // Admins without bp_finance, support, an End Customer's admin: refused.
    expect((await list(w.dr, w.drAdmin.token)).statusCode).toBe(403);
    expect((await list(w.dr, w.orgAdmin.token)).statusCode).toBe(403);
    expect((await list(w.dr, w.support.token)).statusCode).toBe(403);
    expect([403, 404]).toContain((await list(w.dr, w.ecAdmin.token)).statusCode);
  });
});

describe('the invoice PDF', () => {
  const fileOf = async (companyId: string) => {
    const inv = (await t.db.select().from(invoices).where(eq(invoices.companyId, companyId))).find(
      (i) => i.billingPeriod === '2026-11',
    )!;
    return { invoice: inv, fileId: inv.invoiceFiles[0].id };
  };
  const download = (companyId: string, fileId: string, token = t.superToken, accept = 'application/json') =>
    call(t)('GET', `${S}/companies/${companyId}/invoices/files/${fileId}`, token, undefined, { accept });

  it('doc 1, download an invoice file: {Invoice: base64 PDF} in JSON; the PDF itself with Accept application/pdf', async () => {
    const { fileId } = await fileOf(w.dr);
    const json = await download(w.dr, fileId);
    expect(json.statusCode, json.body).toBe(200);
    const pdf = Buffer.from(json.json().Invoice, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const raw = await download(w.dr, fileId, t.superToken, 'application/pdf');
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toBe('application/pdf');
    expect(raw.headers['content-disposition']).toMatch(/^attachment; filename="?INV-000001\.pdf"?$/);
    expect(raw.rawPayload.equals(pdf)).toBe(true);
  });

  it('issue 11, point 3: poppler finds in the PDF the invoice number, the BP, the period, every item with its calculation, the tax and the total', async () => {
    const { invoice: novInvoice } = await fileOf(w.dr);
    const res = await download(w.dr, novInvoice.invoiceFiles[0].id);
    const text = pdfText(Buffer.from(res.json().Invoice, 'base64')).replace(/\s+/g, ' ');
    expect(text).toContain(`Invoice ${novInvoice.invoiceNumber}`);
    expect(text).toContain('Société Générale des Télécoms');
    expect(text).toContain('1 rue de la Paix');
    expect(text).toContain('Billing period: 2026-11');
    // Every item: its customer (a Chinese name: the Unicode fonts), its calculation, amount and tax.
    expect(text).toContain('Zhōngwén 中文 Customer / Business');
    expect(text).toContain('10 users x 5.00 EUR x 1 month = 50.00 EUR; tax 20 % = 10.00 EUR');
    expect(text).toContain('5 users x 5.00 EUR x 11/30 days = 9.17 EUR; tax 20 % = 1.83 EUR');
    expect(text).toContain('Second Customer / Conference room');
    expect(text).toContain('30.00 EUR x 1 month = 30.00 EUR; tax 20 % = 6.00 EUR');
    expect(text).toContain('Amount without tax: 89.17 EUR');
    expect(text).toContain('Tax: 17.83 EUR');
    expect(text).toContain('Total: 107.00 EUR');
  });

  it("doc 1, download an invoice file: another company's file id is 404; a file id of nothing is 404; the roles of list invoices", async () => {
    const { fileId: drFile } = await fileOf(w.dr);
    const { fileId: vadFile } = await fileOf(w.vad);
    expect((await download(w.vad, drFile)).statusCode).toBe(404);
    expect((await download(w.dr, vadFile)).statusCode).toBe(404);
    expect((await download(w.dr, 'nothing-here')).statusCode).toBe(404);
    expect((await download(w.dr, drFile, w.drFinance.token)).statusCode).toBe(200);
    expect((await download(w.dr, drFile, w.drFinanceOrgAdmin.token)).statusCode).toBe(200);
    expect((await download(w.dr, drFile, w.drAdmin.token)).statusCode).toBe(403);
    expect([403, 404]).toContain((await download(w.dr, drFile, w.vadFinance.token)).statusCode);
    // The VAD's finance asks for the DR's file through his own company: not his file.
    expect((await download(w.vad, drFile, w.vadFinance.token)).statusCode).toBe(404);
  });
});
