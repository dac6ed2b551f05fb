// Issue 11, point 1: createQuotation (document 1, create a quotation, rules 1 to 6; Quotation
// result), its explanations (point 7), its purity, and the charges ledger: a subscription created
// then raised records exactly the items its quotations gave (docs/billing.md, Charges).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { count, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { catalogOffers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { billingCharges } from '../../src/modules/billing/charges.tables.ts';
import { invoicedCompanyOf, markInvoiced, uninvoicedCharges } from '../../src/modules/billing/charges.service.ts';
import { buildWorld, caller, S, waitFor, type World } from '../commerce/subscriptions.fixture.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;
let catalogId: string;
const quote = (companyId: string, body: object, token = w.vadFinance.token, qs = '') =>
  call('POST', `${S}/companies/${companyId}/quotations${qs}`, body, token);
const offer = async (body: object): Promise<string> => {
  const res = await call('POST', `${S}/offers`, { name: `Quoted ${Math.random()}`, canBeSold: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as string;
  await t.db.insert(catalogOffers).values({ catalogId, offerId: id });
  return id;
};
/** A subscription made by the VAD's bp_finance and synchronised. */
async function active(companyId: string, body: object): Promise<{ id: string } & Record<string, unknown>> {
  const res = await call('POST', `${S}/companies/${companyId}/subscriptions`, body, w.vadFinance.token);
  expect(res.statusCode, res.body).toBe(201);
  return (await waitFor(t, companyId, res.json().data.id, (s) => s.status === 'active' && s.syncOngoing === false)) as {
    id: string;
  };
}
const rowsOf = async (subscriptionId: string) =>
  t.db
    .select()
    .from(billingCharges)
    .where(eq(billingCharges.subscriptionId, subscriptionId))
    .orderBy(billingCharges.createdAt);
/** A quotation's items as the ledger stores them (decimal text), for an exact comparison. */
const asNumbers = (items: Record<string, unknown>[]) =>
  items.map((i) => ({
    serviceStartDate: i.serviceStartDate,
    serviceEndDate: i.serviceEndDate,
    quantity: i.quantity,
    chargeAmount: Number(i.chargeAmount),
    taxAmount: Number(i.taxAmount),
    calculation: i.calculation,
    chargeName: i.chargeName,
    productName: i.productName,
  }));

let monthly: string;
let prepaid: string;
let usage: string;

beforeAll(async () => {
  // The clock moves on by days: tokens live a year.
  t = await createTestApp({ background: true, config: { jwtTtlSeconds: 365 * 86_400 } });
  call = caller(t);
  w = await buildWorld(t);
  [{ catalogId }] = (await t.db
    .select({ catalogId: companies.catalogId })
    .from(companies)
    .where(eq(companies.id, w.vad))) as { catalogId: string }[];
  monthly = await offer({
    businessModel: 'nb_users',
    billingProductRatePlanId: 'rp-monthly',
    billingProductRatePlanChargeId: 'rpc-monthly',
    prices: [
      { currency: 'EUR', amount: '5.00' },
      { currency: 'USD', amount: '6.00' },
    ],
  });
  prepaid = await offer({
    businessModel: 'nb_users',
    isPrepaid: true,
    prepaidDuration: 12,
    billingProductRatePlanId: 'rp-prepaid',
    prices: [{ currency: 'EUR', amount: '5.00' }],
  });
  usage = await offer({ businessModel: 'usage', prices: [{ currency: 'EUR', amount: '0.01' }] });
});
afterAll(() => t.close());

describe('doc 1, create a quotation: the Quotation result (issue 11, point 1)', () => {
  it('issue 11, point 1: a monthly offer quoted on 2026-11-21 gives every field of the Quotation result, numbers as JSON numbers, each item with its calculation', async () => {
    // The test clock stands at 2026-11-21: 10 users x 5.00 EUR x 10/30 days = 16.67, tax 20 % (FRA) 3.33.
    const res = await quote(w.ecVad, { offerId: monthly, maxNumberUsers: 10 });
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json().data;
    expect(q).toEqual({
      currency: 'EUR',
      contractedMrr: 50,
      totalContractedValue: null,
      totalDeltaMrr: 50,
      totalDeltaTcv: null,
      amount: 20,
      amountWithoutTax: 16.67,
      taxAmount: 3.33,
      invoiceTargetDate: '2026-12-01',
      expirationDate: null,
      invoiceItems: [
        {
          serviceStartDate: '2026-11-21',
          serviceEndDate: '2026-11-30',
          chargeAmount: 16.67,
          taxAmount: 3.33,
          chargeDescription: 'First month, prorated',
          chargeName: expect.stringContaining('monthly, per user'),
          productName: expect.any(String),
          productRatePlanChargeId: 'rpc-monthly',
          unitOfMeasure: 'users',
          quantity: 10,
          calculation: '10 users x 5.00 EUR x 10/30 days',
        },
      ],
      chargeMetrics: [
        {
          productRatePlanId: 'rp-monthly',
          productRatePlanChargeId: 'rpc-monthly',
          originRatePlanId: null,
          originalId: null,
          number: null,
          mrr: 50,
          dmrr: 50,
          tcv: null,
          dtcv: null,
        },
      ],
    });
  });

  it('issue 11, point 7: format=full adds the tax rate used on each item', async () => {
    const small = (await quote(w.ecVad, { offerId: monthly, maxNumberUsers: 10 })).json().data;
    expect(small.invoiceItems[0]).not.toHaveProperty('taxRate');
    const full = (await quote(w.ecVad, { offerId: monthly, maxNumberUsers: 10 }, undefined, '?format=full')).json()
      .data;
    expect(full.invoiceItems[0]).toMatchObject({ taxRate: 0.2 });
  });

  it("issue 11, money: charged in the invoiced BP's currency, never converted; an offer without a price in it cannot be quoted (400700)", async () => {
    await t.db.update(companies).set({ currency: 'USD' }).where(eq(companies.id, w.vad));
    try {
      const q = (await quote(w.ecIr, { offerId: monthly, maxNumberUsers: 10 })).json().data; // an IR's customer: the VAD is invoiced
      expect(q).toMatchObject({ currency: 'USD', contractedMrr: 60 });
      const res = await quote(w.ecVad, { offerId: prepaid, maxNumberUsers: 10 });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorDetailsCode).toBe(400700);
    } finally {
      await t.db.update(companies).set({ currency: null }).where(eq(companies.id, w.vad));
    }
  });

  it("issue 11, tax: the rate of the invoiced BP's country (a German VAD: 19 %)", async () => {
    await t.db.update(companies).set({ country: 'DEU' }).where(eq(companies.id, w.vad));
    try {
      const q = (await quote(w.ecVad, { offerId: monthly, maxNumberUsers: 10 }, undefined, '?format=full')).json().data;
      expect(q).toMatchObject({ amountWithoutTax: 16.67, taxAmount: 3.17, amount: 19.84 });
      expect(q.invoiceItems[0].taxRate).toBe(0.19);
    } finally {
      await t.db.update(companies).set({ country: 'FRA' }).where(eq(companies.id, w.vad));
    }
  });

  it('issue 11, point 1: a prepaid offer: the whole term up front, TCV, expirationDate', async () => {
    const q = (await quote(w.ecVad, { offerId: prepaid, maxNumberUsers: 10 })).json().data;
    expect(q).toMatchObject({
      contractedMrr: 50,
      totalContractedValue: 600,
      totalDeltaTcv: 600,
      amountWithoutTax: 600,
      taxAmount: 120,
      amount: 720,
      expirationDate: '2027-11-21T00:00:00.000Z',
    });
    expect(q.invoiceItems).toEqual([
      expect.objectContaining({
        serviceStartDate: '2026-11-21',
        serviceEndDate: '2027-11-20',
        calculation: '10 users x 5.00 EUR x 12 months',
      }),
    ]);
  });
});

describe('doc 1, create a quotation, rules 1 to 6', () => {
  it('doc 1, create a quotation, rule 1: superadmin and bp_finance (own company, its End Customers and BP IR) quote; admins alone are denied', async () => {
    const body = { offerId: monthly, maxNumberUsers: 1 };
    expect((await quote(w.ecVad, body, t.superToken)).statusCode).toBe(200);
    for (const c of [w.vad, w.ecVad, w.ir, w.ecIr]) expect((await quote(c, body)).statusCode, c).toBe(200);
    expect((await quote(w.ecVad, body, w.vadAdmin.token)).statusCode).toBe(403);
    expect((await quote(w.ecVad, body, w.ecVadAdmin.token)).statusCode).toBe(403);
    const orgAdmin = await makeUser(t, w.ecVad, ['organization_admin']);
    expect((await quote(w.ecVad, body, orgAdmin.token)).statusCode).toBe(403);
    // Another BP's bp_finance does not reach the VAD's customer.
    expect([403, 404]).toContain((await quote(w.ecVad, body, w.drFinance.token)).statusCode);
  });

  it('doc 1, create a quotation, rule 1: a bp_finance who is also organization_admin quotes for the whole organisation and the End Customers / BP IR linked to its BP companies; createSubscription (rule 5) keeps to the organisation', async () => {
    // The VAD belongs to an organisation; the caller sits in another company of it (not the VAD's).
    const org = newId();
    await t.db.insert(organisations).values({ id: org, name: `Org ${org}` });
    const home = await makeCompany(t, { isBP: true, bpType: 'DR', organisationId: org });
    await t.db.update(companies).set({ organisationId: org }).where(eq(companies.id, w.vad));
    try {
      const body = { offerId: monthly, maxNumberUsers: 1 };
      const both = await makeUser(t, home, ['bp_finance', 'organization_admin']);
      for (const c of [w.vad, w.ecVad, w.ir, w.ecIr])
        expect((await quote(c, body, both.token)).statusCode, c).toBe(200);
      // A company linked to a BP outside the organisation: refused.
      expect([403, 404]).toContain((await quote(w.ecDr, body, both.token)).statusCode);
      // bp_finance alone (its company is not their BP) does not reach them.
      const finance = await makeUser(t, home, ['bp_finance']);
      expect([403, 404]).toContain((await quote(w.ecVad, body, finance.token)).statusCode);
      // Create subscription rule 5 says "with organization_admin also the companies of the organisation": not their End Customers.
      const sub = await call(
        'POST',
        `${S}/companies/${w.ecVad}/subscriptions`,
        { offerId: monthly, maxNumberUsers: 1 },
        both.token,
      );
      expect([403, 404]).toContain(sub.statusCode);
    } finally {
      await t.db.update(companies).set({ organisationId: null }).where(eq(companies.id, w.vad));
    }
  });

  it('doc 1, create a quotation, rule 2: only nb_users, flat_fee and nb_services offers are quoted (usage, and offers without a price: 400701)', async () => {
    for (const offerId of [usage, w.offers.free]) {
      const res = await quote(w.ecVad, { offerId, maxNumberUsers: 3 });
      expect(res.statusCode, offerId).toBe(400);
      expect(res.json().errorDetailsCode).toBe(400701);
    }
    const flat = await offer({ businessModel: 'flat_fee', prices: [{ currency: 'EUR', amount: '30' }] });
    const q = (await quote(w.ecVad, { offerId: flat })).json().data;
    expect(q.invoiceItems[0]).toMatchObject({ quantity: 1, calculation: '30.00 EUR x 10/30 days', chargeAmount: 10 });
    const services = await offer({ businessModel: 'nb_services', prices: [{ currency: 'EUR', amount: '2' }] });
    expect((await quote(w.ecVad, { offerId: services, maxNumberUsers: 3 })).json().data.invoiceItems[0]).toMatchObject({
      calculation: '3 services x 2.00 EUR x 10/30 days',
      chargeAmount: 2,
    });
  });

  it('doc 1, create a quotation, rule 3: the company must be a BP company or linked to one (400702)', async () => {
    const lone = await makeCompany(t);
    const res = await quote(lone, { offerId: monthly, maxNumberUsers: 1 }, t.superToken);
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400702);
  });

  it("doc 1, create a quotation, rule 4: a resell BP's applicant number must be known to the partner order system (400671)", async () => {
    const res = await quote(w.ecUnknown, { offerId: monthly, maxNumberUsers: 1 }, t.superToken);
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400671);
  });

  it("doc 1, create a quotation, rule 5: with offerId, an offer outside the catalog of the company's BP gives 403", async () => {
    const res = await quote(w.ecVad, { offerId: w.offers.outside, maxNumberUsers: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403600);
  });

  it('doc 1, create a quotation, rule 6: offerId quotes a creation, subscriptionId a change (raise only); one of them, not both', async () => {
    const both = await quote(w.ecVad, { offerId: monthly, subscriptionId: 'x', maxNumberUsers: 1 });
    expect(both.json().errorDetailsCode).toBe(400703);
    expect((await quote(w.ecVad, { maxNumberUsers: 1 })).json().errorDetailsCode).toBe(400703);
    const sub = await active(w.ecVad, { offerId: monthly, maxNumberUsers: 10 });
    // A raise mid-month: the delta for the remaining days (2026-11-21..30).
    const raise = (await quote(w.ecVad, { subscriptionId: sub.id, maxNumberUsers: 15 })).json().data;
    expect(raise).toMatchObject({ contractedMrr: 75, totalDeltaMrr: 25, amountWithoutTax: 8.33, amount: 10 });
    expect(raise.invoiceItems).toEqual([
      expect.objectContaining({ quantity: 5, calculation: '5 users x 5.00 EUR x 10/30 days' }),
    ]);
    // On an update, the chargeMetrics name the subscription changed.
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(raise.chargeMetrics[0]).toMatchObject({
      originRatePlanId: 'rp-monthly',
      originalId: row.billingSubscriptionId,
      number: sub.id,
    });
    const lower = await quote(w.ecVad, { subscriptionId: sub.id, maxNumberUsers: 9 });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().errorDetailsCode).toBe(400704);
    // prepaidDuration is for prepaid subscriptions, raised only.
    expect((await quote(w.ecVad, { subscriptionId: sub.id, prepaidDuration: 24 })).json().errorDetailsCode).toBe(
      400704,
    );
    // Another company's subscription is not found.
    expect((await quote(w.ecIr, { subscriptionId: sub.id, maxNumberUsers: 20 })).statusCode).toBe(404);
  });
});

describe('issue 11, point 1: a quotation is pure; the change it quotes records exactly its items', () => {
  it('issue 11, point 1: a quotation changes nothing and emits nothing (no subscription, no charge, no outbox entry), even with an Idempotency-Key', async () => {
    const counts = async () => [
      (await t.db.select({ n: count() }).from(subscriptions))[0].n,
      (await t.db.select({ n: count() }).from(billingCharges))[0].n,
      (await t.db.select({ n: count() }).from(outbox))[0].n,
    ];
    const before = await counts();
    const res = await call(
      'POST',
      `${S}/companies/${w.ecVad}/quotations`,
      { offerId: prepaid, maxNumberUsers: 3 },
      w.vadFinance.token,
      { 'idempotency-key': 'quote-1' },
    );
    expect(res.statusCode).toBe(200);
    expect(await counts()).toEqual(before);
  });

  it('issue 11, charges: creating then raising a subscription (monthly and prepaid) records exactly the items the quotations gave, invoiced to the VAD', async () => {
    for (const [offerId, company] of [
      [monthly, w.ecIr],
      [prepaid, w.ecVad],
    ] as const) {
      const created = (await quote(company, { offerId, maxNumberUsers: 10 })).json().data;
      const sub = await active(company, { offerId, maxNumberUsers: 10 });
      t.clock.advance(3 * 86_400_000);
      const raised = (await quote(company, { subscriptionId: sub.id, maxNumberUsers: 14 })).json().data;
      const res = await call(
        'PUT',
        `${S}/companies/${company}/subscriptions/${sub.id}`,
        { maxNumberUsers: 14 },
        w.vadFinance.token,
      );
      expect(res.statusCode, res.body).toBe(200);
      const rows = await rowsOf(sub.id);
      expect(rows).toHaveLength(2);
      expect(rows.map((r) => r.invoicedCompanyId)).toEqual([w.vad, w.vad]);
      expect(asNumbers(rows[0].items as unknown as Record<string, unknown>[])).toEqual(asNumbers(created.invoiceItems));
      expect(asNumbers(rows[1].items as unknown as Record<string, unknown>[])).toEqual(asNumbers(raised.invoiceItems));
      expect(raised.invoiceItems.length).toBe(1);
      await waitFor(t, company, sub.id, (s) => s.syncOngoing === false);
    }
  });

  it('issue 11, charges: a decrease records nothing; the billing run reads the uninvoiced charges and marks them once', async () => {
    const sub = await active(w.ecVad, { offerId: monthly, maxNumberUsers: 8 });
    expect(
      (
        await call(
          'PUT',
          `${S}/companies/${w.ecVad}/subscriptions/${sub.id}`,
          { maxNumberUsers: 4 },
          w.vadFinance.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await rowsOf(sub.id)).toHaveLength(1);
    const today = t.clock.now().toISOString().slice(0, 10);
    const tomorrow = new Date(t.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10);
    const open = await uninvoicedCharges(t.db, w.vad, tomorrow);
    expect(open.map((c) => c.subscriptionId)).toContain(sub.id);
    expect((await uninvoicedCharges(t.db, w.vad, today)).map((c) => c.subscriptionId)).not.toContain(sub.id);
    const ids = open.map((c) => c.id);
    expect(await markInvoiced(t.db, ids, 'inv-1')).toHaveLength(ids.length);
    expect(await markInvoiced(t.db, ids, 'inv-2')).toEqual([]);
    expect(await uninvoicedCharges(t.db, w.vad, tomorrow)).toEqual([]);
  });

  it("issue 11, charges: who is invoiced: an End Customer's BP (DR or VAD); for a BP IR and its End Customers, the IR's VAD; a DR or VAD for its own; nobody for a company without a BP", async () => {
    const who = async (id: string) => (await invoicedCompanyOf(t.db, id))?.id;
    expect(await who(w.ecVad)).toBe(w.vad);
    expect(await who(w.ecIr)).toBe(w.vad);
    expect(await who(w.ir)).toBe(w.vad);
    expect(await who(w.vad)).toBe(w.vad);
    expect(await who(w.ecDr)).toBe(w.dr);
    expect(await who(w.dr)).toBe(w.dr);
    expect(await who(await makeCompany(t))).toBeUndefined();
    const loneIr = await makeCompany(t, { isBP: true, bpType: 'IR' });
    expect(await who(await makeCompany(t, { bpId: loneIr }))).toBe(loneIr);
  });

  it('issue 11, charges: an offer without prices (free, usage, demo) charges nothing', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.flat });
    expect(await rowsOf(sub.id)).toEqual([]);
  });
});
