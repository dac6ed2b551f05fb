// Issue 10, points 2, 5 and 6: reading, updating and deleting subscriptions (document 1, list
// and get a subscription, the default subscription, update rules 1 to 8, delete), the licence
// counters and two concurrent updates.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import type { TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { catalogOffers, licences, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { billingCharges } from '../../src/modules/billing/charges.tables.ts';
import { invoiceItems, invoices } from '../../src/modules/billing/invoices.tables.ts';
import { priceChange } from '../../src/modules/billing/pricing.ts';
import { pricedOffer } from '../../src/modules/billing/charges.service.ts';
import { addDefaultSubscription } from '../../src/modules/commerce/commerce.api.ts';
import { SUBSCRIPTION_FORMATS } from '../../src/modules/commerce/subscriptions.schemas.ts';
import { endExpiredSubscriptions } from '../../src/modules/commerce/subscriptions.service.ts';
import { startWorld, caller, eventsOf, S, waitFor, type World } from './subscriptions.fixture.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;
const url = (companyId: string, id = '') => `${S}/companies/${companyId}/subscriptions${id ? `/${id}` : ''}`;
/** A subscription made by the VAD's bp_finance and synchronised. */
async function active(
  companyId: string,
  body: object,
  token = w.vadFinance.token,
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await call('POST', url(companyId), body, token);
  expect(res.statusCode, res.body).toBe(201);
  return (await waitFor(t, companyId, res.json().data.id, (s) => s.status === 'active')) as { id: string };
}
const licence = async (subscriptionId: string, companyId: string) => {
  const u = await makeUser(t, companyId);
  await t.db.insert(licences).values({ subscriptionId, userId: u.id, userCompanyId: companyId });
  const [s] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  await t.db
    .update(subscriptions)
    .set({ numberAssignedUsers: s.numberAssignedUsers + 1 })
    .where(eq(subscriptions.id, subscriptionId));
};

beforeAll(async () => {
  ({ t, call, w } = await startWorld());
  for (const c of [w.ecVad, w.ecIr, w.ir]) await addDefaultSubscription(t.db, c, t.clock.now());
});
afterAll(() => t.close());

describe('issue 10, point 2: read subscriptions', () => {
  it('doc 1, list subscriptions: format small (default), medium and full; terminated ones only with showTerminated=true (sent as a string)', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.flat });
    const list = async (qs: string) =>
      (await call('GET', `${url(w.ecVad)}${qs}`, undefined, w.vadFinance.token)).json().data as Record<
        string,
        unknown
      >[];
    const small = (await list('')).find((s) => s.id === sub.id)!;
    expect(Object.keys(small).sort()).toEqual([...SUBSCRIPTION_FORMATS.small].sort());
    expect(Object.keys((await list('?format=medium')).find((s) => s.id === sub.id)!).sort()).toEqual(
      [...SUBSCRIPTION_FORMATS.medium].sort(),
    );
    expect((await list('?format=full')).find((s) => s.id === sub.id)).toMatchObject({
      billingSubscriptionId: expect.any(String),
      createdBy: { userId: w.vadFinance.id },
    });
    expect((await call('DELETE', url(w.ecVad, sub.id), undefined, w.vadFinance.token)).statusCode).toBe(200);
    expect((await list('')).map((s) => s.id)).not.toContain(sub.id);
    expect((await list('?showTerminated=true')).find((s) => s.id === sub.id)).toMatchObject({ status: 'terminated' });
  });

  it("doc 1, licence counters: an IR company's nb_users subscription counts its own users' and its End Customers' licences (list at full, get always); others give numberAssignedUsers", async () => {
    await t.db.update(companies).set({ adminHasRightToUpdateSubscriptions: true }).where(eq(companies.id, w.ir));
    const sub = await active(w.ir, { offerId: w.offers.nbUsers, maxNumberUsers: 10 });
    await licence(sub.id, w.ir);
    await licence(sub.id, w.ecIr);
    await licence(sub.id, w.ecIr);
    const counters = {
      nbBPLicences: 10,
      nbAssignedBPUsers: 1,
      nbLicencesAssignedToECs: 2,
      nbLicencesUsed: 3,
      nbFreeLicences: 7,
      numberAssignedUsers: 3,
    };
    expect((await call('GET', url(w.ir, sub.id), undefined, w.vadFinance.token)).json().data).toMatchObject(counters);
    expect(
      (await call('GET', `${url(w.ir)}?format=full`)).json().data.find((s: { id: string }) => s.id === sub.id),
    ).toMatchObject(counters);
    expect(
      (await call('GET', `${url(w.ir)}?format=medium`)).json().data.find((s: { id: string }) => s.id === sub.id),
    ).not.toHaveProperty('nbBPLicences');
    // Not an IR company: numberAssignedUsers only.
    const ec = await active(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 4 });
    await licence(ec.id, w.ecVad);
    const got = (await call('GET', url(w.ecVad, ec.id))).json().data;
    expect(got).toMatchObject({ numberAssignedUsers: 1 });
    expect(got).not.toHaveProperty('nbBPLicences');
  });

  it("doc 1, get the default subscription: the company's subscription to the default offer, for its overseers", async () => {
    const res = await call('GET', `${url(w.ecVad)}/default`, undefined, w.ecVadAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ companyId: w.ecVad, isDefault: true, status: 'active' });
    expect((await call('GET', `${url(w.ecDr)}/default`, undefined, w.vadFinance.token)).statusCode).toBe(404);
  });

  it('doc 1, get a subscription: of another company in the path, 404', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.flat });
    expect((await call('GET', url(w.ecIr, sub.id))).statusCode).toBe(404);
    expect((await call('GET', url(w.ecVad, sub.id), undefined, w.businessAdmin.token)).json().errorDetailsCode).toBe(
      400672,
    );
  });
});

describe('issue 10, point 2: update a subscription, rules 1 to 8', () => {
  it('doc 1, update subscription, rules 1 and 2: syncOngoing and updatingMaxNumberUsers until synchronised, then the new maximum; refused while syncOngoing', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 5 });
    const hold = t.deps.background!.ports.controls.billing.hold();
    try {
      const res = await call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: '8' }, w.vadFinance.token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ syncOngoing: true, maxNumberUsers: 5, updatingMaxNumberUsers: 8 });
      expect((await call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: 9 }, w.vadFinance.token)).json()).toMatchObject(
        { errorCode: 409, errorDetailsCode: 409670 },
      );
    } finally {
      hold();
    }
    const done = await waitFor(t, w.ecVad, sub.id, (s) => s.syncOngoing === false);
    expect(done).toMatchObject({ maxNumberUsers: 8, updatingMaxNumberUsers: null, status: 'active' });
    expect(await t.deps.background!.ports.orders.getOrder(done.bsSubscriptionId as string)).toMatchObject({
      quantity: 8,
    });
    expect(await t.deps.background!.ports.billing.getSubscription(done.billingSubscriptionId as string)).toMatchObject({
      quantity: 8,
    });
    expect(
      (await eventsOf(t, sub.id)).filter(
        (e) => e.action === 'update' && e.xml.includes('<maxNumberUsers>8</maxNumberUsers>'),
      ).length,
    ).toBeGreaterThan(0);
    // Rule 1: maxNumberUsers only on licence offers.
    const flat = await active(w.ecVad, { offerId: w.offers.flat });
    expect(
      (await call('PUT', url(w.ecVad, flat.id), { maxNumberUsers: 3 }, w.vadFinance.token)).json().errorDetailsCode,
    ).toBe(400680);
    expect(
      (await call('PUT', url(w.ecVad, flat.id), { autoRenew: false }, w.vadFinance.token)).json().errorDetailsCode,
    ).toBe(400680);
  });

  it("doc 1, update subscription, rule 4: company_admin updates his own company's subscriptions, except when the company is linked to a BP IR", async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 2 });
    expect((await call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: 3 }, w.ecVadAdmin.token)).statusCode).toBe(200);
    const ofIr = await active(w.ecIr, { offerId: w.offers.nbUsers, maxNumberUsers: 2 });
    expect((await call('PUT', url(w.ecIr, ofIr.id), { maxNumberUsers: 3 }, w.ecIrAdmin.token)).json()).toMatchObject({
      errorCode: 403,
      errorDetailsCode: 403670,
    });
    const demo = await active(w.ecVad, { offerId: w.offers.demo, maxNumberUsers: 2 });
    expect(
      (await call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: 4 }, w.businessAdmin.token)).json().errorDetailsCode,
    ).toBe(400672);
    expect((await call('PUT', url(w.ecVad, demo.id), { maxNumberUsers: 4 }, w.businessAdmin.token)).statusCode).toBe(
      200,
    );
  });

  it("doc 1, update subscription, rule 5: the BP forbids its End Customer's admins to update (adminHasRightToUpdateSubscriptions) or to do more than increase (increase_only)", async () => {
    const ec = await makeCompany(t, { bpId: w.vad });
    const admin = await makeUser(t, ec, ['company_admin']);
    const sub = await active(ec, { offerId: w.offers.nbUsers, maxNumberUsers: 5 });
    await t.db.update(companies).set({ adminHasRightToUpdateSubscriptions: false }).where(eq(companies.id, ec));
    expect((await call('PUT', url(ec, sub.id), { maxNumberUsers: 6 }, admin.token)).json().errorDetailsCode).toBe(
      403670,
    );
    await t.db
      .update(companies)
      .set({ adminHasRightToUpdateSubscriptions: true, adminAllowedUpdateSubscriptionsOps: 'increase_only' })
      .where(eq(companies.id, ec));
    expect((await call('PUT', url(ec, sub.id), { maxNumberUsers: 4 }, admin.token)).json().errorDetailsCode).toBe(
      403670,
    );
    expect(
      (await call('PUT', url(ec, sub.id), { maxNumberUsers: 7, purchaseOrderNumber: 'x' }, admin.token)).json()
        .errorDetailsCode,
    ).toBe(403670);
    expect((await call('PUT', url(ec, sub.id), { maxNumberUsers: 7 }, admin.token)).statusCode).toBe(200);
    await waitFor(t, ec, sub.id, (s) => s.syncOngoing === false);
    // The BP's bp_finance is not bound by the flags.
    expect((await call('PUT', url(ec, sub.id), { maxNumberUsers: 6 }, w.vadFinance.token)).statusCode).toBe(200);
  });

  it('doc 1, update subscription, rule 7: a monthly subscription is raised to any value and lowered down to numberAssignedUsers, never below', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 5 });
    await licence(sub.id, w.ecVad);
    await licence(sub.id, w.ecVad);
    expect((await call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: 1 }, w.vadFinance.token)).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400681,
      errorDetails: { numberAssignedUsers: 2 },
    });
    expect((await call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: 2 }, w.vadFinance.token)).statusCode).toBe(200);
  });

  it("doc 1, update subscription, rule 6: a prepaid subscription is raised to any value; lowered only by this month's add-on, until the 1st of next month", async () => {
    const prepaid = await active(w.ecVad, { offerId: w.offers.prepaid, maxNumberUsers: 5 });
    const put = async (body: object) => {
      const res = await call('PUT', url(w.ecVad, prepaid.id), body, w.vadFinance.token);
      if (res.statusCode === 200) await waitFor(t, w.ecVad, prepaid.id, (s) => s.syncOngoing === false);
      return res;
    };
    expect((await put({ maxNumberUsers: 4 })).json().errorDetailsCode).toBe(400682); // no add-on yet
    expect((await put({ maxNumberUsers: 9 })).statusCode).toBe(200); // an add-on of 4
    expect((await put({ maxNumberUsers: 7 })).statusCode).toBe(200); // 2 of it taken back
    expect((await put({ maxNumberUsers: 4 })).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400682,
      errorDetails: { addOnThisMonth: 2 },
    });
    expect((await put({ maxNumberUsers: 5 })).statusCode).toBe(200);
    expect((await put({ maxNumberUsers: 8 })).statusCode).toBe(200); // another add-on of 3
    // Next month the add-on is part of the subscription.
    await t.db
      .update(subscriptions)
      .set({ prepaidAddOnDate: new Date('2026-10-15T00:00:00.000Z') })
      .where(eq(subscriptions.id, prepaid.id));
    expect((await put({ maxNumberUsers: 7 })).json().errorDetailsCode).toBe(400682);
    expect((await put({ prepaidDuration: 12 })).statusCode).toBe(200);
  });

  it('doc 1, update subscription, rule 6, with issue 11: the add-on taken back is credited in the ledger, and the next invoice carries the charge and its credit', async () => {
    const o = await call('POST', `${S}/offers`, {
      name: 'Prepaid priced',
      canBeSold: true,
      businessModel: 'nb_users',
      isPrepaid: true,
      prepaidDuration: 12,
      prices: [{ currency: 'EUR', amount: '5.00' }],
    });
    expect(o.statusCode, o.body).toBe(201);
    const offer = o.json().data;
    const [vad] = await t.db.select({ catalogId: companies.catalogId }).from(companies).where(eq(companies.id, w.vad));
    await t.db.insert(catalogOffers).values({ catalogId: vad.catalogId!, offerId: offer.id });
    const ec = await makeCompany(t, { bpId: w.vad });
    const sub = await active(ec, { offerId: offer.id, maxNumberUsers: 10 });
    for (const n of [15, 12]) {
      expect((await call('PUT', url(ec, sub.id), { maxNumberUsers: n }, w.vadFinance.token)).statusCode).toBe(200);
      await waitFor(t, ec, sub.id, (s) => s.syncOngoing === false);
    }
    const ledger = await t.db
      .select()
      .from(billingCharges)
      .where(eq(billingCharges.subscriptionId, sub.id))
      .orderBy(billingCharges.createdAt);
    const items = ledger.flatMap((c) => c.items);
    expect(items.map((i) => [i.kind, i.quantity])).toEqual([
      ['prepaid-term', 10],
      ['prepaid-add-on', 5],
      ['prepaid-take-back', 3],
    ]);
    // The credit is the pricing function's, for 3 units from today to the end of the term: the mirror of a 3-unit add-on today.
    const mirror = priceChange(
      pricedOffer(
        { ...offer, isDefault: false, billingProductRatePlanId: null, billingProductRatePlanChargeId: null },
        ledger[0].currency,
      ),
      { date: '2026-11-21', termStart: '2026-11-21', before: { quantity: 12 }, after: { quantity: 15 } },
      items[2].taxRate,
    );
    expect(items[2]).toMatchObject({
      chargeAmount: `-${mirror.items[0].chargeAmount}`,
      taxAmount: `-${mirror.items[0].taxAmount}`,
      serviceStartDate: '2026-11-21',
    });
    // The run of the next period (charges dated before its 1st) invoices the three items; the total is their sum.
    const run = await call('POST', `${S}/billing-runs`, { billingPeriod: '2026-12' });
    expect(run.statusCode, run.body).toBe(200);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.companyId, w.vad));
    const lines = await t.db.select().from(invoiceItems).where(eq(invoiceItems.invoiceId, inv.id));
    const mine = lines.filter((l) => l.subscriptionId === sub.id);
    expect(mine.map((l) => l.chargeAmount).sort()).toEqual(items.map((i) => i.chargeAmount).sort());
  });

  it('doc 1, update subscription, rule 8: autoRenew false on a prepaid subscription keeps its expirationDate as its end', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.prepaid, maxNumberUsers: 5 });
    expect(sub).toMatchObject({ autoRenew: true, expirationDate: '2027-11-21T08:00:00.000Z' });
    const res = await call('PUT', url(w.ecVad, sub.id), { autoRenew: 'false' }, w.vadFinance.token);
    expect(res.json().data).toMatchObject({ autoRenew: false, expirationDate: '2027-11-21T08:00:00.000Z' });
  });

  it('issue 10, point 5: two concurrent updates of one subscription: one wins, the other gets 409', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 5 });
    const [a, b] = await Promise.all(
      [6, 7].map((n) => call('PUT', url(w.ecVad, sub.id), { maxNumberUsers: n }, w.vadFinance.token)),
    );
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? 6 : 7;
    const done = await waitFor(t, w.ecVad, sub.id, (s) => s.syncOngoing === false);
    expect(done.maxNumberUsers).toBe(winner);
  });
});

describe('issue 10, point 2: delete a subscription', () => {
  it('doc 1, delete: never the default subscription', async () => {
    const def = (await call('GET', `${url(w.ecVad)}/default`)).json().data;
    expect((await call('DELETE', url(w.ecVad, def.id))).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400676,
    });
  });

  it("doc 1, delete: a free offer unknown to billing is removed, its licences unassigned; the delete message goes to the company_admins and the BP's bp_admin and bp_finance", async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.free, maxNumberUsers: 3 });
    await licence(sub.id, w.ecVad);
    const res = await call('DELETE', url(w.ecVad, sub.id), undefined, w.vadFinance.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: `Subscription ${sub.id} deleted`, data: [] });
    expect((await call('GET', url(w.ecVad, sub.id))).statusCode).toBe(404);
    expect(await t.db.select().from(licences).where(eq(licences.subscriptionId, sub.id))).toEqual([]);
    const deletes = (await eventsOf(t, sub.id)).filter((e) => e.action === 'delete');
    expect(deletes.map((e) => e.userId).sort()).toEqual([w.vadFinance.id, w.vadAdmin.id, w.ecVadAdmin.id].sort());
    expect(deletes[0].xml).not.toContain('<offerId>');
  });

  it('doc 1, delete: a subscription known to billing is terminated, its licences unassigned (counter 0), its order and billing subscription cancelled', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 3 });
    await licence(sub.id, w.ecVad);
    const res = await call('DELETE', url(w.ecVad, sub.id), undefined, w.vadFinance.token);
    expect(res.json()).toEqual({ status: `Subscription ${sub.id} terminated`, data: [] });
    expect((await call('GET', url(w.ecVad, sub.id))).json().data).toMatchObject({
      status: 'terminated',
      numberAssignedUsers: 0,
      syncOngoing: false,
    });
    expect(await t.db.select().from(licences).where(eq(licences.subscriptionId, sub.id))).toEqual([]);
    const { orders, billing } = t.deps.background!.ports;
    const end = Date.now() + 10_000;
    // The job cancels the order, then the billing subscription.
    while (
      (await billing.getSubscription(sub.billingSubscriptionId as string))?.status !== 'cancelled' &&
      Date.now() < end
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(await orders.getOrder(sub.bsSubscriptionId as string)).toMatchObject({ status: 'cancelled' });
    expect(await billing.getSubscription(sub.billingSubscriptionId as string)).toMatchObject({ status: 'cancelled' });
    expect((await call('DELETE', url(w.ecVad, sub.id), undefined, w.vadFinance.token)).json().errorDetailsCode).toBe(
      400678,
    );
  });

  it('doc 1, delete: a prepaid subscription only during its month of creation', async () => {
    const keep = await active(w.ecVad, { offerId: w.offers.prepaid, maxNumberUsers: 2 });
    const gone = await active(w.ecVad, { offerId: w.offers.prepaid, maxNumberUsers: 2 });
    expect((await call('DELETE', url(w.ecVad, gone.id), undefined, w.vadFinance.token)).statusCode).toBe(200);
    // Made on the last day of October: it is November now.
    await t.db
      .update(subscriptions)
      .set({ creationDate: new Date('2026-10-31T23:00:00.000Z') })
      .where(eq(subscriptions.id, keep.id));
    expect((await call('DELETE', url(w.ecVad, keep.id), undefined, w.vadFinance.token)).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400677,
    });
  });

  it('doc 1, delete: business_admin demo subscriptions only (400); company_admin denied', async () => {
    const sub = await active(w.ecVad, { offerId: w.offers.flat });
    expect((await call('DELETE', url(w.ecVad, sub.id), undefined, w.businessAdmin.token)).json().errorDetailsCode).toBe(
      400672,
    );
    expect((await call('DELETE', url(w.ecVad, sub.id), undefined, w.ecVadAdmin.token)).statusCode).toBe(403);
  });
});

describe("issue 10, point 2: a BP IR's bp_finance and its own company (create rule 7 kept for update and delete: docs/decisions.md)", () => {
  const flag = (v: boolean) =>
    t.db.update(companies).set({ adminHasRightToUpdateSubscriptions: v }).where(eq(companies.id, w.ir));

  it("doc 1, create subscription rule 7, for update: the IR's bp_finance updates its own company's prepaid subscriptions while the VAD's flag is set; not its other ones; the VAD's bp_finance not its own", async () => {
    await flag(true);
    const prepaid = await active(w.ir, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token);
    const monthly = await active(w.ir, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }, t.superToken); // bought by the superadmin
    const raised = await call('PUT', url(w.ir, prepaid.id), { maxNumberUsers: 3 }, w.irFinance.token);
    expect(raised.statusCode, raised.body).toBe(200);
    await waitFor(t, w.ir, prepaid.id, (s) => s.syncOngoing === false);
    expect((await call('PUT', url(w.ir, monthly.id), { maxNumberUsers: 3 }, w.irFinance.token)).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400675,
    });
    await flag(false);
    try {
      expect(
        (await call('PUT', url(w.ir, prepaid.id), { maxNumberUsers: 4 }, w.irFinance.token)).json().errorDetailsCode,
      ).toBe(400675);
    } finally {
      await flag(true);
    }
    // Rule 1 of create, kept: a VAD's bp_finance does not act on its own company's subscriptions.
    const ofVad = await active(w.vad, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }, t.superToken);
    expect((await call('PUT', url(w.vad, ofVad.id), { maxNumberUsers: 3 }, w.vadFinance.token)).json()).toMatchObject({
      errorCode: 403,
      errorDetailsCode: 403001,
    });
    expect((await call('DELETE', url(w.vad, ofVad.id), undefined, w.vadFinance.token)).json()).toMatchObject({
      errorCode: 403,
      errorDetailsCode: 403001,
    });
  });

  it("doc 1, create subscription rule 7, for delete: the IR's bp_finance terminates its own company's prepaid subscription (in its month of creation) while the VAD's flag is set", async () => {
    await flag(true);
    const a = await active(w.ir, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token);
    const b = await active(w.ir, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token);
    const monthly = await active(w.ir, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }, t.superToken);
    expect((await call('DELETE', url(w.ir, monthly.id), undefined, w.irFinance.token)).json().errorDetailsCode).toBe(
      400675,
    );
    const res = await call('DELETE', url(w.ir, a.id), undefined, w.irFinance.token);
    expect(res.json(), res.body).toEqual({ status: `Subscription ${a.id} terminated`, data: [] });
    await flag(false);
    try {
      expect((await call('DELETE', url(w.ir, b.id), undefined, w.irFinance.token)).json().errorDetailsCode).toBe(
        400675,
      );
    } finally {
      await flag(true);
    }
  });
});

describe('issue 10, point 2: the end of a prepaid subscription', () => {
  it('doc 1, update subscription, rule 8: a prepaid subscription whose autoRenew is false is terminated at its expirationDate (its licences unassigned, the delete message sent); one that renews is not', async () => {
    const ending = await active(w.ecVad, { offerId: w.offers.prepaid, maxNumberUsers: 3 });
    const renewing = await active(w.ecVad, { offerId: w.offers.prepaid, maxNumberUsers: 3 });
    expect((await call('PUT', url(w.ecVad, ending.id), { autoRenew: false }, w.vadFinance.token)).statusCode).toBe(200);
    await waitFor(t, w.ecVad, ending.id, (s) => s.syncOngoing === false);
    await licence(ending.id, w.ecVad);
    const at = new Date('2027-11-21T08:00:00.000Z');
    expect(
      await endExpiredSubscriptions(t.db, new Date(at.getTime() - 1000), { queue: t.deps.background!.queue }),
    ).toBe(0);
    expect(await endExpiredSubscriptions(t.db, at, { queue: t.deps.background!.queue })).toBeGreaterThan(0); // with rule 8's subscription above
    expect(await endExpiredSubscriptions(t.db, at, { queue: t.deps.background!.queue })).toBe(0);
    expect((await call('GET', url(w.ecVad, ending.id))).json().data).toMatchObject({
      status: 'terminated',
      numberAssignedUsers: 0,
      terminationDate: at.toISOString(),
    });
    expect(await t.db.select().from(licences).where(eq(licences.subscriptionId, ending.id))).toEqual([]);
    expect((await eventsOf(t, ending.id)).some((e) => e.action === 'delete')).toBe(true);
    expect((await call('GET', url(w.ecVad, renewing.id))).json().data.status).toBe('active');
  });
});
