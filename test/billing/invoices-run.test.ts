// The billing run (issue 11, point 3; docs/billing.md, Invoices): who is invoiced, for what, with
// every field of document 1's Invoice; a period run twice, or by two runs at once, changes nothing;
// the monthly job; the run's validation and its superadmin-only access.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { buildInvoiceWorld, call, PERIOD, runPeriod, S, type InvoiceWorld } from './invoices.fixture.ts';
import { billedPeriods, invoiceItems, invoices, invoicingFiles } from '../../src/modules/billing/invoices.tables.ts';
import { billingCharges } from '../../src/modules/billing/charges.tables.ts';
import { runBilling } from '../../src/modules/billing/billing-runs.service.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { BILLING_RUN_JOB } from '../../src/modules/billing/billing.module.ts';

let t: TestApp;
let w: InvoiceWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await buildInvoiceWorld(t);
});
afterAll(() => t.close());

const invoicesOf = (companyId: string) => t.db.select().from(invoices).where(eq(invoices.companyId, companyId));
const itemsOf = (invoiceId: string) =>
  t.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, invoiceId)).orderBy(invoiceItems.position);

describe('the billing run of a period', () => {
  it('route table, runBilling: only a superadmin runs it; a bad period, or one after next month, is 400 (400750)', async () => {
    for (const u of [w.drFinance, w.support, w.drAdmin])
      expect((await runPeriod(t, PERIOD, u.token)).statusCode).toBe(403);
    for (const p of ['2026-13', '2026-1', '26-11', 'november', '2026-11-01']) {
      const res = await runPeriod(t, p);
      expect(res.statusCode, p).toBe(400);
    }
    // The clock stands on 2026-11-21: December (the next invoice date) may run ahead, January not.
    const future = await runPeriod(t, '2027-01');
    expect(future.statusCode).toBe(400);
    expect(future.json().errorDetailsCode).toBe(400750);
    expect(await t.db.select().from(invoices)).toHaveLength(0);
  });

  it('issue 11, point 3: invoices each BP DR and VAD for its customers, recurring items for the whole month plus ledger charges dated before the 1st', async () => {
    const res = await runPeriod(t);
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json().data;
    expect(summary).toMatchObject({ billingPeriod: PERIOD, invoices: 2, alreadyBilled: 0, charges: 1 });

    // The DR in France (20 %): 10 users x 5.00 (50.00 + 10.00), a flat fee of 30.00 (+ 6.00), and
    // the ledger's increase of 2026-06-20 (9.17 + 1.83): 89.17 + 17.83 = 107.00.
    const [drInvoice] = await invoicesOf(w.dr);
    expect(drInvoice).toMatchObject({
      billingPeriod: PERIOD,
      status: 'Posted',
      invoiceNumber: 'INV-000001',
      invoiceDate: '2026-11-21',
      dueDate: '2026-12-21',
      invoiceTargetDate: '2026-11-01',
      currency: 'EUR',
      accountName: 'Société Générale des Télécoms',
      createdBy: expect.any(String),
    });
    expect(Number(drInvoice.amountWithoutTax)).toBe(89.17);
    expect(Number(drInvoice.taxAmount)).toBe(17.83);
    expect(Number(drInvoice.amount)).toBe(107);
    expect(Number(drInvoice.balance)).toBe(107);
    expect(drInvoice.body).toBe(`/v1/files/${drInvoice.invoiceFiles[0].id}`);
    const drItems = await itemsOf(drInvoice.id);
    expect(
      drItems.map((i) => [
        i.subscriptionId,
        i.chargeType,
        i.chargeAmount,
        i.taxAmount,
        i.serviceStartDate,
        i.serviceEndDate,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [w.subs.drUsers, 'Recurring', '50.00', '10.00', '2026-11-01', '2026-11-30'],
        [w.subs.drFlat, 'Recurring', '30.00', '6.00', '2026-11-01', '2026-11-30'],
        [w.subs.drUsers, 'OneTime', '9.17', '1.83', '2026-06-20', '2026-06-30'],
      ]),
    );
    expect(drItems).toHaveLength(3);
    expect(drItems.find((i) => i.chargeType === 'Recurring' && i.subscriptionId === w.subs.drUsers)!.calculation).toBe(
      '10 users x 5.00 EUR x 1 month',
    );
    expect(
      drItems.every((i) => i.processingType === 'Charge' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(i.chargeDate)),
    ).toBe(true);
    // Amount = sum of the rounded items and their taxes.
    const cents = (s: string) => Math.round(Number(s) * 100);
    expect(drItems.reduce((s, i) => s + cents(i.chargeAmount) + cents(i.taxAmount), 0)).toBe(cents(drInvoice.amount));

    // The VAD in Germany (19 %): the IR's own subscription, the IR's End Customer's, its own End Customer's.
    const [vadInvoice] = await invoicesOf(w.vad);
    const vadItems = await itemsOf(vadInvoice.id);
    expect(vadItems.map((i) => [i.subscriptionId, i.chargeAmount, i.taxAmount, i.taxRate]).sort()).toEqual(
      [
        [w.subs.irUsers, '15.00', '2.85', '0.19'],
        [w.subs.ecIrUsers, '35.00', '6.65', '0.19'],
        [w.subs.ecVadFlat, '30.00', '5.70', '0.19'],
      ].sort(),
    );
    expect(vadInvoice.invoiceNumber).toBe('INV-000001');

    // Nobody else has invoices: the IR, the End Customers, the lone company.
    for (const c of [w.ir, w.ecDr1, w.ecIr, w.lone]) expect(await invoicesOf(c)).toHaveLength(0);

    // The ledger: the charge before the 1st is invoiced by the DR's invoice, the later one waits.
    const [before] = await t.db.select().from(billingCharges).where(eq(billingCharges.id, w.charges.before));
    const [afterCharge] = await t.db.select().from(billingCharges).where(eq(billingCharges.id, w.charges.after));
    expect(before.invoiceId).toBe(drInvoice.id);
    expect(afterCharge.invoiceId).toBeNull();
  });

  it('issue 11, point 3: running the period again changes nothing', async () => {
    const snapshot = async () => ({
      invoices: await t.db.select().from(invoices).orderBy(invoices.id),
      items: (await t.db.select({ n: sql<number>`count(*)::int` }).from(invoiceItems))[0].n,
      files: (await t.db.select({ n: sql<number>`count(*)::int` }).from(invoicingFiles))[0].n,
      uninvoiced: (await t.db.select().from(billingCharges).where(isNull(billingCharges.invoiceId))).map((c) => c.id),
    });
    const first = await snapshot();
    const res = await runPeriod(t);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ invoices: 0, items: 0, files: 0, alreadyBilled: 3 });
    expect(await snapshot()).toEqual(first);
  });

  it('issue 11, point 3: two runs of a period at once write each invoice once', async () => {
    // October, run by two callers at once (two instances do the same through the database).
    const deps = { db: t.db, ports: portsOf(t.deps), config: t.deps.config, now: t.clock.now };
    const [a, b] = await Promise.all([runBilling(deps, '2026-10', 'one'), runBilling(deps, '2026-10', 'two')]);
    expect(a.invoices + b.invoices).toBe(2);
    expect(a.alreadyBilled + b.alreadyBilled).toBe(a.companies);
    const october = await t.db.select().from(invoices).where(eq(invoices.billingPeriod, '2026-10'));
    expect(october.map((i) => i.companyId).sort()).toEqual([w.dr, w.vad].sort());
    // Sequential per BP: November was 1, October is 2.
    expect(october.map((i) => i.invoiceNumber)).toEqual(['INV-000002', 'INV-000002']);
    const marks = await t.db
      .select()
      .from(billedPeriods)
      .where(and(eq(billedPeriods.billingPeriod, '2026-10')));
    expect(marks).toHaveLength(a.companies);
  });

  it('issue 11, point 3: two runs at once through the API answer 200 and invoice once', async () => {
    const [a, b] = await Promise.all([runPeriod(t, '2026-09'), runPeriod(t, '2026-09')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().data.invoices + b.json().data.invoices).toBe(2);
    expect(await t.db.select().from(invoices).where(eq(invoices.billingPeriod, '2026-09'))).toHaveLength(2);
  });

  it('docs/billing.md, Invoices: a subscription created in the period is not a recurring item of it; the ledger charges its first month in the next run', async () => {
    const items = await t.db.select().from(invoiceItems).where(eq(invoiceItems.subscriptionId, w.subs.drNew));
    expect(items).toHaveLength(0);
  });
});

describe('running the next period ahead', () => {
  it("docs/billing.md, Invoices: next month's period runs ahead of its 1st: this month's charges and the new subscription's first recurring month are invoiced now", async () => {
    const res = await runPeriod(t, '2026-12');
    expect(res.statusCode, res.body).toBe(200);
    const dec = (await invoicesOf(w.dr)).find((i) => i.billingPeriod === '2026-12')!;
    expect(dec.invoiceTargetDate).toBe('2026-12-01');
    const items = await itemsOf(dec.id);
    // The first month of drNew (2 users from 2026-11-05: 2 x 5.00 x 26/30 = 8.67) from the ledger, and its December.
    expect(
      items
        .filter((i) => i.subscriptionId === w.subs.drNew)
        .map((i) => [i.chargeType, i.chargeAmount])
        .sort(),
    ).toEqual([
      ['OneTime', '8.67'],
      ['Recurring', '10.00'],
    ]);
    const [afterCharge] = await t.db.select().from(billingCharges).where(eq(billingCharges.id, w.charges.after));
    expect(afterCharge.invoiceId).toBe(dec.id);
  });
});

describe('the monthly job', () => {
  it('issue 11, point 3: the billing run is a job scheduled on the 1st of each month at 00:00 UTC, invoicing the month of its clock', async () => {
    const bg = await createTestApp({ background: true });
    try {
      const { rows } = (await bg.db.execute(
        sql`SELECT name, cron FROM pgboss.schedule WHERE name = ${BILLING_RUN_JOB}`,
      )) as unknown as { rows: { name: string; cron: string }[] };
      expect(rows).toEqual([{ name: BILLING_RUN_JOB, cron: '0 0 1 * *' }]);
      const world = await buildInvoiceWorld(bg);
      const queue = bg.deps.background!.queue;
      const id = await queue.enqueue(BILLING_RUN_JOB, {});
      const end = Date.now() + 30_000;
      for (;;) {
        const s = await queue.state(BILLING_RUN_JOB, id);
        if (s?.state === 'completed') break;
        if (s?.state === 'failed' || Date.now() > end) throw new Error(`billing job: ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const [inv] = await bg.db.select().from(invoices).where(eq(invoices.companyId, world.dr));
      expect(inv).toMatchObject({ billingPeriod: '2026-11', createdBy: 'billing-run' });
    } finally {
      await bg.close();
    }
  });
});

describe('reads of a run', () => {
  it('doc 1, list invoices: the run shows in the BP list at once', async () => {
    const res = await call(t)('GET', `${S}/companies/${w.dr}/invoices`);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(4);
  });
});
