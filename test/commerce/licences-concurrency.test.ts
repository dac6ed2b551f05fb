// Issue 10, point 4: the licence counters stay exact under concurrency. This file runs on both
// engines: PGlite by default, PostgreSQL with TEST_DATABASE_URL (there the requests run on
// several connections and queue on the subscription's row).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { licences, offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const A = '/api/svc/admin/v1.0';
let t: TestApp;
let company: string;

beforeAll(async () => {
  t = await createTestApp();
  company = await makeCompany(t, { isBP: true, bpType: 'IR' });
});
afterAll(() => t.close());

async function subscription(maxNumberUsers: number): Promise<string> {
  const offerId = newId();
  await t.db.insert(offers).values({ id: offerId, name: `Offer ${offerId}`, businessModel: 'nb_users' });
  const id = newId();
  await t.db.insert(subscriptions).values({ id, companyId: company, offerId, status: 'active', maxNumberUsers });
  return id;
}

async function newUsers(n: number, companyId: string): Promise<string[]> {
  const ids = Array.from({ length: n }, () => newId());
  await t.db
    .insert(users)
    .values(ids.map((id) => ({ id, companyId, loginEmail: `c${id}@example.com`, passwordHash: 'x' })));
  return ids;
}

const assign = (userId: string, subscriptionId: string) =>
  t.inject({
    method: 'POST',
    url: `${A}/users/${userId}/profiles/subscriptions/${subscriptionId}`,
    headers: bearer(t.superToken),
  });

async function countsAgree(subscriptionId: string): Promise<number> {
  const [s] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  const [r] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(licences)
    .where(eq(licences.subscriptionId, subscriptionId));
  expect(s.numberAssignedUsers).toBe(r.n);
  return r.n;
}

describe('issue 10, point 4: licence counters under concurrency', () => {
  it('doc 1, create subscription rule 9: 50 concurrent assignments against 10 free licences, exactly 10 succeed (the others 409651) and the counter agrees with the rows', async () => {
    const sub = await subscription(10);
    const ids = await newUsers(50, company);
    const answers = await Promise.all(ids.map((u) => assign(u, sub)));
    const ok = answers.filter((r) => r.statusCode === 201);
    expect(ok.length).toBe(10);
    for (const r of answers.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().errorDetailsCode).toBe(409651);
    }
    expect(await countsAgree(sub)).toBe(10);
    // The users who got one are exactly those holding a row.
    const holders = (await t.db.select({ u: licences.userId }).from(licences).where(eq(licences.subscriptionId, sub)))
      .map((l) => l.u)
      .sort();
    expect(holders).toEqual(ok.map((r) => r.json().data.userId as string).sort());
  });

  it('the same user assigned 10 times at once holds one licence, counted once', async () => {
    const sub = await subscription(10);
    const [u] = await newUsers(1, company);
    const answers = await Promise.all(Array.from({ length: 10 }, () => assign(u, sub)));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    expect(await countsAgree(sub)).toBe(1);
  });

  it('assignments, unassignments and user deletions interleaved: the counter agrees with the rows', async () => {
    const sub = await subscription(20);
    const ids = await newUsers(30, company);
    await Promise.all(
      ids.map(async (u, i) => {
        const r = await assign(u, sub);
        if (r.statusCode !== 201) return;
        if (i % 3 === 0)
          await t.inject({
            method: 'DELETE',
            url: `${A}/users/${u}/profiles/subscriptions/${sub}`,
            headers: bearer(t.superToken),
          });
        if (i % 3 === 1) await t.inject({ method: 'DELETE', url: `${A}/users/${u}`, headers: bearer(t.superToken) });
      }),
    );
    const n = await countsAgree(sub);
    expect(n <= 20).toBe(true);
  });
});
