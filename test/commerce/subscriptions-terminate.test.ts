// Document 1, delete or terminate a subscription: "Free-offer subscriptions are removed; others get
// status terminated". A free offer has no price above zero and no rate plan (isFreeOffer, the one
// definition); any other subscription is terminated, stays readable, and keeps its charges and
// invoices. The other ways a subscription ends (update rule 8's expiry, company deletion) never
// remove one.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import type { TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { catalogOffers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { billingCharges } from '../../src/modules/billing/charges.tables.ts';
import { invoiceItems } from '../../src/modules/billing/invoices.tables.ts';
import { isFreeOffer } from '../../src/modules/commerce/money.ts';
import { addDefaultSubscription } from '../../src/modules/commerce/commerce.api.ts';
import { newId } from '../../src/shared/ids.ts';
import { endExpiredSubscriptions } from '../../src/modules/commerce/subscriptions.service.ts';
import { startWorld, caller, S, waitFor, type World } from './subscriptions.fixture.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;
const url = (companyId: string, id = '') => `${S}/companies/${companyId}/subscriptions${id ? `/${id}` : ''}`;

/** A new offer in the VAD's catalog. */
async function offer(body: object): Promise<string> {
  const res = await call('POST', `${S}/offers`, { name: `Offer ${newId()}`, canBeSold: true, ...body });
  expect(res.statusCode, res.body).toBe(201);
  const [vad] = await t.db.select({ catalogId: companies.catalogId }).from(companies).where(eq(companies.id, w.vad));
  await t.db.insert(catalogOffers).values({ catalogId: vad.catalogId!, offerId: res.json().data.id });
  return res.json().data.id as string;
}

/** A subscription made by the VAD's bp_finance and synchronised. */
async function active(companyId: string, body: object): Promise<{ id: string } & Record<string, unknown>> {
  const res = await call('POST', url(companyId), body, w.vadFinance.token);
  expect(res.statusCode, res.body).toBe(201);
  return (await waitFor(t, companyId, res.json().data.id, (s) => s.status === 'active')) as { id: string };
}

const del = (companyId: string, id: string) => call('DELETE', url(companyId, id), undefined, w.vadFinance.token);
const listed = async (companyId: string, qs: string) =>
  ((await call('GET', `${url(companyId)}${qs}`, undefined, w.vadFinance.token)).json().data as { id: string }[]).map(
    (s) => s.id,
  );

/** Polls until `done` holds (the synchronisation job runs in the background), or fails after 10 s. */
async function eventually(what: string, done: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  ({ t, call, w } = await startWorld());
});
afterAll(() => t.close());

describe('doc 1, delete subscription: free-offer subscriptions are removed, others terminated', () => {
  it('doc 1, delete subscription: an offer is free when it has no price above zero in any currency and no rate plan', () => {
    const none = { billingProductRatePlanId: null };
    expect(isFreeOffer({ ...none, prices: [] })).toBe(true);
    expect(
      isFreeOffer({
        ...none,
        prices: [
          { currency: 'EUR', amount: '0' },
          { currency: 'USD', amount: '0.000000' },
        ],
      }),
    ).toBe(true);
    expect(
      isFreeOffer({
        ...none,
        prices: [
          { currency: 'EUR', amount: '0' },
          { currency: 'USD', amount: '0.000001' },
        ],
      }),
    ).toBe(false);
    expect(isFreeOffer({ billingProductRatePlanId: 'rp-1', prices: [] })).toBe(false);
  });

  it('doc 1, delete subscription: a free offer (no price, or only zero prices; no rate plan) is removed; what its synchronisation made (order, provisioning) is undone', async () => {
    const zero = await offer({
      businessModel: 'nb_users',
      prices: [
        { currency: 'EUR', amount: '0.00' },
        { currency: 'USD', amount: '0' },
      ],
    });
    const { orders, providers } = t.deps.background!.ports;
    for (const body of [
      { offerId: w.offers.free, maxNumberUsers: 3 },
      { offerId: zero, maxNumberUsers: 3 },
      { offerId: w.offers.media },
    ]) {
      const sub = await active(w.ecVad, body);
      const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
      const res = await del(w.ecVad, sub.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: `Subscription ${sub.id} deleted`, data: [] });
      expect((await call('GET', url(w.ecVad, sub.id))).statusCode).toBe(404);
      expect(await listed(w.ecVad, '?showTerminated=true')).not.toContain(sub.id);
      await eventually(
        'order cancelled',
        async () => (await orders.getOrder(row.bsSubscriptionId!))?.status === 'cancelled',
      );
      for (const p of row.provisioning)
        await eventually(
          'provisioning removed',
          async () => (await providers.get(p.providerId!))?.status === 'removed',
        );
    }
  });

  it('doc 1, delete subscription: a priced offer without a rate plan is terminated, stays readable (GET, list with showTerminated=true), and keeps its charges and invoice', async () => {
    const priced = await offer({ businessModel: 'nb_users', prices: [{ currency: 'EUR', amount: '10.00' }] });
    const ec = await makeCompany(t, { bpId: w.vad });
    const sub = await active(ec, { offerId: priced, maxNumberUsers: 4 });
    const charges = await t.db.select().from(billingCharges).where(eq(billingCharges.subscriptionId, sub.id));
    expect(charges.length).toBeGreaterThan(0);
    // The service's own billing run invoices it (the next 1st, run ahead).
    const run = await call('POST', `${S}/billing-runs`, { billingPeriod: '2026-12' });
    expect(run.statusCode, run.body).toBe(200);
    const items = await t.db.select().from(invoiceItems).where(eq(invoiceItems.subscriptionId, sub.id));
    expect(items.length).toBeGreaterThan(0);

    const res = await del(ec, sub.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: `Subscription ${sub.id} terminated`, data: [] });
    const got = await call('GET', url(ec, sub.id), undefined, w.vadFinance.token);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toMatchObject({
      status: 'terminated',
      terminationDate: t.clock.now().toISOString(),
      numberAssignedUsers: 0,
    });
    expect(await listed(ec, '')).not.toContain(sub.id);
    expect(await listed(ec, '?showTerminated=true')).toContain(sub.id);
    const chargesAfter = await t.db.select().from(billingCharges).where(eq(billingCharges.subscriptionId, sub.id));
    expect(chargesAfter).toEqual(charges.map((c) => ({ ...c, invoiceId: expect.any(String) })));
    expect(await t.db.select().from(invoiceItems).where(eq(invoiceItems.subscriptionId, sub.id))).toEqual(items);
    const invoices = (
      await call('GET', `${S}/companies/${w.vad}/invoices?format=full`, undefined, w.vadFinance.token)
    ).json().data as { invoiceItems: { subscriptionId: string }[] }[];
    expect(invoices.flatMap((i) => i.invoiceItems).some((i) => i.subscriptionId === sub.id)).toBe(true);
    // Its order is cancelled; deleting it again is refused (400678).
    await eventually(
      'order cancelled',
      async () =>
        (await t.deps.background!.ports.orders.getOrder(sub.bsSubscriptionId as string))?.status === 'cancelled',
    );
    expect((await del(ec, sub.id)).json().errorDetailsCode).toBe(400678);
  });

  it('doc 1, delete subscription: an offer with a rate plan (even without a price) is terminated and its billing subscription cancelled', async () => {
    for (const body of [{ offerId: w.offers.flat }, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }]) {
      const sub = await active(w.ecVad, body);
      expect(sub.billingSubscriptionId).toEqual(expect.any(String));
      const res = await del(w.ecVad, sub.id);
      expect(res.json()).toEqual({ status: `Subscription ${sub.id} terminated`, data: [] });
      expect((await call('GET', url(w.ecVad, sub.id))).json().data).toMatchObject({ status: 'terminated' });
      expect(await listed(w.ecVad, '?showTerminated=true')).toContain(sub.id);
      const { billing } = t.deps.background!.ports;
      await eventually(
        'billing subscription cancelled',
        async () => (await billing.getSubscription(sub.billingSubscriptionId as string))?.status === 'cancelled',
      );
    }
  });
});

describe('doc 1, delete subscription: the other ends of a subscription never remove it', () => {
  it('doc 1, update subscription, rule 8: a free prepaid subscription that reaches its expirationDate without renewal is terminated, not removed', async () => {
    const prepaidFree = await offer({ businessModel: 'nb_users', isPrepaid: true, prepaidDuration: 12 });
    const sub = await active(w.ecVad, { offerId: prepaidFree, maxNumberUsers: 2 });
    expect((await call('PUT', url(w.ecVad, sub.id), { autoRenew: false }, w.vadFinance.token)).statusCode).toBe(200);
    await waitFor(t, w.ecVad, sub.id, (s) => s.syncOngoing === false);
    const at = new Date('2027-11-21T08:00:00.000Z');
    expect(await endExpiredSubscriptions(t.db, at, { queue: t.deps.background!.queue })).toBeGreaterThan(0);
    expect((await call('GET', url(w.ecVad, sub.id))).json().data).toMatchObject({
      status: 'terminated',
      terminationDate: at.toISOString(),
    });
  });

  it('doc 3, delete company: refused while a subscription other than the default one is active, free or not; then every subscription is terminated (terminationDate set), none removed', async () => {
    const priced = await offer({ businessModel: 'flat_fee', prices: [{ currency: 'EUR', amount: '3.50' }] });
    const ec = await makeCompany(t, { bpId: w.vad });
    await addDefaultSubscription(t.db, ec, t.clock.now());
    const paid = await active(ec, { offerId: priced });
    const free = await active(ec, { offerId: w.offers.free, maxNumberUsers: 1 });
    expect((await del(ec, paid.id)).json().status).toBe(`Subscription ${paid.id} terminated`);
    const deleteCompany = () => call('DELETE', `/api/svc/admin/v1.0/companies/${ec}`);
    expect((await deleteCompany()).json()).toMatchObject({ errorCode: 409, errorDetailsCode: 409104 });
    expect((await del(ec, free.id)).json().status).toBe(`Subscription ${free.id} deleted`);
    const res = await deleteCompany();
    expect(res.statusCode, res.body).toBe(200);
    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.companyId, ec));
    expect(rows.map((r) => [r.id === paid.id ? 'paid' : r.isDefault ? 'default' : r.id, r.status]).sort()).toEqual([
      ['default', 'terminated'],
      ['paid', 'terminated'],
    ]);
    expect(rows.every((r) => r.terminationDate !== null)).toBe(true);
  });
});
