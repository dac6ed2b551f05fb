// Issue 10, point 4: licences (route table, assignUserLicence / unassignUserLicence; document 1,
// licence counters; document 3, create company rule 7; docs/decisions.md, Licences).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeBpTree } from './bp-tree.ts';
import { makeCompany, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { licences, offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { addDefaultSubscription, licenceCounters } from '../../src/modules/commerce/commerce.api.ts';
import { newId } from '../../src/shared/ids.ts';
import type { BusinessModel } from '../../src/modules/commerce/offers.schemas.ts';
import type { SubscriptionStatus } from '../../src/modules/commerce/subscriptions.schemas.ts';

const A = '/api/svc/admin/v1.0';
const licence = (userId: string, subscriptionId: string) =>
  `${A}/users/${userId}/profiles/subscriptions/${subscriptionId}`;
let t: TestApp;
// A VAD, its IR, an End Customer of the IR, an End Customer of the VAD, and a lone company.
let vad: string, ir: string, ecOfIr: string, ecOfVad: string, lone: string;
let irAdmin: MadeUser, ecOfIrAdmin: MadeUser, loneAdmin: MadeUser;

async function subscription(
  companyId: string,
  o: { maxNumberUsers?: number | null; status?: SubscriptionStatus; businessModel?: BusinessModel } = {},
): Promise<string> {
  const offerId = newId();
  await t.db
    .insert(offers)
    .values({ id: offerId, name: `Offer ${offerId}`, businessModel: o.businessModel ?? 'nb_users' });
  const id = newId();
  await t.db.insert(subscriptions).values({
    id,
    companyId,
    offerId,
    status: o.status ?? 'active',
    maxNumberUsers: o.maxNumberUsers === undefined ? 10 : o.maxNumberUsers,
  });
  return id;
}
const assign = (userId: string, subscriptionId: string, token = t.superToken) =>
  t.inject({ method: 'POST', url: licence(userId, subscriptionId), headers: bearer(token) });
const unassign = (userId: string, subscriptionId: string, token = t.superToken) =>
  t.inject({ method: 'DELETE', url: licence(userId, subscriptionId), headers: bearer(token) });
const counter = async (id: string) =>
  (await t.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0].numberAssignedUsers;
const rows = async (id: string) => (await t.db.select().from(licences).where(eq(licences.subscriptionId, id))).length;
const plainUser = async (companyId: string) => (await makeUser(t, companyId)).id;

beforeAll(async () => {
  t = await createTestApp();
  ({ vad, ir, ecOfIr, ecOfVad, lone } = await makeBpTree(t));
  irAdmin = await makeUser(t, ir, ['bp_admin']);
  ecOfIrAdmin = await makeUser(t, ecOfIr, ['company_admin']);
  loneAdmin = await makeUser(t, lone, ['company_admin']);
});
afterAll(() => t.close());

describe('doc 1, licences: assign and unassign', () => {
  it("assignUserLicence: a licence of an active subscription of the user's company; the row and numberAssignedUsers move together", async () => {
    const sub = await subscription(lone);
    const u = await plainUser(lone);
    const res = await assign(u, sub, loneAdmin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ subscriptionId: sub, userId: u, userCompanyId: lone });
    expect(await counter(sub)).toBe(1);
    expect(await rows(sub)).toBe(1);
  });

  it('clients of the original interface send a body with these calls (document 1: "payloads: not shown"): it is ignored', async () => {
    const sub = await subscription(lone);
    const u = await plainUser(lone);
    const post = await t.inject({
      method: 'POST',
      url: licence(u, sub),
      headers: bearer(t.superToken),
      payload: { subscriptionId: sub, maxNumberUsers: '3', extra: {} },
    });
    expect(post.statusCode, post.body).toBe(201);
    const del = await t.inject({ method: 'DELETE', url: licence(u, sub), headers: bearer(t.superToken), payload: {} });
    expect(del.statusCode, del.body).toBe(200);
    expect(await counter(sub)).toBe(0);
  });

  it('an empty body sent as application/json (curl -H "Content-Type: application/json" -X POST, and clients that always set the header) is no body, not malformed JSON', async () => {
    const sub = await subscription(lone);
    const u = await plainUser(lone);
    const headers = { ...bearer(t.superToken), 'content-type': 'application/json' };
    const post = await t.inject({ method: 'POST', url: licence(u, sub), headers, payload: '' });
    expect(post.statusCode, post.body).toBe(201);
    const del = await t.inject({ method: 'DELETE', url: licence(u, sub), headers, payload: '' });
    expect(del.statusCode, del.body).toBe(200);
  });

  it('assignUserLicence, already assigned: the same licence again (201), no second one taken (decisions, Licences)', async () => {
    const sub = await subscription(lone);
    const u = await plainUser(lone);
    const first = await assign(u, sub);
    const again = await assign(u, sub);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.assignedAt).toBe(first.json().data.assignedAt);
    expect(await counter(sub)).toBe(1);
  });

  it('doc 1, create subscription rule 9: assigning beyond maxNumberUsers is refused (409651); nothing is stored', async () => {
    const sub = await subscription(lone, { maxNumberUsers: 1 });
    expect((await assign(await plainUser(lone), sub)).statusCode).toBe(201);
    const u2 = await plainUser(lone);
    const res = await assign(u2, sub);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409651);
    expect(await counter(sub)).toBe(1);
    expect(await rows(sub)).toBe(1);
  });

  it('doc 1, subscription states: only an active subscription gives licences (409650 while creating, and when terminated)', async () => {
    for (const status of ['creating', 'terminated'] as const) {
      const sub = await subscription(lone, { status });
      const res = await assign(await plainUser(lone), sub);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().errorDetailsCode).toBe(409650);
      expect(await rows(sub)).toBe(0);
    }
  });

  it('doc 1, licence counters: a subscription of another company is not for the user (400650), even to a superadmin', async () => {
    const sub = await subscription(ecOfVad);
    const res = await assign(await plainUser(lone), sub);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400650);
    // A VAD's subscription is not for its End Customers' users: only a BP IR's licences go down.
    const vadSub = await subscription(vad);
    expect((await assign(await plainUser(ecOfVad), vadSub)).json().errorDetailsCode).toBe(400650);
  });

  it("doc 1, licence counters: a BP IR company's subscription gives licences to the users of its End Customers; the IR's bp_admin assigns them, the End Customer's company_admin does not (the IR's subscription is not his to see: 404)", async () => {
    const sub = await subscription(ir);
    const u = await plainUser(ecOfIr);
    const refused = await assign(u, sub, ecOfIrAdmin.token);
    expect(refused.statusCode, refused.body).toBe(404);
    const res = await assign(u, sub, irAdmin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.userCompanyId).toBe(ecOfIr);
  });

  it("assignUserLicence: another tenant's user or subscription is 404; a subscription seen but not granted is 403", async () => {
    const mine = await subscription(lone);
    const foreignUser = await plainUser(ecOfVad);
    expect((await assign(foreignUser, mine, loneAdmin.token)).statusCode).toBe(404);
    const foreignSub = await subscription(ecOfVad);
    expect((await assign(await plainUser(lone), foreignSub, loneAdmin.token)).statusCode).toBe(404);
    expect((await assign(await plainUser(lone), newId(), loneAdmin.token)).statusCode).toBe(404);
    // A support reads every subscription (getSubscription) but hands out no licence.
    const support = await makeUser(t, t.defaultCompanyId, ['support']);
    expect((await assign(await plainUser(lone), mine, support.token)).statusCode).toBe(403);
  });

  it('unassignUserLicence: the row goes and numberAssignedUsers falls; unassigning again leaves everything as is (200)', async () => {
    const sub = await subscription(lone, { maxNumberUsers: 1 });
    const u = await plainUser(lone);
    await assign(u, sub);
    const res = await unassign(u, sub, loneAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await counter(sub)).toBe(0);
    expect(await rows(sub)).toBe(0);
    const again = await unassign(u, sub, loneAdmin.token);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toMatch(/holds no licence/);
    expect(await counter(sub)).toBe(0);
    // The licence freed is free again.
    expect((await assign(await plainUser(lone), sub)).statusCode).toBe(201);
  });

  it("deleting a user gives his licences back: every subscription's numberAssignedUsers falls with the rows the foreign key removes", async () => {
    const a = await subscription(ir);
    const b = await subscription(ir);
    const u = await plainUser(ecOfIr);
    const other = await plainUser(ir);
    for (const s of [a, b]) await assign(u, s);
    await assign(other, a);
    const res = await t.inject({ method: 'DELETE', url: `${A}/users/${u}`, headers: bearer(t.superToken) });
    expect(res.statusCode, res.body).toBe(200);
    expect([await counter(a), await rows(a)]).toEqual([1, 1]);
    expect([await counter(b), await rows(b)]).toEqual([0, 0]);
  });

  it('deleting a subscription takes its licences with it (no error from the count of a row being deleted)', async () => {
    const sub = await subscription(lone);
    await assign(await plainUser(lone), sub);
    await t.db.delete(subscriptions).where(eq(subscriptions.id, sub));
    expect(await rows(sub)).toBe(0);
  });
});

describe('doc 3, create company rule 7: users are assigned to the default subscription on arrival', () => {
  let company: string;
  let admin: MadeUser;
  let defaultSub: string;
  beforeAll(async () => {
    company = await makeCompany(t);
    await addDefaultSubscription(t.db, company, t.clock.now());
    defaultSub = (await t.db.select().from(subscriptions).where(eq(subscriptions.companyId, company)))[0].id;
    admin = await makeUser(t, company, ['company_admin']);
  });
  const holdsDefault = async (userId: string) =>
    (await t.db.select().from(licences).where(eq(licences.userId, userId))).map((l) => l.subscriptionId);

  it("a user created by an administrator holds a licence of his company's default subscription", async () => {
    const res = await t.inject({
      method: 'POST',
      url: `${A}/users`,
      headers: bearer(admin.token),
      payload: { companyId: company, loginEmail: `made${newId()}@example.com`, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await holdsDefault(res.json().data.id)).toEqual([defaultSub]);
  });

  it('a self-registered user holds one', async () => {
    const link = await t.inject({
      method: 'POST',
      url: `${A}/companies/${company}/join-companies/links`,
      headers: bearer(admin.token),
      payload: {},
    });
    expect(link.statusCode, link.body).toBe(201);
    const res = await t.inject({
      method: 'POST',
      url: '/api/svc/enduser/v1.0/users/self-register',
      payload: { loginEmail: `self${newId()}@example.com`, password: PASSWORD, joinCompanyLinkId: link.json().data.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await holdsDefault(res.json().data.id)).toEqual([defaultSub]);
  });

  it('an invited user holds one once he accepts', async () => {
    const inv = await t.inject({
      method: 'POST',
      url: `${A}/companies/${company}/join-companies/invitations`,
      headers: bearer(admin.token),
      payload: { email: `inv${newId()}@example.com` },
    });
    expect(inv.statusCode, inv.body).toBe(201);
    const { id, invitationToken } = inv.json().data;
    const res = await t.inject({
      method: 'POST',
      url: `/api/svc/enduser/v1.0/join-companies/invitations/${id}/accept`,
      payload: { token: invitationToken, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await holdsDefault(res.json().data.id)).toEqual([defaultSub]);
  });

  it("a user of the Default company who creates his own company holds its default subscription's licence, and gives back the Default company's", async () => {
    const defaultCompanySub = (
      await t.db.select().from(subscriptions).where(eq(subscriptions.companyId, t.defaultCompanyId))
    )[0].id;
    const res = await t.inject({
      method: 'POST',
      url: `${A}/users`,
      headers: bearer(t.superToken),
      payload: { companyId: t.defaultCompanyId, loginEmail: `own${newId()}@example.com`, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    const u = res.json().data as { id: string; loginEmail: string };
    expect(await holdsDefault(u.id)).toEqual([defaultCompanySub]);
    const before = await counter(defaultCompanySub);
    const own = await t.inject({
      method: 'POST',
      url: '/api/svc/enduser/v1.0/companies',
      headers: bearer(await t.login(u.loginEmail, PASSWORD)),
      payload: { name: `Own ${newId()}` },
    });
    expect(own.statusCode, own.body).toBe(201);
    const ownSub = (await t.db.select().from(subscriptions).where(eq(subscriptions.companyId, own.json().data.id)))[0]
      .id;
    expect(await holdsDefault(u.id)).toEqual([ownSub]);
    expect(await counter(ownSub)).toBe(1);
    expect(await counter(defaultCompanySub)).toBe(before - 1);
  });

  it('the count of the default subscription follows its licences', async () => {
    expect(await counter(defaultSub)).toBe(await rows(defaultSub));
  });
});

describe('doc 1, Subscription, licence counters (licenceCounters)', () => {
  it("a BP IR company's nb_users subscription: nbBPLicences, nbAssignedBPUsers, nbLicencesAssignedToECs, nbLicencesUsed, nbFreeLicences, numberAssignedUsers", async () => {
    const sub = await subscription(ir, { maxNumberUsers: 5 });
    await assign(await plainUser(ir), sub);
    for (let i = 0; i < 2; i++) await assign(await plainUser(ecOfIr), sub);
    const c = await licenceCounters(t.db, [{ id: sub }]);
    expect(c.get(sub)).toEqual({
      nbBPLicences: 5,
      nbAssignedBPUsers: 1,
      nbLicencesAssignedToECs: 2,
      nbLicencesUsed: 3,
      nbFreeLicences: 2,
      numberAssignedUsers: 3,
    });
  });

  it("other companies, and other business models of a BP IR: numberAssignedUsers only, the licences of the company's users; one statement for many", async () => {
    const a = await subscription(lone);
    const b = await subscription(ir, { businessModel: 'nb_services' });
    await assign(await plainUser(lone), a);
    await assign(await plainUser(lone), a);
    await assign(await plainUser(ir), b);
    const c = await licenceCounters(t.db, [{ id: a }, { id: b }, { id: newId() }]);
    expect(c.get(a)).toEqual({ numberAssignedUsers: 2 });
    expect(c.get(b)).toEqual({ numberAssignedUsers: 1 });
    expect(c.size).toBe(2);
  });
});
