// Issue 10, point 1: offer counters of a BP company (document 1, list offer counters of a BP
// company; Offer counter), from real subscriptions and licence assignments.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeBpTree } from './bp-tree.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import type { SubscriptionStatus } from '../../src/modules/commerce/subscriptions.schemas.ts';

const S = '/api/svc/subscription/v1.0';
const A = '/api/svc/admin/v1.0';
let t: TestApp;
let vad: string, ir: string, ecOfIr: string, ecOfVad: string, lone: string;
let offerA: string, offerB: string, unused: string;

async function offer(name: string): Promise<string> {
  const id = newId();
  await t.db
    .insert(offers)
    .values({ id, name, businessModel: 'nb_users', offerReference: `REF-${name}`, isBundle: true, hasVoice: true });
  return id;
}
async function subscribe(
  companyId: string,
  offerId: string,
  maxNumberUsers: number,
  assigned: number,
  status: SubscriptionStatus = 'active',
): Promise<void> {
  const id = newId();
  await t.db.insert(subscriptions).values({ id, companyId, offerId, status, maxNumberUsers });
  for (let i = 0; i < assigned; i++) {
    const u = await makeUser(t, companyId);
    const res = await t.inject({
      method: 'POST',
      url: `${A}/users/${u.id}/profiles/subscriptions/${id}`,
      headers: bearer(t.superToken),
    });
    expect(res.statusCode, res.body).toBe(201);
  }
}
const counters = (companyId: string, token = t.superToken) =>
  t.inject({ method: 'GET', url: `${S}/companies/${companyId}/offers/counters`, headers: bearer(token) });
const byOffer = async (companyId: string) =>
  Object.fromEntries((await counters(companyId)).json().data.map((c: { offerId: string }) => [c.offerId, c]));

beforeAll(async () => {
  t = await createTestApp();
  ({ vad, ir, ecOfIr, ecOfVad, lone } = await makeBpTree(t));
  offerA = await offer('Alpha');
  offerB = await offer('Beta');
  unused = await offer('Gamma');
  await subscribe(vad, offerA, 5, 2);
  await subscribe(ir, offerA, 10, 3);
  await subscribe(ecOfIr, offerA, 4, 1);
  await subscribe(ecOfVad, offerB, 7, 2);
  await subscribe(ecOfVad, offerB, 100, 0, 'terminated');
  await subscribe(lone, offerB, 50, 1);
});
afterAll(() => t.close());

describe('doc 1, list offer counters of a BP company', () => {
  it("one counter per subscribed offer: the BP's own licences (myCompany*), those of the companies under it (myResellers*), and their totals", async () => {
    const res = await counters(vad);
    expect(res.statusCode, res.body).toBe(200);
    const c = await byOffer(vad);
    expect(Object.keys(c).includes(unused)).toBe(false);
    expect(c[offerA]).toMatchObject({
      offerName: 'Alpha',
      offerReference: 'REF-Alpha',
      businessModel: 'nb_users',
      isBundle: true,
      hasVoice: true,
      hasConference: false,
    });
    expect(c[offerA]).toMatchObject({
      myCompanyNbLicences: 5,
      myCompanyNumberAssignedUsers: 2,
      myResellersNbLicences: 14,
      myResellersNumberAssignedUsers: 4,
      totalNbLicences: 19,
      totalNumberAssignedUsers: 6,
    });
    // Terminated subscriptions count no more; a company outside the BP's tree never counts.
    expect(c[offerB]).toMatchObject({
      myCompanyNbLicences: 0,
      myResellersNbLicences: 7,
      myResellersNumberAssignedUsers: 2,
      totalNbLicences: 7,
      totalNumberAssignedUsers: 2,
    });
  });

  it("a BP IR's counters: its own and its End Customers'", async () => {
    const c = await byOffer(ir);
    expect(Object.keys(c)).toEqual([offerA]);
    expect(c[offerA]).toMatchObject({
      myCompanyNbLicences: 10,
      myCompanyNumberAssignedUsers: 3,
      myResellersNbLicences: 4,
      myResellersNumberAssignedUsers: 1,
      totalNbLicences: 14,
    });
  });

  it('BP companies only, whatever bpType: an End Customer gets 400651', async () => {
    const res = await counters(ecOfVad);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400651);
  });

  it('the route offers/counters is not taken for an offer id (getCompanyOffer keeps offers/{offerId})', async () => {
    expect((await counters(vad)).json().data).toBeInstanceOf(Array);
    const res = await t.inject({
      method: 'GET',
      url: `${S}/companies/${vad}/offers/${offerA}`,
      headers: bearer(t.superToken),
    });
    // Alpha is in no catalog the VAD sees: getCompanyOffer answers for it, with its own refusal.
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403600);
  });

  it("roles (decisions, Licences): the BP's bp_admin and bp_finance, a VAD's for its BP IR companies; a company_admin of the BP 403, another BP's users 404", async () => {
    for (const role of ['bp_admin', 'bp_finance'] as const) {
      const u = await makeUser(t, vad, [role]);
      expect((await counters(vad, u.token)).statusCode).toBe(200);
      expect((await counters(ir, u.token)).statusCode).toBe(200);
    }
    expect((await counters(vad, (await makeUser(t, vad, ['company_admin'])).token)).statusCode).toBe(403);
    const other = await makeCompany(t, { isBP: true, bpType: 'DR' });
    expect((await counters(vad, (await makeUser(t, other, ['bp_admin'])).token)).statusCode).toBe(404);
  });
});
