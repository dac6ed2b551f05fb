// Issue 10, points 2, 3 and 5: creating a subscription (document 1, create a subscription, rules
// 1 to 11), its state machine driven by the synchronisation job, its events, its failures and the
// Idempotency-Key across a restart.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, freshDatabase, type TestApp } from '../support/harness.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { SYNC_JOB } from '../../src/modules/commerce/subscriptions.service.ts';
import { buildWorld, startWorld, caller, eventsOf, S, waitFor, type World } from './subscriptions.fixture.ts';
import { makeCompany, makeUser } from '../support/factories.ts';

let t: TestApp;
let w: World;
let call: ReturnType<typeof caller>;
const subscribe = (companyId: string, body: object, token?: string, headers?: Record<string, string>) =>
  call('POST', `${S}/companies/${companyId}/subscriptions`, body, token, headers);

beforeAll(async () => {
  ({ t, call, w } = await startWorld({ ordersApplicantNumbers: ['CONFIGURED-1'] }));
});
afterAll(() => t.close());

describe('issue 10, point 3: the state machine of a subscription', () => {
  it('doc 1, states and transitions: created creating with syncOngoing, it becomes active once the order and billing systems confirm; the ids of both are filled', async () => {
    const res = await subscribe(
      w.ecVad,
      { offerId: w.offers.nbUsers, maxNumberUsers: '5', purchaseOrderNumber: 'PO-1', extra: 'ignored' },
      w.vadFinance.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data;
    expect(made).toMatchObject({
      companyId: w.ecVad,
      offerId: w.offers.nbUsers,
      status: 'creating',
      syncOngoing: true,
      maxNumberUsers: 5,
      bsSubscriptionId: null,
      billingSubscriptionId: null,
      createdBy: { userId: w.vadFinance.id, loginEmail: w.vadFinance.email, bpApplicantNumber: `APP-${w.vad}` },
    });
    const done = await waitFor(t, w.ecVad, made.id, (s) => s.status === 'active');
    expect(done).toMatchObject({
      status: 'active',
      syncOngoing: false,
      syncError: null,
      maxNumberUsers: 5,
      bsSubscriptionId: expect.any(String),
      billingSubscriptionId: expect.any(String),
    });
    // The order and the billing subscription exist in those systems, for 5 licences.
    const { orders, billing } = t.deps.background!.ports;
    expect(await orders.getOrder(done.bsSubscriptionId as string)).toMatchObject({
      status: 'open',
      quantity: 5,
      applicantNumber: `APP-${w.vad}`,
      purchaseOrderNumber: 'PO-1',
    });
    expect(await billing.getSubscription(done.billingSubscriptionId as string)).toMatchObject({
      status: 'active',
      quantity: 5,
    });
  });

  it('the synchronisation is woken once the creation has committed: this instance takes the job at once, not at its next poll (docs/architecture.md, waking a worker)', async () => {
    const queue = t.deps.background!.queue;
    const wake = queue.wake;
    // What each wake finds: the synchronisation jobs then committed, read at the call (on PostgreSQL
    // from another connection, so a wake inside the transaction would find one job fewer; the
    // embedded database would hold the read until the transaction ends).
    const syncJobs = async () => {
      const r = await t.db.execute(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${SYNC_JOB}`);
      return Number((r as unknown as { rows: { n: number }[] }).rows[0].n);
    };
    const seen: Promise<number>[] = [];
    queue.wake = (name) => {
      if (name === SYNC_JOB) seen.push(syncJobs());
      wake.call(queue, name);
    };
    try {
      const before = await syncJobs();
      const res = await subscribe(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: '2' }, w.vadFinance.token);
      expect(res.statusCode, res.body).toBe(201);
      expect(seen).toHaveLength(1);
      expect(await seen[0]).toBe(before + 1);
      await waitFor(t, w.ecVad, res.json().data.id, (s) => s.syncOngoing === false);
    } finally {
      queue.wake = wake;
    }
  });

  it('doc 1, provisioning entry: an offer that needs a provider is provisioned; provisioningOngoing with its start date until the provider answers', async () => {
    const made = (await subscribe(w.ecVad, { offerId: w.offers.media }, w.vadFinance.token)).json().data;
    expect(made.provisioningNeeded).toEqual([
      {
        providerType: 'media',
        mediaType: 'webrtc',
        provisioningOngoing: true,
        provisioningStartDate: t.clock.now().toISOString(),
      },
    ]);
    const done = await waitFor(t, w.ecVad, made.id, (s) => s.status === 'active');
    expect(done.provisioningNeeded).toEqual([
      {
        providerType: 'media',
        mediaType: 'webrtc',
        provisioningOngoing: false,
        provisioningStartDate: t.clock.now().toISOString(),
      },
    ]);
    expect(await t.deps.background!.ports.providers.ofSubscription(made.id)).toEqual([
      expect.objectContaining({ providerType: 'media', mediaType: 'webrtc', status: 'ready' }),
    ]);
  });

  it('doc 1, events, subscription change: create (creating, syncOngoing true) then update (active) to the company_admins of the company and the bp_admin and bp_finance of its BP', async () => {
    const made = (await subscribe(w.ecVad, { offerId: w.offers.flat }, w.vadFinance.token)).json().data;
    await waitFor(t, w.ecVad, made.id, (s) => s.status === 'active');
    const events = await eventsOf(t, made.id);
    const to = (action: string) =>
      events
        .filter((e) => e.action === action)
        .map((e) => e.userId)
        .sort();
    const recipients = [w.vadFinance.id, w.vadAdmin.id, w.ecVadAdmin.id].sort();
    expect(to('create')).toEqual(recipients);
    expect(to('update')).toEqual(recipients);
    const create = events.find((e) => e.action === 'create')!.xml;
    expect(create).toContain('<status>creating</status>');
    expect(create).toContain('<syncOngoing>true</syncOngoing>');
    expect(create).toContain(`<offerId>${w.offers.flat}</offerId>`);
    expect(events.find((e) => e.action === 'update')!.xml).toContain('<status>active</status>');
  });

  it("issue 10, point 3: the first synchronisations of a BP's End Customers, run at once, all succeed at their first attempt with one billing account for the BP", async () => {
    // Each finds no account for the BP; the billing system makes one and refuses the others,
    // which take that one instead of failing their attempt (and waiting for a retry).
    const vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
    await t.db
      .update(companies)
      .set({
        catalogId: (await t.db.select({ c: companies.catalogId }).from(companies).where(eq(companies.id, w.vad)))[0].c,
        bpBusinessModel: 'resell',
        bpApplicantNumber: `APP-${vad}`,
      })
      .where(eq(companies.id, vad));
    const finance = await makeUser(t, vad, ['bp_finance']);
    const ecs = await Promise.all(Array.from({ length: 6 }, () => makeCompany(t, { bpId: vad })));
    const made = await Promise.all(
      ecs.map(
        async (ec) =>
          (await subscribe(ec, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }, finance.token)).json().data as {
            id: string;
            companyId: string;
          },
      ),
    );
    for (const m of made) await waitFor(t, m.companyId, m.id, (s) => s.status === 'active');
    const jobs = (await t.db.execute(
      sql`SELECT retry_count FROM pgboss.job WHERE name = 'commerce.subscription-sync' AND data->>'subscriptionId' = ANY(${sql.param(made.map((m) => m.id))}::text[])`,
    )) as unknown as { rows: { retry_count: number }[] };
    expect(jobs.rows.map((r) => Number(r.retry_count))).toEqual(made.map(() => 0));
    const account = await t.deps.background!.ports.billing.findAccount(vad);
    const accounts = (await t.db.execute(
      sql`SELECT count(*)::int AS n FROM port_records WHERE port = 'billing' AND kind = 'account' AND data->>'companyId' = ${vad}`,
    )) as unknown as { rows: { n: number }[] };
    expect(account).toBeDefined();
    expect(accounts.rows[0].n).toBe(1);
  });

  it("issue 10, point 3: a synchronisation that keeps failing gives up with a visible syncError and the order it made; a superadmin retries it and it becomes active without ordering again, even when the order's id was never saved", async () => {
    const control = t.deps.background!.ports.controls.billing;
    control.failureRate = 1;
    try {
      const made = (
        await subscribe(w.ecVad, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }, w.vadFinance.token)
      ).json().data;
      const failed = await waitFor(t, w.ecVad, made.id, (s) => s.syncError !== null);
      expect(failed).toMatchObject({
        status: 'creating',
        syncOngoing: true,
        syncError: expect.stringContaining('billing'),
        syncFailedAt: expect.any(String),
        bsSubscriptionId: expect.any(String),
      });
      // Only a superadmin retries; the bp_finance sees the subscription but may not.
      expect(
        (
          await call(
            'POST',
            `${S}/companies/${w.ecVad}/subscriptions/${made.id}/retry-sync`,
            undefined,
            w.vadFinance.token,
          )
        ).statusCode,
      ).toBe(403);
      control.failureRate = 0;
      // As if the instance had died after the order system's answer and before anything was
      // saved: the retry asks the order system again, with the same reference, and gets the same order.
      await t.db.execute(sql`UPDATE subscriptions SET bs_subscription_id = NULL WHERE id = ${made.id}`);
      const orders = async () =>
        (
          (await t.db.execute(
            sql`SELECT count(*)::int AS n FROM port_records WHERE port = 'orders' AND kind = 'order' AND parent_id = ${w.ecVad}`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0].n;
      const ordersBefore = await orders();
      const retried = await call('POST', `${S}/companies/${w.ecVad}/subscriptions/${made.id}/retry-sync`);
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retried.json().data).toMatchObject({ syncOngoing: true, syncError: null });
      const done = await waitFor(t, w.ecVad, made.id, (s) => s.status === 'active');
      // The order made before the failure is kept: the retry resumed, it did not order again.
      expect(done.bsSubscriptionId).toBe(failed.bsSubscriptionId);
      expect(await orders()).toBe(ordersBefore);
      expect(
        (await call('POST', `${S}/companies/${w.ecVad}/subscriptions/${made.id}/retry-sync`)).json().errorDetailsCode,
      ).toBe(409671);
    } finally {
      control.failureRate = 0;
    }
  });
});

describe('issue 10, point 2: create a subscription, rules 1 to 11', () => {
  it("doc 1, create subscription, rule 1: only the resell model is managed: a referral BP's bp_finance cannot buy for its End Customer", async () => {
    const res = await subscribe(w.ecDr, { offerId: w.offers.flat }, w.drFinance.token);
    expect(res.json()).toMatchObject({ errorCode: 400, errorDetailsCode: 400670 });
  });

  it("doc 1, create subscription, rule 2: the BP's applicant number must exist in the partner order system", async () => {
    const before = (
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(subscriptions)
        .where(eq(subscriptions.companyId, w.ecUnknown))
    )[0].n;
    const res = await subscribe(w.ecUnknown, { offerId: w.offers.flat }, w.unknownFinance.token);
    expect(res.json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400671,
      errorDetails: { bpApplicantNumber: null },
    });
    expect(
      (
        await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(subscriptions)
          .where(eq(subscriptions.companyId, w.ecUnknown))
      )[0].n,
    ).toBe(before);
    // A number of the order system's configuration is known.
    await t.db.update(companies).set({ bpApplicantNumber: 'CONFIGURED-1' }).where(eq(companies.id, w.vadUnknown));
    expect((await subscribe(w.ecUnknown, { offerId: w.offers.flat }, w.unknownFinance.token)).statusCode).toBe(201);
    await t.db.update(companies).set({ bpApplicantNumber: null }).where(eq(companies.id, w.vadUnknown));
  });

  it('doc 1, check a BP applicant number: true for a number set on a BP company or configured, false otherwise', async () => {
    const check = async (n: string, token?: string) =>
      (await call('GET', `${S}/companies/check-applicant-number/${encodeURIComponent(n)}`, undefined, token)).json()
        .data;
    expect(await check(`APP-${w.vad}`)).toEqual({ bpApplicantNumber: `APP-${w.vad}`, exists: true });
    expect(await check('CONFIGURED-1', w.vadFinance.token)).toEqual({
      bpApplicantNumber: 'CONFIGURED-1',
      exists: true,
    });
    expect(await check('NEVER-SET', w.vadAdmin.token)).toEqual({ bpApplicantNumber: 'NEVER-SET', exists: false });
    // Set on a company that is not a BP, a number stays unknown.
    await t.db.update(companies).set({ bpApplicantNumber: 'ON-A-CUSTOMER' }).where(eq(companies.id, w.ecVad));
    expect(await check('ON-A-CUSTOMER')).toEqual({ bpApplicantNumber: 'ON-A-CUSTOMER', exists: false });
    expect(
      (await call('GET', `${S}/companies/check-applicant-number/x`, undefined, w.ecVadAdmin.token)).statusCode,
    ).toBe(403);
  });

  it('doc 1, create subscription, rule 3: superadmin subscribes any company, offers that cannot be sold included; a bp_finance cannot', async () => {
    expect((await subscribe(w.ecVad, { offerId: w.offers.unsold }, w.vadFinance.token)).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400673,
    });
    const res = await subscribe(w.ecVad, { offerId: w.offers.unsold });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('doc 1, create subscription, rule 4: business_admin, any company but demo offers only (400 otherwise)', async () => {
    expect((await subscribe(w.ecIr, { offerId: w.offers.flat }, w.businessAdmin.token)).json()).toMatchObject({
      errorCode: 400,
      errorDetailsCode: 400672,
    });
    expect(
      (await subscribe(w.ecIr, { offerId: w.offers.demo, maxNumberUsers: 1 }, w.businessAdmin.token)).statusCode,
    ).toBe(201);
  });

  it('doc 1, create subscription, rules 5 and 6: a bp_finance buys for its End Customers; admins without superadmin or bp_finance are denied', async () => {
    expect((await subscribe(w.ecIr, { offerId: w.offers.flat }, w.vadFinance.token)).statusCode).toBe(201); // its IR's End Customer
    expect((await subscribe(w.ecVad, { offerId: w.offers.flat }, w.vadAdmin.token)).statusCode).toBe(403);
    expect((await subscribe(w.ecVad, { offerId: w.offers.flat }, w.ecVadAdmin.token)).statusCode).toBe(403);
    expect((await subscribe(w.ecDr, { offerId: w.offers.flat }, w.vadFinance.token)).statusCode).toBe(404);
  });

  it("doc 1, create subscription, rule 7: an IR's bp_finance takes prepaid offers only, and only when its VAD set adminHasRightToUpdateSubscriptions on the IR", async () => {
    expect((await subscribe(w.ecIr, { offerId: w.offers.flat }, w.irFinance.token)).json().errorDetailsCode).toBe(
      400675,
    );
    expect(
      (await subscribe(w.ecIr, { offerId: w.offers.prepaid, maxNumberUsers: 3 }, w.irFinance.token)).json()
        .errorDetailsCode,
    ).toBe(400675);
    await t.db.update(companies).set({ adminHasRightToUpdateSubscriptions: true }).where(eq(companies.id, w.ir));
    const res = await subscribe(
      w.ecIr,
      { offerId: w.offers.prepaid, maxNumberUsers: 3, autoRenew: false, renewalTermOption: 'initial' },
      w.irFinance.token,
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      autoRenew: false,
      renewalTermOption: 'initial',
      prepaidDuration: 12,
      expirationDate: '2027-11-21T08:00:00.000Z',
    });
    expect((await subscribe(w.ecIr, { offerId: w.offers.flat }, w.irFinance.token)).json().errorDetailsCode).toBe(
      400675,
    );
  });

  it("doc 1, create subscription, rule 7: an IR's bp_finance buys for its own BP IR company, prepaid offers only, and only when its VAD set adminHasRightToUpdateSubscriptions on it", async () => {
    const flag = (v: boolean | null) =>
      t.db.update(companies).set({ adminHasRightToUpdateSubscriptions: v }).where(eq(companies.id, w.ir));
    try {
      await flag(null);
      expect(
        (await subscribe(w.ir, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token)).json(),
      ).toMatchObject({ errorCode: 400, errorDetailsCode: 400675 });
      await flag(false);
      expect(
        (await subscribe(w.ir, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token)).json()
          .errorDetailsCode,
      ).toBe(400675);
      await flag(true);
      const res = await subscribe(w.ir, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token);
      expect(res.statusCode, res.body).toBe(201);
      // Ordered for the VAD above the IR (rule 2: "BP IR companies should have no bpApplicantNumber").
      expect(res.json().data).toMatchObject({
        companyId: w.ir,
        status: 'creating',
        createdBy: { userId: w.irFinance.id, bpApplicantNumber: `APP-${w.vad}` },
      });
      expect((await subscribe(w.ir, { offerId: w.offers.flat }, w.irFinance.token)).json()).toMatchObject({
        errorCode: 400,
        errorDetailsCode: 400675,
      });
      expect(
        (await subscribe(w.ir, { offerId: w.offers.nbUsers, maxNumberUsers: 2 }, w.irFinance.token)).json()
          .errorDetailsCode,
      ).toBe(400675);
    } finally {
      await flag(true);
    }
  });

  it("doc 1, create subscription, rule 1: a VAD's or a DR's bp_finance does not buy for its own company (resell only: for its customers); an IR's not for its VAD", async () => {
    for (const [company, who] of [
      [w.vad, w.vadFinance],
      [w.dr, w.drFinance],
    ] as const) {
      const res = await subscribe(company, { offerId: w.offers.flat }, who.token);
      expect(res.json(), res.body).toMatchObject({ errorCode: 403, errorDetailsCode: 403001 });
    }
    expect(
      (await subscribe(w.vad, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.vadFinance.token)).statusCode,
    ).toBe(403);
    // The IR's bp_finance reads its VAD (its BP) but does not buy for it.
    expect(
      (await subscribe(w.vad, { offerId: w.offers.prepaid, maxNumberUsers: 2 }, w.irFinance.token)).statusCode,
    ).not.toBe(201);
  });

  it('doc 1, create subscription, rule 8: an offer outside the catalog assigned to the BP gives 403, superadmin excepted; an unknown offer 404', async () => {
    expect((await subscribe(w.ecVad, { offerId: w.offers.outside }, w.vadFinance.token)).json()).toMatchObject({
      errorCode: 403,
      errorDetailsCode: 403600,
    });
    expect((await subscribe(w.ecVad, { offerId: w.offers.outside })).statusCode).toBe(201);
    expect((await subscribe(w.ecVad, { offerId: newId() }, w.vadFinance.token)).statusCode).toBe(404);
  });

  it('doc 1, create subscription, rule 9: nb_users and nb_services need maxNumberUsers above 0', async () => {
    for (const body of [
      { offerId: w.offers.nbUsers },
      { offerId: w.offers.nbUsers, maxNumberUsers: 0 },
      { offerId: w.offers.free, maxNumberUsers: '0' },
    ])
      expect((await subscribe(w.ecVad, body, w.vadFinance.token)).json()).toMatchObject({
        errorCode: 400,
        errorDetailsCode: 400674,
      });
    expect(
      (await subscribe(w.ecVad, { offerId: w.offers.free, maxNumberUsers: '3' }, w.vadFinance.token)).json().data
        .maxNumberUsers,
    ).toBe(3);
  });
});

describe('issue 10, point 6: the original client', () => {
  it('issue 10, point 6: subscribeCompanyToOfferById (offerId, maxNumberUsers as a string, autoRenew on any offer), retrieveAllSubscriptionsOfCompanyById (format small and full), unSubscribeCompanyToSubscription', async () => {
    const company = w.ecVad;
    const made = await subscribe(
      company,
      { offerId: w.offers.free, maxNumberUsers: '10', autoRenew: true },
      w.vadFinance.token,
    );
    expect(made.statusCode, made.body).toBe(201);
    const sub = made.json().data;
    // autoRenew is for prepaid offers: on another offer it is ignored, not refused.
    expect(sub).toMatchObject({ offerId: w.offers.free, maxNumberUsers: 10, autoRenew: null, status: 'creating' });
    await waitFor(t, company, sub.id, (s) => s.status === 'active');
    for (const format of ['small', 'full']) {
      const list = await call(
        'GET',
        `${S}/companies/${company}/subscriptions?format=${format}`,
        undefined,
        w.vadFinance.token,
      );
      expect(list.statusCode).toBe(200);
      expect(list.json().data.find((s: { id: string }) => s.id === sub.id)).toMatchObject({
        id: sub.id,
        offerId: w.offers.free,
        status: 'active',
        maxNumberUsers: 10,
      });
    }
    const gone = await call(
      'DELETE',
      `${S}/companies/${company}/subscriptions/${sub.id}`,
      undefined,
      w.vadFinance.token,
    );
    expect(gone.json()).toEqual({ status: `Subscription ${sub.id} deleted`, data: [] });
  });
});

describe('issue 10, point 5: Idempotency-Key', () => {
  it('issue 10, point 5: a retried create with the same Idempotency-Key makes one subscription, even after a restart of the instance', async () => {
    const database = await freshDatabase();
    const first = await createTestApp({ database, background: true });
    const world = await buildWorld(first);
    const key = `key-${newId()}`;
    const body = { offerId: world.offers.flat };
    const a = await caller(first)('POST', `${S}/companies/${world.ecVad}/subscriptions`, body, first.superToken, {
      'idempotency-key': key,
    });
    expect(a.statusCode, a.body).toBe(201);
    // The instance stops; another starts on the same database.
    await first.app.close();
    await first.deps.background!.stop();
    const second = await createTestApp({ database });
    try {
      const b = await caller(second)('POST', `${S}/companies/${world.ecVad}/subscriptions`, body, second.superToken, {
        'idempotency-key': key,
      });
      expect(b.statusCode, b.body).toBe(201);
      expect(b.json().data.id).toBe(a.json().data.id);
      const n = (
        await second.db
          .select({ n: sql<number>`count(*)::int` })
          .from(subscriptions)
          .where(eq(subscriptions.companyId, world.ecVad))
      )[0].n;
      expect(n).toBe(1);
    } finally {
      await second.close();
    }
  });
});
