// Issue 11, point 8: quotations at 2,000/s need few round trips. A quotation answers with the
// authorising statement (session, caller, company, decision, and as extras the offer, its catalog
// membership, the subscription changed and the company's BPs) and, for a resell BP, the partner
// order system's applicant check (the embedded one: one indexed statement). The statements each
// request sends to the database are counted at the database client.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { statementsOf as watch } from '../support/statements.ts';
import { buildWorld, caller, S, type World } from '../commerce/subscriptions.fixture.ts';
import { subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;
let subscriptionId: string;

const statementsOf = (run: () => Promise<unknown>) => watch(t, run);

beforeAll(async () => {
  // No background: nothing else (jobs, events) uses the database while a request is counted.
  t = await createTestApp();
  call = caller(t);
  w = await buildWorld(t);
  // A subscription of the VAD's End Customer to quote a change of (stored as the synchronisation leaves it).
  subscriptionId = newId();
  await t.db.insert(subscriptions).values({
    id: subscriptionId,
    companyId: w.ecVad,
    offerId: w.offers.nbUsers,
    status: 'active',
    maxNumberUsers: 5,
    creationDate: t.clock.now(),
    lastUpdateDate: t.clock.now(),
  });
});
afterAll(() => t.close());

const quote = (companyId: string, body: object, token: string) =>
  call('POST', `${S}/companies/${companyId}/quotations`, body, token);

describe('issue 11, point 8: a quotation in as few round trips as possible', () => {
  it("issue 11, point 8: a new subscription quoted for a resell BP's End Customer: the authorising statement and the order system's applicant check, nothing else", async () => {
    // Two warm-up calls: the first tells the service the caller's roles, the second prepares the
    // statement of those roles (docs/decisions.md, "Relations of the caller's roles only").
    for (let i = 0; i < 2; i++) {
      const first = await quote(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 3 }, w.vadFinance.token);
      expect(first.statusCode, first.body).toBe(200);
    }
    let res!: Awaited<ReturnType<typeof quote>>;
    const seen = await statementsOf(
      async () => (res = await quote(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 3 }, w.vadFinance.token)),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ currency: 'EUR', contractedMrr: 30 });
    expect(seen.length, seen.join('\n---\n')).toBe(2);
  });

  it("issue 11, point 8: a change quoted (subscriptionId) for a resell BP's End Customer: two statements", async () => {
    let res!: Awaited<ReturnType<typeof quote>>;
    const seen = await statementsOf(
      async () => (res = await quote(w.ecVad, { subscriptionId, maxNumberUsers: 8 }, w.vadFinance.token)),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      contractedMrr: 80,
      totalDeltaMrr: 30,
      chargeMetrics: [expect.objectContaining({ number: subscriptionId })],
    });
    expect(seen.length, seen.join('\n---\n')).toBe(2);
  });

  it("issue 11, point 8: a quotation for a referral BP's End Customer (no applicant check) or one refused by the authorisation: one statement", async () => {
    let res!: Awaited<ReturnType<typeof quote>>;
    let seen = await statementsOf(
      async () => (res = await quote(w.ecDr, { offerId: w.offers.nbUsers, maxNumberUsers: 3 }, w.drFinance.token)),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(seen.length, seen.join('\n---\n')).toBe(1);
    seen = await statementsOf(
      async () => (res = await quote(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 3 }, w.vadAdmin.token)),
    );
    expect(res.statusCode).toBe(403);
    expect(seen.length, seen.join('\n---\n')).toBe(1);
  });
});
