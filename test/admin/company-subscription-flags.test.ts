// Issue 8, points 3 and 4: the subscription flags belong to the BP (doc 1, update subscription,
// rule 5; create subscription, rule 7), and a bp_admin accepts his BP company's contract
// (document 3, bpContractAcceptationInfo).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const A = '/api/svc/admin/v1.0/companies';
let t: TestApp;
let vad: string;
let vadAdmin: MadeUser;
let vadFinance: MadeUser;
let ir: string;
let irAdmin: MadeUser;
let dr: string;
let drAdmin: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  vad = await makeCompany(t, { name: 'VAD', isBP: true, bpType: 'VAD' });
  vadAdmin = await makeUser(t, vad, ['bp_admin']);
  vadFinance = await makeUser(t, vad, ['bp_finance']);
  ir = await makeCompany(t, { name: 'IR of VAD', isBP: true, bpType: 'IR', bpId: vad });
  irAdmin = await makeUser(t, ir, ['bp_admin']);
  dr = await makeCompany(t, { name: 'DR', isBP: true, bpType: 'DR' });
  drAdmin = await makeUser(t, dr, ['bp_admin']);
});
afterAll(() => t.close());

const put = (token: string, id: string, payload: object) =>
  t.inject({ method: 'PUT', url: `${A}/${id}`, headers: bearer(token), payload });
const rowOf = async (id: string) => (await t.db.select().from(companies).where(eq(companies.id, id)))[0];
const FLAGS = {
  adminHasRightToUpdateSubscriptions: false,
  adminAllowedUpdateSubscriptionsOps: 'increase_only',
} as const;

describe('issue 8, point 3: the subscription flags belong to the BP', () => {
  it("doc 1, update subscription, rule 5: the BP's bp_admin forbids its End Customer's administrators to update subscriptions (both flags)", async () => {
    const ec = await makeCompany(t, { bpId: vad });
    const res = await put(vadAdmin.token, ec, FLAGS);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject(FLAGS);
    expect(await rowOf(ec)).toMatchObject(FLAGS);
  });

  it("doc 1, update subscription, rule 5: the BP's bp_finance sets the flags too, and may allow again", async () => {
    const ec = await makeCompany(t, { bpId: vad });
    expect((await put(vadFinance.token, ec, FLAGS)).statusCode).toBe(200);
    const back = await put(vadFinance.token, ec, {
      adminHasRightToUpdateSubscriptions: true,
      adminAllowedUpdateSubscriptionsOps: 'all',
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(await rowOf(ec)).toMatchObject({
      adminHasRightToUpdateSubscriptions: true,
      adminAllowedUpdateSubscriptionsOps: 'all',
    });
  });

  it('doc 1, create subscription, rule 7: a VAD sets adminHasRightToUpdateSubscriptions on its BP IR company', async () => {
    const res = await put(vadAdmin.token, ir, { adminHasRightToUpdateSubscriptions: true });
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowOf(ir)).adminHasRightToUpdateSubscriptions).toBe(true);
  });

  it('doc 1, update subscription, rule 5: an IR sets the flags of its own End Customers; its VAD reaches them too', async () => {
    const ecOfIr = await makeCompany(t, { bpId: ir });
    expect((await put(irAdmin.token, ecOfIr, { adminAllowedUpdateSubscriptionsOps: 'increase_only' })).statusCode).toBe(
      200,
    );
    expect((await put(vadAdmin.token, ecOfIr, { adminHasRightToUpdateSubscriptions: false })).statusCode).toBe(200);
    expect(await rowOf(ecOfIr)).toMatchObject({
      adminAllowedUpdateSubscriptionsOps: 'increase_only',
      adminHasRightToUpdateSubscriptions: false,
    });
  });

  it("issue 8, point 3: the BP's grant on its End Customer opens the flags only: any other field is 403, nothing stored", async () => {
    const ec = await makeCompany(t, { bpId: vad, name: 'Untouched EC' });
    for (const body of [
      { slogan: 'from the BP' },
      { ...FLAGS, name: 'Renamed by BP' },
      { adminCanSetCustomData: false },
    ]) {
      const res = await put(vadAdmin.token, ec, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json().errorDetailsCode).toBe(403001);
    }
    expect(await rowOf(ec)).toMatchObject({
      name: 'Untouched EC',
      slogan: null,
      adminHasRightToUpdateSubscriptions: null,
      adminCanSetCustomData: null,
    });
  });

  it("issue 8, point 3: the End Customer's own company_admin cannot set the flags (403102)", async () => {
    const ec = await makeCompany(t, { bpId: vad });
    const admin = await makeUser(t, ec, ['company_admin']);
    const res = await put(admin.token, ec, { adminHasRightToUpdateSubscriptions: true });
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403102);
    expect((await rowOf(ec)).adminHasRightToUpdateSubscriptions).toBeNull();
    // Once the BP has set them, sending their current value is no change (no refusal).
    await put(vadAdmin.token, ec, FLAGS);
    expect((await put(admin.token, ec, { ...FLAGS, slogan: 'ours' })).statusCode).toBe(200);
  });

  it("issue 8, point 3: a BP does not set its own company's flags (its own BP or a superadmin does): 403102", async () => {
    const ownIr = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad });
    const ownIrAdmin = await makeUser(t, ownIr, ['bp_admin', 'bp_finance']);
    for (const [who, id] of [
      [vadAdmin, vad],
      [ownIrAdmin, ownIr],
    ] as const) {
      const res = await put(who.token, id, { adminAllowedUpdateSubscriptionsOps: 'increase_only' });
      expect(res.json().errorDetailsCode, who.email).toBe(403102);
    }
  });

  it("issue 8, point 3: a BP that is not the company's BP does not see it (404)", async () => {
    const ec = await makeCompany(t, { bpId: vad });
    expect((await put(drAdmin.token, ec, FLAGS)).statusCode).toBe(404);
    expect((await rowOf(ec)).adminHasRightToUpdateSubscriptions).toBeNull();
  });

  it('issue 8, point 3: a superadmin still sets the flags of any company', async () => {
    const id = await makeCompany(t);
    expect((await put(t.superToken, id, FLAGS)).json().data).toMatchObject(FLAGS);
  });

  it('issue 8, point 3: the flags keep their allowed values (400 otherwise)', async () => {
    const ec = await makeCompany(t, { bpId: vad });
    expect((await put(vadAdmin.token, ec, { adminAllowedUpdateSubscriptionsOps: 'decrease_only' })).statusCode).toBe(
      400,
    );
  });

  it('doc 1, update subscription, rule 5: a BP sets the flags when it creates the End Customer; an organisation admin may not (403102)', async () => {
    const res = await t.inject({
      method: 'POST',
      url: A,
      headers: bearer(vadAdmin.token),
      payload: { name: 'EC with flags', ...FLAGS },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ bpId: vad, ...FLAGS });
    const orgId = newId();
    await t.db.insert(organisations).values({ id: orgId, name: 'Org' });
    const orgAdmin = await makeUser(t, await makeCompany(t, { organisationId: orgId }), ['organization_admin']);
    const refused = await t.inject({
      method: 'POST',
      url: A,
      headers: bearer(orgAdmin.token),
      payload: { name: 'Org EC with flags', adminHasRightToUpdateSubscriptions: false },
    });
    expect(refused.json().errorDetailsCode).toBe(403102);
  });
});

describe('issue 8, point 4: contract acceptance by the BP (doc 3, bpContractAcceptationInfo)', () => {
  it('issue 8, point 4: a bp_admin of a BP company accepts its contract; the service records him and the date', async () => {
    const bp = await makeCompany(t, { name: 'Accepting BP', isBP: true, bpType: 'DR' });
    const admin = await makeUser(t, bp, ['bp_admin']);
    const res = await put(admin.token, bp, { bpIsContractAccepted: true });
    expect(res.statusCode, res.body).toBe(200);
    const info = { acceptationDate: t.clock.now().toISOString(), bpAdminId: admin.id, bpAdminLoginEmail: admin.email };
    expect(res.json().data).toMatchObject({ bpIsContractAccepted: true, bpContractAcceptationInfo: info });
    expect((await rowOf(bp)).bpContractAcceptationInfo).toEqual(info);
    // Accepting again is no change: the record keeps the first acceptance.
    t.clock.advance(60_000);
    expect((await put(admin.token, bp, { bpIsContractAccepted: true })).json().data.bpContractAcceptationInfo).toEqual(
      info,
    );
    // He cannot withdraw it (403102): only a superadmin resets it.
    const reset = await put(admin.token, bp, { bpIsContractAccepted: false });
    expect(reset.json().errorDetailsCode).toBe(403102);
    expect((await rowOf(bp)).bpIsContractAccepted).toBe(true);
  });

  it('issue 8, point 4: only a bp_admin of the BP company itself accepts: not its bp_finance, not a company_admin, not for an End Customer', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const finance = await makeUser(t, bp, ['bp_finance']);
    expect((await put(finance.token, bp, { bpIsContractAccepted: true })).json().errorDetailsCode).toBe(403102);
    const ec = await makeCompany(t, { bpId: bp });
    const ecAdmin = await makeUser(t, ec, ['company_admin']);
    expect((await put(ecAdmin.token, ec, { bpIsContractAccepted: true })).json().errorDetailsCode).toBe(403102);
    const bpAdmin = await makeUser(t, bp, ['bp_admin']);
    expect((await put(bpAdmin.token, ec, { bpIsContractAccepted: true })).statusCode).toBe(403);
    expect(await rowOf(bp)).toMatchObject({ bpIsContractAccepted: false, bpContractAcceptationInfo: null });
    expect(await rowOf(ec)).toMatchObject({ bpIsContractAccepted: false, bpContractAcceptationInfo: null });
  });

  it('issue 8, point 4: a superadmin still sets it (the date is recorded) and resets it (the record is cleared)', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad });
    const set = await put(t.superToken, bp, { bpIsContractAccepted: true });
    expect(set.json().data).toMatchObject({
      bpIsContractAccepted: true,
      bpContractAcceptationInfo: { acceptationDate: t.clock.now().toISOString() },
    });
    const reset = await put(t.superToken, bp, { bpIsContractAccepted: false });
    expect(reset.json().data).toMatchObject({ bpIsContractAccepted: false, bpContractAcceptationInfo: null });
  });
});
