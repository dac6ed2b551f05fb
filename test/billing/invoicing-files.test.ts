// The invoicing module (document 1; issue 11, point 5; docs/billing.md, Files): the list with every
// filter and the precedence of the creation-date filters, the CSV download by its multi-segment
// path (INV lines = the invoice's items; CDR = the usage records of the voice platform and the
// conference bridge), the roles, and paths that leave the company's folder or name no file: 404.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { buildInvoiceWorld, call, I, runPeriod, type InvoiceWorld } from './invoices.fixture.ts';
import { invoiceItems, invoices, invoicingFiles } from '../../src/modules/billing/invoices.tables.ts';
import { INV_COLUMNS } from '../../src/modules/billing/invoicing-files.ts';
import { runBilling } from '../../src/modules/billing/billing-runs.service.ts';
import { portsOf } from '../../src/ports/ports.ts';

let t: TestApp;
let w: InvoiceWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildInvoiceWorld(t);
  // September's run two days before November's, which runs on the clock's 2026-11-21.
  const twoDaysBefore = () => new Date(t.clock.now().getTime() - 2 * 86_400_000);
  await runBilling({ db: t.db, ports: portsOf(t.deps), config: t.deps.config, now: twoDaysBefore }, '2026-09', 'test');
  expect((await runPeriod(t, '2026-11')).statusCode).toBe(200);
});
afterAll(() => t.close());

type Entry = {
  path: string;
  companyId: string;
  billingPeriod: string;
  invoiceType: string;
  fileType: string;
  invoiceCreationDate: string;
  lines: number;
};
const list = async (query = '', token = t.superToken) => {
  const res = await call(t)('GET', `${I}/invoices${query ? `?${query}` : ''}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Entry[];
};
const get = (path: string, token = t.superToken) =>
  call(t)('GET', `${I}/invoices/${path}`, token, undefined, { accept: 'text/csv' });
const csvRows = (body: string): string[][] => parse(body);

describe('list invoicing files', () => {
  it('doc 1, invoicing module: a run writes per BP an INV file (services) and CDR files (voice, conference) where there was usage', async () => {
    const all = await list(`companyId=${w.dr}`);
    expect(all.map((f) => `${f.billingPeriod} ${f.invoiceType} ${f.fileType}`).sort()).toEqual([
      '2026-09 services INV',
      '2026-11 conference CDR',
      '2026-11 services INV',
      '2026-11 voice CDR',
    ]);
    const vad = await list(`companyId=${w.vad}&billingPeriod=2026-11`);
    expect(vad.map((f) => `${f.invoiceType} ${f.fileType}`).sort()).toEqual(['services INV', 'voice CDR']);
  });

  it('doc 1, invoicing module: the filters billingPeriod, invoiceType and fileType', async () => {
    expect((await list('billingPeriod=2026-09')).every((f) => f.billingPeriod === '2026-09')).toBe(true);
    expect((await list('billingPeriod=2026-09')).length).toBe(2);
    expect((await list('invoiceType=voice')).map((f) => f.companyId).sort()).toEqual([w.dr, w.vad].sort());
    expect((await list('invoiceType=conference')).map((f) => f.companyId)).toEqual([w.dr]);
    expect((await list('fileType=CDR')).length).toBe(3);
    expect((await list('fileType=INV')).length).toBe(4);
    expect((await list(`fileType=INV&invoiceType=voice`)).length).toBe(0);
    expect((await call(t)('GET', `${I}/invoices?invoiceType=fax`)).statusCode).toBe(400);
    expect((await call(t)('GET', `${I}/invoices?fileType=PDF`)).statusCode).toBe(400);
    expect((await call(t)('GET', `${I}/invoices?billingPeriod=2026-1`)).statusCode).toBe(400);
  });

  it('doc 1, invoicing module: invoiceCreationDate exact; from strictly after; to strictly before; the exact date wins over from and to', async () => {
    const sept = '2026-11-19';
    const nov = '2026-11-21';
    expect(
      (await list(`invoiceCreationDate=${sept}`)).every(
        (f) => f.invoiceCreationDate === sept && f.billingPeriod === '2026-09',
      ),
    ).toBe(true);
    expect((await list(`invoiceCreationDate=${sept}`)).length).toBe(2);
    expect((await list(`fromInvoiceCreationDate=${sept}`)).every((f) => f.invoiceCreationDate === nov)).toBe(true);
    expect((await list(`fromInvoiceCreationDate=${nov}`)).length).toBe(0);
    expect((await list(`toInvoiceCreationDate=${nov}`)).every((f) => f.invoiceCreationDate === sept)).toBe(true);
    expect((await list(`toInvoiceCreationDate=${sept}`)).length).toBe(0);
    expect((await list(`fromInvoiceCreationDate=2026-11-18&toInvoiceCreationDate=2026-11-20`)).length).toBe(2);
    // The exact date wins: from/to that would exclude it are ignored.
    expect(
      (await list(`invoiceCreationDate=${nov}&fromInvoiceCreationDate=2026-12-01&toInvoiceCreationDate=2026-01-01`))
        .length,
    ).toBe(5);
  });

  it('doc 1, invoicing module, roles: superadmin all; bp_finance, bp_admin, company_admin their company; organization_admin the organisation companies; others nothing', async () => {
    const companiesOf = async (token: string) => [...new Set((await list('', token)).map((f) => f.companyId))].sort();
    expect(await companiesOf(t.superToken)).toEqual([w.dr, w.vad].sort());
    expect(await companiesOf(w.drFinance.token)).toEqual([w.dr]);
    expect(await companiesOf(w.vadFinance.token)).toEqual([w.vad]);
    expect(await companiesOf(w.drAdmin.token)).toEqual([w.dr]);
    // The organisation of the DR (the other DR's organization_admin).
    expect(await companiesOf(w.orgAdmin.token)).toEqual([w.dr]);
    // An End Customer's company_admin: his company has no files.
    expect(await companiesOf(w.ecAdmin.token)).toEqual([]);
    // A companyId filter outside the scope gives nothing, never the other company's files.
    expect(await list(`companyId=${w.vad}`, w.drFinance.token)).toEqual([]);
    expect((await call(t)('GET', `${I}/invoices`, w.support.token)).statusCode).toBe(403);
  });
});

describe('download an invoicing file', () => {
  const pathOf = async (companyId: string, invoiceType: string, period = '2026-11') =>
    (await list(`companyId=${companyId}&invoiceType=${invoiceType}&billingPeriod=${period}`))[0].path;

  it('doc 1, invoicing module: an INV file is text/csv with Content-Disposition, one line per item of the invoice, the columns of docs/billing.md', async () => {
    const path = await pathOf(w.dr, 'services');
    expect(path.split('/')).toEqual([w.dr, '2026-11', 'services', 'INV-services-2026-11.csv']);
    const res = await get(path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?INV-services-2026-11\.csv"?$/);
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual(INV_COLUMNS);
    const nov = (await t.db.select().from(invoices).where(eq(invoices.companyId, w.dr))).find(
      (i) => i.billingPeriod === '2026-11',
    )!;
    const items = await t.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, nov.id));
    expect(rows).toHaveLength(items.length);
    const col = (name: string) => INV_COLUMNS.indexOf(name as (typeof INV_COLUMNS)[number]);
    expect(rows.every((r) => r[col('invoiceNumber')] === nov.invoiceNumber)).toBe(true);
    expect(rows.map((r) => r[col('chargeAmount')]).sort()).toEqual(items.map((i) => i.chargeAmount).sort());
    expect(rows.map((r) => r[col('subscriptionId')]).sort()).toEqual(items.map((i) => i.subscriptionId).sort());
  });

  it('issue 11, point 5: CDR files hold the usage records of the month before the period, from the voice platform and the conference bridge', async () => {
    const voice = csvRows((await get(await pathOf(w.dr, 'voice'))).body);
    expect(voice[0]).toEqual([
      'recordId',
      'companyId',
      'companyName',
      'userId',
      'direction',
      'callingNumber',
      'calledNumber',
      'startTime',
      'durationSeconds',
    ]);
    // October's two calls of the DR's customers; neither September's nor November's.
    expect(voice.slice(1).map((r) => [r[1], r[6], r[8]])).toEqual([
      [w.ecDr1, '+33100000002', '61'],
      [w.ecDr2, '+33100000004', '5'],
    ]);
    const conference = csvRows((await get(await pathOf(w.dr, 'conference'))).body);
    expect(conference.slice(1).map((r) => [r[1], r[3], r[4], r[6]])).toEqual([[w.ecDr1, 'conf-1', '4', '1800']]);
    // The VAD's CDR: its BP IR's End Customer's call.
    const vadVoice = csvRows((await get(await pathOf(w.vad, 'voice'))).body);
    expect(vadVoice.slice(1).map((r) => r[1])).toEqual([w.ecIr]);
  });

  it("doc 1, invoicing module: the roles of the list; another company's file is 404", async () => {
    const drPath = await pathOf(w.dr, 'services');
    expect((await get(drPath, w.drFinance.token)).statusCode).toBe(200);
    expect((await get(drPath, w.drAdmin.token)).statusCode).toBe(200);
    expect((await get(drPath, w.orgAdmin.token)).statusCode).toBe(200);
    expect((await get(drPath, w.vadFinance.token)).statusCode).toBe(404);
    expect((await get(drPath, w.ecAdmin.token)).statusCode).toBe(404);
    expect((await get(drPath, w.support.token)).statusCode).toBe(403);
  });

  it('issue 11, point 5: a path that leaves the company folder, is absolute, encoded, or names no file gives 404, never a file of someone else', async () => {
    const drPath = await pathOf(w.dr, 'services');
    const vadPath = await pathOf(w.vad, 'services');
    const [, period, type, name] = vadPath.split('/');
    const token = w.drFinance.token;
    const attempts = [
      // From the DR's folder to the VAD's file.
      `${w.dr}/../${vadPath}`,
      `${w.dr}/${period}/${type}/../../../${vadPath}`,
      `${w.dr}/%2e%2e/${vadPath}`,
      `${w.dr}/..%2f${vadPath}`,
      `${w.dr}/%2E%2E%2F${encodeURIComponent(vadPath)}`,
      `%2F${vadPath}`,
      `/${vadPath}`,
      `${w.dr}/${period}/${type}/${name}/../../../../${vadPath}`,
      // The other company's file itself, and names of nothing.
      vadPath,
      `${w.dr}/${period}/${type}/nothing.csv`,
      `${w.dr}/${period}/${type}`,
      `${w.dr}`,
      `${drPath}/`,
      encodeURIComponent(drPath).replace(/%2F/g, '%5C'),
    ];
    for (const p of attempts) {
      const res = await get(p, token);
      expect(res.statusCode, p).toBe(404);
      expect(res.body).not.toContain('invoiceNumber,');
    }
    // A NUL byte is refused as bad input (the platform's rule), never looked up.
    expect((await get(`${drPath}%00`, token)).statusCode).toBe(400);
    // Encoded traversals are names, never resolved: not even a superadmin reaches a file through them.
    for (const p of attempts.slice(3, 6)) expect((await get(p)).statusCode, p).toBe(404);
    // The genuine path works, also percent-encoded segment by segment.
    expect((await get(drPath, token)).statusCode).toBe(200);
  });

  it('docs/billing.md, Files: the file rows are the whole store (no file outside the database)', async () => {
    const rows = await t.db.select({ path: invoicingFiles.path, size: invoicingFiles.size }).from(invoicingFiles);
    expect(rows.length).toBe(7);
    expect(rows.every((r) => r.size > 0)).toBe(true);
  });
});
