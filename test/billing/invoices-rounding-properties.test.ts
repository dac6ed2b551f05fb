// Issue 11, point 6: "rounding never loses or creates a cent across a billing run" (fast-check).
// Random BPs (currency with 0, 2 or 3 decimals, country of any tax rate) with random monthly
// subscriptions (unit prices of up to 6 decimals, quantities, models); after each run, for every
// invoice: each item is exactly what the one pricing function gives, the invoice totals are the
// exact sums of its rounded items and taxes, and the run's totals are the exact sums of its invoices.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { invoiceItems, invoices } from '../../src/modules/billing/invoices.tables.ts';
import { runBilling } from '../../src/modules/billing/billing-runs.service.ts';
import { priceRecurring } from '../../src/modules/billing/pricing.ts';
import { pricedOffer } from '../../src/modules/billing/charges.service.ts';
import { taxRateFor, taxTable } from '../../src/modules/billing/tax.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { newId } from '../../src/shared/ids.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CURRENCIES = ['EUR', 'JPY', 'BHD', 'USD'] as const;
const COUNTRIES = ['FRA', 'DEU', 'CHE', 'HUN', 'USA', 'FIN'] as const;
const price = fc
  .tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 6 }))
  .map(([i, f, digits]) => (digits === 0 ? String(i) : `${i}.${String(f).padStart(6, '0').slice(0, digits)}`));
const sub = fc.record({
  model: fc.constantFrom('nb_users', 'nb_services', 'flat_fee'),
  price,
  quantity: fc.integer({ min: 1, max: 500 }),
});
const bp = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  country: fc.constantFrom(...COUNTRIES),
  vad: fc.boolean(),
  subs: fc.array(sub, { minLength: 1, maxLength: 6 }),
});

let period = 0;
const nextPeriod = () => {
  const d = new Date(Date.UTC(2024, period++, 1));
  return d.toISOString().slice(0, 7);
};

describe('issue 11, point 6: rounding across a billing run', () => {
  it('every item is the pricing function exact, invoice totals are the sums of rounded items and taxes, run totals the sums of invoices', async () => {
    await fc.assert(
      fc.asyncProperty(bp, async (b) => {
        const bpId = await makeCompany(t, { isBP: true, bpType: b.vad ? 'VAD' : 'DR' });
        // A currency billing rounds but the API does not offer (its column is typed with the API's): written as a parameter.
        await t.db
          .update(companies)
          .set({ currency: sql`${b.currency}`, country: b.country })
          .where(eq(companies.id, bpId));
        const ec = await makeCompany(t, { bpId });
        const expected = new Map<string, { charge: string; tax: string }>();
        const rate = taxRateFor(taxTable(t.deps.config), b.country);
        const p = nextPeriod();
        for (const s of b.subs) {
          const offer = {
            id: newId(),
            name: `Offer ${s.model}`,
            businessModel: s.model,
            isDefault: false,
            isPrepaid: false,
            prepaidDuration: null,
            prices: [{ currency: b.currency, amount: s.price }],
            billingProductRatePlanId: null,
            billingProductRatePlanChargeId: null,
          };
          await t.db.insert(offers).values({ ...offer, canBeSold: true });
          const id = newId();
          await t.db.insert(subscriptions).values({
            id,
            companyId: ec,
            offerId: offer.id,
            status: 'active',
            maxNumberUsers: s.model === 'flat_fee' ? null : s.quantity,
            creationDate: new Date('2020-01-01T00:00:00Z'),
          });
          const item = priceRecurring(pricedOffer(offer, b.currency), s.model === 'flat_fee' ? 1 : s.quantity, p, rate);
          expected.set(id, { charge: item.chargeAmount, tax: item.taxAmount });
        }

        const summary = await runBilling(
          { db: t.db, ports: portsOf(t.deps), config: t.deps.config, now: t.clock.now },
          p,
          'property',
        );
        const written = await t.db.select().from(invoices).where(eq(invoices.billingPeriod, p));
        const runTotals = new Map<string, { net: Decimal; tax: Decimal; amount: Decimal }>();
        for (const inv of written) {
          const items = await t.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, inv.id));
          const net = items.reduce((s, i) => s.plus(i.chargeAmount), new Decimal(0));
          const tax = items.reduce((s, i) => s.plus(i.taxAmount), new Decimal(0));
          expect(new Decimal(inv.amountWithoutTax).equals(net)).toBe(true);
          expect(new Decimal(inv.taxAmount).equals(tax)).toBe(true);
          expect(new Decimal(inv.amount).equals(net.plus(tax))).toBe(true);
          const r = runTotals.get(inv.currency) ?? { net: new Decimal(0), tax: new Decimal(0), amount: new Decimal(0) };
          runTotals.set(inv.currency, {
            net: r.net.plus(net),
            tax: r.tax.plus(tax),
            amount: r.amount.plus(inv.amount),
          });
          if (inv.companyId === bpId) {
            expect(items).toHaveLength(b.subs.length);
            for (const i of items) {
              expect({ charge: i.chargeAmount, tax: i.taxAmount }).toEqual(expected.get(i.subscriptionId));
            }
          }
        }
        expect(written.some((i) => i.companyId === bpId)).toBe(true);
        for (const total of summary.totals) {
          const r = runTotals.get(total.currency)!;
          expect([total.amountWithoutTax, total.taxAmount, total.amount].map((x) => new Decimal(x).toString())).toEqual(
            [r.net, r.tax, r.amount].map(String),
          );
        }
        expect(summary.totals.map((x) => x.currency).sort()).toEqual([...runTotals.keys()].sort());
      }),
      { numRuns: 12 },
    );
  });
});
