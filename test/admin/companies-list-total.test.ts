// Issue 6, point 8: listCompanies remembers the total of a filter set with the version of the
// companies tables (src/db/list-count.ts) so that its cost does not grow with the table. The
// total must stay exact: any write, by this instance or another one (here a write straight to
// the database), is seen by the next page.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const A = '/api/svc/admin/v1.0/companies';
let t: TestApp;
let bp: string;

beforeAll(async () => {
  t = await createTestApp();
  bp = await makeCompany(t, { name: 'Total BP', isBP: true, bpType: 'DR' });
  for (let i = 0; i < 3; i++) await makeCompany(t, { name: `Total customer ${i}`, bpId: bp });
});
afterAll(() => t.close());

const total = async (qs: string, format = 'small') => {
  const res = await t.inject({
    method: 'GET',
    url: `${A}?limit=1&format=${format}&${qs}`,
    headers: bearer(t.superToken),
  });
  expect(res.statusCode).toBe(200);
  return res.json().total as number;
};

describe('listCompanies totals', () => {
  it('stay exact across writes of the API, of another instance (the database directly), and of subscriptions', async () => {
    const qs = `bpId=${bp}&status=active`;
    expect(await total(qs)).toBe(3);
    expect(await total(qs)).toBe(3);
    expect(await total(qs, 'full')).toBe(3);

    // Through the API.
    const created = await t.inject({
      method: 'POST',
      url: A,
      headers: bearer(t.superToken),
      payload: { name: 'Total customer 3', bpId: bp, country: 'FRA' },
    });
    expect(created.statusCode).toBe(201);
    expect(await total(qs)).toBe(4);
    expect(await total(qs, 'full')).toBe(4);

    // Another instance writes: only the database knows.
    await t.db.update(companies).set({ status: 'hold' }).where(eq(companies.id, created.json().data.id));
    expect(await total(qs)).toBe(3);
    expect(await total(`bpId=${bp}&status=hold`)).toBe(1);
    await makeCompany(t, { name: 'Total customer 4', bpId: bp });
    expect(await total(qs)).toBe(4);
    expect(await total(`name=customer&bpId=${bp}`)).toBe(5);

    // The offer filters read subscriptions: a new subscription moves their total too.
    const offerId = newId();
    await t.db.insert(offers).values({ id: offerId, name: 'Sold offer', canBeSold: true, groupName: 'sold' });
    expect(await total(`offerCanBeSold=true&bpId=${bp}`)).toBe(0);
    const [one] = await t.db.select({ id: companies.id }).from(companies).where(eq(companies.bpId, bp)).limit(1);
    await t.db.insert(subscriptions).values({ id: newId(), companyId: one.id, offerId, status: 'active' });
    expect(await total(`offerCanBeSold=true&bpId=${bp}`)).toBe(1);
    await t.db.update(subscriptions).set({ status: 'terminated' }).where(eq(subscriptions.offerId, offerId));
    expect(await total(`offerCanBeSold=true&bpId=${bp}`)).toBe(0);
  });
});

// The statement of a list page is built once per scope, filters and page and then reused
// (src/authz/evaluate.ts, scopeKey; src/db/list-count.ts, buildKey): the same request from a
// caller of another scope must never be answered with the statement built for the first.
describe('listCompanies statements reused across callers', () => {
  it('two bp_admins of different BPs asking the same page in turn each see their own customers only', async () => {
    const bpA = await makeCompany(t, { name: 'Scope BP A', isBP: true, bpType: 'DR' });
    const bpB = await makeCompany(t, { name: 'Scope BP B', isBP: true, bpType: 'DR' });
    const ofA = [
      await makeCompany(t, { name: 'Scope customer A1', bpId: bpA }),
      await makeCompany(t, { name: 'Scope customer A2', bpId: bpA }),
    ];
    const ofB = [await makeCompany(t, { name: 'Scope customer B1', bpId: bpB })];
    const adminA = await makeUser(t, bpA, ['bp_admin']);
    const adminB = await makeUser(t, bpB, ['bp_admin']);
    const page = async (token: string) => {
      const res = await t.inject({ method: 'GET', url: `${A}?name=scope%20customer&limit=10`, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const body = res.json() as { data: { id: string }[]; total: number };
      return { ids: body.data.map((c) => c.id).sort(), total: body.total };
    };
    for (let round = 0; round < 2; round++) {
      expect(await page(adminA.token)).toEqual({ ids: [...ofA].sort(), total: 2 });
      expect(await page(adminB.token)).toEqual({ ids: [...ofB].sort(), total: 1 });
    }
    // A superadmin's statement (any company) is not the bp_admins' either.
    expect((await page(t.superToken)).total).toBe(3);
  });
});
