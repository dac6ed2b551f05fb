// Issue 6, point 8: every single-resource GET answers in one database round trip: the session,
// the caller, the target, the authorisation and the data of the answer (a company's
// subscriptions and user count) come from one statement. Counted on the database client itself,
// so any extra statement of a handler shows.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { eq } from 'drizzle-orm';
import { makeCompany, makeSite, makeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { systemConnectionEvents } from '../../src/modules/systems/systems.tables.ts';
import { readWithStatements, statementsOf } from '../support/statements.ts';

const A = '/api/svc/admin/v1.0';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function roundTrips(
  url: string,
  token: string,
): Promise<{ count: number; seen: string; body: Record<string, unknown> }> {
  const { statements, body } = await readWithStatements(t, url, token);
  return { count: statements.length, seen: statements.join(' '), body };
}

/** A company created through the API (with its default subscription). */
async function createdCompany(name: string): Promise<string> {
  const created = await t.inject({
    method: 'POST',
    url: `${A}/companies`,
    headers: bearer(t.superToken),
    payload: { name, country: 'FRA' },
  });
  expect(created.statusCode).toBe(201);
  return created.json().data.id as string;
}

describe('single-resource GETs: one round trip', () => {
  it('getCompany (full: subscriptions and numberUsers), getSite, getUser and the customisation reads, for a superadmin and a company_admin', async () => {
    const companyId = await createdCompany('Round Trip Inc');
    const siteId = await makeSite(t, companyId);
    const admin = await makeUser(t, companyId, ['company_admin']);
    await makeUser(t, companyId);

    for (const token of [t.superToken, admin.token]) {
      const company = await roundTrips(`${A}/companies/${companyId}?format=full`, token);
      expect(company.count).toBe(1);
      // The data of the answer is there: the default subscription and the two users.
      expect(company.body.numberUsers).toBe(2);
      expect(company.body.subscriptions).toEqual([
        expect.objectContaining({ offerName: 'Essential', isDefault: true, status: 'active' }),
      ]);
      expect((await roundTrips(`${A}/sites/${siteId}?format=full`, token)).count).toBe(1);
      expect((await roundTrips(`${A}/users/${admin.id}?format=full`, token)).count).toBe(1);
      const features = await roundTrips(`${A}/companies/${companyId}/app-feature-customisation`, token);
      expect(features.count).toBe(1);
      const elements = await roundTrips(`${A}/companies/${companyId}/custom-elements`, token);
      expect(elements.count).toBe(1);
      expect(elements.body.customisationTemplates).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Full', isDefault: true })]),
      );
    }
  });
});

describe('issue 24, point 5: getCompany reads its extras only for the level that shows them', () => {
  it('the default (small) and medium answers come from the statement without the subscriptions and user count; full from the one with them', async () => {
    const companyId = await createdCompany('Lean Read Inc');
    for (const format of ['', '?format=small', '?format=medium']) {
      const r = await roundTrips(`${A}/companies/${companyId}${format}`, t.superToken);
      expect(r.seen).toContain('target_getCompany_lean_');
      expect(r.body.id).toBe(companyId);
      expect(r.body.subscriptions).toBeUndefined();
    }
    const full = await roundTrips(`${A}/companies/${companyId}?format=full`, t.superToken);
    expect(full.seen).toContain('target_getCompany_r');
    expect(full.seen).not.toContain('_lean');
    expect(full.body.subscriptions).toEqual([expect.objectContaining({ isDefault: true })]);
    expect(full.body.numberUsers).toBe(0);
  });
});

describe("issue 10, point 8: a page of a company's offers in one round trip while offers are unchanged, two after a write", () => {
  it("listCompanyOffers (full, a page of 20): the authorising statement reads the catalog the company sees and the offers' list version; a page remembered at that version needs no other statement", async () => {
    const S = '/api/svc/subscription/v1.0';
    const catalogs = await t.inject({
      method: 'GET',
      url: `${S}/catalogs?format=small&limit=100`,
      headers: bearer(t.superToken),
    });
    const def = (catalogs.json().data as Array<{ id: string; isDefault: boolean }>).find((c) => c.isDefault)!;
    for (let i = 0; i < 25; i++) {
      const made = await t.inject({
        method: 'POST',
        url: `${S}/offers`,
        headers: bearer(t.superToken),
        payload: { name: `Round trip offer ${i}`, prices: [{ currency: 'EUR', amount: '1.50' }] },
      });
      expect(made.statusCode).toBe(201);
      expect(
        (
          await t.inject({
            method: 'POST',
            url: `${S}/catalogs/${def.id}/offers`,
            headers: bearer(t.superToken),
            payload: { offerId: made.json().data.id },
          })
        ).statusCode,
      ).toBe(201);
    }
    const url = `${S}/companies/${t.defaultCompanyId}/offers?format=full&limit=20`;
    expect((await roundTrips(url, t.superToken)).count).toBe(1);
    const res = await t.inject({ method: 'GET', url, headers: bearer(t.superToken) });
    expect({ items: res.json().data.length, total: res.json().total }).toEqual({ items: 20, total: 26 });
    // A write moves the version: the next answer computes the page again (a second statement), exactly.
    const more = await t.inject({
      method: 'POST',
      url: `${S}/offers`,
      headers: bearer(t.superToken),
      payload: { name: 'Round trip offer late' },
    });
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${S}/catalogs/${def.id}/offers`,
          headers: bearer(t.superToken),
          payload: { offerId: more.json().data.id },
        })
      ).statusCode,
    ).toBe(201);
    let after: Awaited<ReturnType<TestApp['inject']>> | undefined;
    expect(
      (
        await statementsOf(
          t,
          async () => (after = await t.inject({ method: 'GET', url, headers: bearer(t.superToken) })),
        )
      ).length,
    ).toBe(2);
    expect(after!.json().total).toBe(27);
  });
});

describe('issue 6, point 8: a page of companies in one round trip while companies are unchanged, two after a write', () => {
  it("listCompanies (small and medium, filtered): the caller's statement reads the companies' list version; a page and total remembered at that version need no other statement", async () => {
    const admin = await makeUser(t, t.defaultCompanyId, ['company_admin']);
    for (const query of ['name=round&status=active&limit=5', 'isBP=false&format=medium&limit=5']) {
      const url = `${A}/companies?${query}`;
      for (const token of [t.superToken, admin.token]) {
        const { count } = await roundTrips(url, token);
        // medium reads its page's rows each time; the total is remembered.
        expect(count).toBe(query.includes('medium') ? 2 : 1);
      }
    }
    const url = `${A}/companies?name=round&limit=5`;
    const before = await t.inject({ method: 'GET', url, headers: bearer(t.superToken) });
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${A}/companies`,
          headers: bearer(t.superToken),
          payload: { name: 'Round Trip Later' },
        })
      ).statusCode,
    ).toBe(201);
    let after: Awaited<ReturnType<TestApp['inject']>> | undefined;
    expect(
      (
        await statementsOf(
          t,
          async () => (after = await t.inject({ method: 'GET', url, headers: bearer(t.superToken) })),
        )
      ).length,
    ).toBe(2);
    expect(after!.json().total).toBe(before.json().total + 1);
    expect(after!.json().data.map((c: { name: string }) => c.name)).toContain('Round Trip Later');
  });
});

describe('issue 6, point 8: a page of users in one round trip while users and companies are unchanged', () => {
  it("listUsers: a page remembered at the users' list version needs no other statement; a write to users or to companies makes the next answer exact", async () => {
    const bp = await makeCompany(t, { name: 'Users RT BP', isBP: true, bpType: 'DR' });
    const customer = await makeCompany(t, { name: 'Users RT customer', bpId: bp });
    const other = await makeCompany(t, { name: 'Users RT other' });
    const bpAdmin = await makeUser(t, bp, ['bp_admin']);
    await makeUser(t, customer);
    const lone = await makeUser(t, other);
    const url = `${A}/users?format=full&limit=50`;
    const ids = async (token: string) => {
      const res = await t.inject({ method: 'GET', url, headers: bearer(token) });
      return { ids: (res.json().data as { id: string }[]).map((u) => u.id).sort(), total: res.json().total as number };
    };
    for (const token of [t.superToken, bpAdmin.token]) expect((await roundTrips(url, token)).count).toBe(1);
    const before = await ids(bpAdmin.token);
    expect(before.ids).not.toContain(lone.id);
    // A write to users: the next answer is computed again (two statements) and holds the new user.
    const added = await makeUser(t, customer);
    let res: Awaited<ReturnType<TestApp['inject']>> | undefined;
    expect(
      (
        await statementsOf(
          t,
          async () => (res = await t.inject({ method: 'GET', url, headers: bearer(bpAdmin.token) })),
        )
      ).length,
    ).toBe(2);
    expect(res!.json().total).toBe(before.total + 1);
    expect((res!.json().data as { id: string }[]).map((u) => u.id)).toContain(added.id);
    // A write to companies only (the other company becomes a customer of the BP): the bp_admin now reaches its user.
    expect((await t.inject({ method: 'GET', url, headers: bearer(bpAdmin.token) })).statusCode).toBe(200);
    await t.db.update(companies).set({ bpId: bp }).where(eq(companies.id, other));
    const after = await ids(bpAdmin.token);
    expect(after.ids).toContain(lone.id);
    expect(after.total).toBe(before.total + 2);
  });
});

describe('a system and its connection history in one statement', () => {
  it('getSystem?connectionHistory=true: one round trip, so the status and the history come from one snapshot; the dates as the API writes them', async () => {
    const companyId = await makeCompany(t, { name: 'Round Trip Systems' });
    const siteId = await makeSite(t, companyId);
    const made = await t.inject({
      method: 'POST',
      url: `${A}/systems`,
      headers: bearer(t.superToken),
      payload: { siteId, name: 'RT PBX' },
    });
    expect(made.statusCode).toBe(201);
    const systemId = made.json().data.id as string;
    const at = new Date('2026-06-15T09:30:00.123Z');
    await t.db.insert(systemConnectionEvents).values({ systemId, seq: 1, eventType: 'LOGIN', eventDate: at });
    const { count, body } = await roundTrips(`${A}/systems/${systemId}?connectionHistory=true`, t.superToken);
    expect(count).toBe(1);
    expect(body.connectionHistory).toEqual([{ eventType: 'LOGIN', eventDate: at.toISOString() }]);
    expect(
      (await t.inject({ method: 'GET', url: `${A}/systems/${systemId}`, headers: bearer(t.superToken) })).json().data
        .connectionHistory,
    ).toBeUndefined();
  });
});
