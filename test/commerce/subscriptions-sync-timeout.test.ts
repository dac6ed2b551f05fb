// Issue 10, point 3: "a failed synchronisation is retried with backoff. When it gives up, the
// subscription stays in a documented state that operators can see and retry ... It never stays
// syncOngoing forever without a reason." Here the last attempt does not fail by an error: an
// external system never answers, and the attempt runs past its time limit
// (SUBSCRIPTION_SYNC_TIMEOUT_SECONDS, small here).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { buildWorld, caller, S, waitFor, type World } from './subscriptions.fixture.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp({
    background: true,
    config: { subscriptionSyncRetryLimit: 1, subscriptionSyncRetryDelaySeconds: 1, subscriptionSyncTimeoutSeconds: 2 },
  });
  call = caller(t);
  w = await buildWorld(t);
});
afterAll(() => t.close());

describe('issue 10, point 3: a synchronisation whose last attempt runs past its time limit', () => {
  it("issue 10, point 3: a billing system that never answers: after the last attempt's time limit the subscription shows syncError; the worker is not held by the hung attempt; a superadmin's retry then makes it active", async () => {
    const release = t.deps.background!.ports.controls.billing.hold();
    let released = false;
    try {
      const hung = (
        await call(
          'POST',
          `${S}/companies/${w.ecVad}/subscriptions`,
          { offerId: w.offers.nbUsers, maxNumberUsers: 2 },
          w.vadFinance.token,
        )
      ).json().data;
      // An offer unknown to billing: its synchronisation needs the order system only.
      const other = (
        await call(
          'POST',
          `${S}/companies/${w.ecVad}/subscriptions`,
          { offerId: w.offers.free, maxNumberUsers: 1 },
          w.vadFinance.token,
        )
      ).json().data;
      // The attempt that hangs is abandoned at its time limit: the same worker synchronises the next subscription meanwhile.
      expect(await waitFor(t, w.ecVad, other.id, (s) => s.status === 'active')).toMatchObject({
        status: 'active',
        syncOngoing: false,
        syncError: null,
      });
      const failed = await waitFor(t, w.ecVad, hung.id, (s) => s.syncError !== null);
      expect(failed).toMatchObject({
        status: 'creating',
        syncOngoing: true,
        syncError: expect.stringMatching(/exceeded 2s/),
        syncFailedAt: expect.any(String),
        bsSubscriptionId: expect.any(String),
        billingSubscriptionId: null,
      });
      release();
      released = true;
      // The abandoned attempts' late answers save nothing: the subscription keeps its reason.
      await new Promise((r) => setTimeout(r, 300));
      expect((await call('GET', `${S}/companies/${w.ecVad}/subscriptions/${hung.id}`)).json().data).toMatchObject({
        syncError: failed.syncError,
        billingSubscriptionId: null,
        status: 'creating',
      });
      const retried = await call('POST', `${S}/companies/${w.ecVad}/subscriptions/${hung.id}/retry-sync`);
      expect(retried.statusCode, retried.body).toBe(200);
      const done = await waitFor(t, w.ecVad, hung.id, (s) => s.status === 'active');
      expect(done).toMatchObject({
        status: 'active',
        syncOngoing: false,
        syncError: null,
        syncFailedAt: null,
        billingSubscriptionId: expect.any(String),
        bsSubscriptionId: failed.bsSubscriptionId,
      });
    } finally {
      if (!released) release();
    }
  });
});
