// Issue 10, point 1: "the embedded billing system takes [the offers' prices] from there": a rate
// plan's price is the price of the offer that names it, exact to the digit.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { createPorts, type Ports } from '../../src/ports/ports.ts';

const S = '/api/svc/subscription/v1.0';
let t: TestApp;
let ports: Ports;

beforeAll(async () => {
  t = await createTestApp();
  ports = createPorts({ database: t.deps.database, config: t.deps.config, now: t.clock.now });
});
afterAll(() => t.close());

describe('issue 10, point 1: prices reach the billing system', () => {
  it("issue 10, point 1: the embedded billing system prices a rate plan with the offer's prices, and follows their changes", async () => {
    const offer = (
      await t.inject({
        method: 'POST',
        url: `${S}/offers`,
        headers: bearer(t.superToken),
        payload: {
          name: 'Billed',
          businessModel: 'nb_users',
          billingProductRatePlanId: 'rp-billed',
          prices: [
            { currency: 'EUR', amount: '9.99' },
            { currency: 'USD', amount: '10.123456' },
          ],
        },
      })
    ).json().data;
    expect(await ports.billing.ratePlanPrice('rp-billed', 'USD')).toBe('10.123456');
    expect(await ports.billing.ratePlanPrice('rp-billed', 'CNY')).toBeUndefined();
    expect(await ports.billing.ratePlanPrice('rp-unknown', 'EUR')).toBeUndefined();

    const eur = await ports.billing.createAccount({ companyId: 'bp-eur', name: 'BP in euros', currency: 'EUR' });
    expect(
      await ports.billing.createSubscription({
        reference: 'sub-eur',
        accountId: eur.id,
        ratePlanId: 'rp-billed',
        quantity: 3,
        startDate: '2026-11-21',
      }),
    ).toMatchObject({ unitPrice: '9.99', quantity: 3 });
    const cny = await ports.billing.createAccount({ companyId: 'bp-cny', name: 'BP in yuan', currency: 'CNY' });
    expect(
      await ports.billing.createSubscription({
        reference: 'sub-cny',
        accountId: cny.id,
        ratePlanId: 'rp-billed',
        quantity: 1,
        startDate: '2026-11-21',
      }),
    ).toMatchObject({ unitPrice: null });

    await t.inject({
      method: 'PUT',
      url: `${S}/offers/${offer.id}`,
      headers: bearer(t.superToken),
      payload: { prices: [{ currency: 'EUR', amount: '12' }] },
    });
    expect(await ports.billing.ratePlanPrice('rp-billed', 'EUR')).toBe('12');
    expect(await ports.billing.ratePlanPrice('rp-billed', 'USD')).toBeUndefined();
  });
});
