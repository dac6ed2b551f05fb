// The README's walk (issue 11, "Done means"): a bp_finance subscribes an End Customer through the
// API, a superadmin runs the billing of the next 1st ahead, the bp_finance reads the invoice with
// its calculations, downloads its PDF and the INV file: what the subscription's change charged is
// what the invoice holds.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { buildWorld, caller, S, type World } from '../commerce/subscriptions.fixture.ts';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => t.close());

describe('from a subscription to its invoice, through the API', () => {
  it('issue 11, Done means: subscribe, run billing for the next 1st, read the invoice, download its PDF and INV file', async () => {
    const call = caller(t);
    const fin = w.vadFinance.token;
    // 2026-11-21 (the clock): 10 users at 10.00 EUR, the first month prorated 10/30 days, quoted first.
    const quote = await call(
      'POST',
      `${S}/companies/${w.ecVad}/quotations`,
      { offerId: w.offers.nbUsers, maxNumberUsers: 10 },
      fin,
    );
    expect(quote.statusCode, quote.body).toBe(200);
    const quoted = quote.json().data.invoiceItems as Record<string, unknown>[];
    expect(quoted).toHaveLength(1);
    const sub = await call(
      'POST',
      `${S}/companies/${w.ecVad}/subscriptions`,
      { offerId: w.offers.nbUsers, maxNumberUsers: 10 },
      fin,
    );
    expect(sub.statusCode, sub.body).toBe(201);
    const subscriptionId = sub.json().data.id as string;

    const run = await call('POST', `${S}/billing-runs`, { billingPeriod: '2026-12' });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data.invoices).toBeGreaterThanOrEqual(1);

    const list = await call('GET', `${S}/companies/${w.vad}/invoices?format=full`, undefined, fin);
    expect(list.statusCode, list.body).toBe(200);
    const invoice = list.json().data[0];
    expect(invoice).toMatchObject({
      billingPeriod: '2026-12',
      status: 'Posted',
      invoiceTargetDate: '2026-12-01',
      currency: 'EUR',
    });
    const items = (
      invoice.invoiceItems as {
        subscriptionId: string;
        chargeType: string;
        chargeAmount: number;
        calculation: string;
      }[]
    ).filter((i) => i.subscriptionId === subscriptionId);
    // Issue 11, point 6: what was quoted is the invoice's item of that change, field for field.
    const same = [
      'serviceStartDate',
      'serviceEndDate',
      'quantity',
      'chargeAmount',
      'taxAmount',
      'calculation',
      'chargeName',
      'unitOfMeasure',
    ];
    const pick = (i: Record<string, unknown>) => Object.fromEntries(same.map((k) => [k, i[k]]));
    expect(pick(quoted[0])).toMatchObject({
      serviceStartDate: '2026-11-21',
      serviceEndDate: '2026-11-30',
      quantity: 10,
      chargeAmount: 33.33,
      calculation: '10 users x 10.00 EUR x 10/30 days',
    });
    expect(items.filter((i) => i.chargeType === 'OneTime').map(pick)).toEqual(quoted.map(pick));
    expect(items.map((i) => [i.chargeType, i.chargeAmount, i.calculation]).sort()).toEqual([
      ['OneTime', 33.33, '10 users x 10.00 EUR x 10/30 days'],
      ['Recurring', 100, '10 users x 10.00 EUR x 1 month'],
    ]);

    const pdf = await call(
      'GET',
      `${S}/companies/${w.vad}/invoices/files/${invoice.invoiceFiles[0].id}`,
      undefined,
      fin,
      { accept: 'application/pdf' },
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const files = await call(
      'GET',
      `/api/svc/invoicing/v1.0/invoices?companyId=${w.vad}&fileType=INV&billingPeriod=2026-12`,
      undefined,
      fin,
    );
    const path = files.json().data[0].path as string;
    const csv = await call('GET', `/api/svc/invoicing/v1.0/invoices/${path}`, undefined, fin);
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(
      rows
        .filter((r) => r.subscriptionId === subscriptionId)
        .map((r) => r.chargeAmount)
        .sort(),
    ).toEqual(['100.00', '33.33']);
  });
});
