// Issue 27, point 10 (roles of the bulk import), one test per sentence of the rule, through the real
// routes: "The superadmin imports into any company; a bp_admin into its End Customers; an
// organization_admin into the companies of its organisation; a company_admin into his own company;
// reports are readable by whoever may import into that company (404 to others); plain users and
// anonymous callers are refused." (src/modules/imports/imports.policy.ts). The generated matrix
// (test/authz/matrix.test.ts) covers every role and placement; this file reads the rule as written,
// and checks that an allowed import really lands in the company named and a refused one leaves
// nothing behind. Runs on PGlite and PostgreSQL (TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { newId } from '../../src/shared/ids.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { imports } from '../../src/modules/imports/imports.tables.ts';
import { M, postCsv, waitForImport } from './support.ts';

describe('issue 27, point 10: roles of the bulk import', () => {
  let t: TestApp;
  /** A BP VAD and its End Customer; another BP and its End Customer; two companies of an organisation; an outsider. */
  const c = {} as Record<'vad' | 'ecVad' | 'otherBp' | 'ecOther' | 'orgA' | 'orgB' | 'outsider', string>;
  let bpAdmin: MadeUser;
  let orgAdmin: MadeUser;
  let companyAdmin: MadeUser;
  let plainUser: MadeUser;
  let seq = 0;

  before(async () => {
    t = await createTestApp({ background: true });
    const org = newId();
    await t.db.insert(organisations).values({ id: org, name: 'Import roles organisation' });
    c.vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
    c.ecVad = await makeCompany(t, { bpId: c.vad });
    c.otherBp = await makeCompany(t, { isBP: true, bpType: 'VAD' });
    c.ecOther = await makeCompany(t, { bpId: c.otherBp });
    c.orgA = await makeCompany(t, { organisationId: org });
    c.orgB = await makeCompany(t, { organisationId: org });
    c.outsider = await makeCompany(t);
    bpAdmin = await makeUser(t, c.vad, ['bp_admin']);
    orgAdmin = await makeUser(t, c.orgA, ['organization_admin']);
    companyAdmin = await makeUser(t, c.ecVad, ['company_admin']);
    plainUser = await makeUser(t, c.ecVad);
  });
  after(() => t.close());

  /** A CSV of one new login (a CSV of its own each time: the same data is 409 until its report is deleted). */
  const oneLine = () => {
    const login = `roles-${++seq}@import.test`;
    return { login, csv: `loginEmail;firstName;lastName\n${login};Role;Case${seq}\n` };
  };
  const companyOf = async (login: string) =>
    (
      await t.db
        .select({ companyId: users.companyId })
        .from(users)
        .where(sql`lower(${users.loginEmail}) = ${login}`)
    )[0]?.companyId;
  const importsOf = async (companyId: string) =>
    (await t.db.select({ id: imports.id }).from(imports).where(eq(imports.companyId, companyId))).length;

  /** Imports into the company (query companyId, or none: the caller's own) and expects the user to land there. */
  async function importsInto(token: string, companyId: string | undefined, landsIn: string) {
    const { login, csv } = oneLine();
    const res = await postCsv(t, token, '/users/imports', csv, companyId ? { companyId } : {});
    expect(res.statusCode, res.body).toBe(202);
    const summary = await waitForImport(t, token, res.json().data.reqId);
    expect(summary.counters).toEqual({ succeeded: 1, failed: 0, warnings: 0, total: 1 });
    expect(await companyOf(login)).toBe(landsIn);
    return res.json().data.reqId as string;
  }

  /** Refused: the status and code expected, no import recorded in the company, no user made, the check refused alike. */
  async function refused(token: string | undefined, companyId: string, status: number, code: number) {
    const { login, csv } = oneLine();
    const before = await importsOf(companyId);
    const headers = token ? bearer(token) : {};
    for (const path of ['/users/imports', '/users/imports/check', '/users/imports/synchronize']) {
      const res = await t.inject({
        method: 'POST',
        url: `${M}${path}?companyId=${companyId}`,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: csv,
      });
      expect({ path, status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({ path, status, code });
    }
    expect(await importsOf(companyId)).toBe(before);
    expect(await companyOf(login)).toBe(undefined);
  }

  const NOT_FOUND = [404, 404000] as const;
  const FORBIDDEN = [403, 403001] as const;

  it('issue 27, point 10: the superadmin imports into any company', async () => {
    for (const k of ['outsider', 'ecOther', 'vad', 'orgB'] as const) await importsInto(t.superToken, c[k], c[k]);
  });

  it('issue 27, point 10: a bp_admin imports into its End Customers, not into other companies', async () => {
    await importsInto(bpAdmin.token, c.ecVad, c.ecVad);
    // Another BP's End Customer and a company of no relation: unknown to him.
    await refused(bpAdmin.token, c.ecOther, ...NOT_FOUND);
    await refused(bpAdmin.token, c.outsider, ...NOT_FOUND);
    // His own BP company is no End Customer: he sees it, he may not import into it.
    await refused(bpAdmin.token, c.vad, ...FORBIDDEN);
    const res = await postCsv(t, bpAdmin.token, '/users/imports', oneLine().csv);
    expect(res.statusCode).toBe(403);
  });

  it('issue 27, point 10: an organization_admin imports into the companies of its organisation, not elsewhere', async () => {
    await importsInto(orgAdmin.token, c.orgA, c.orgA);
    await importsInto(orgAdmin.token, c.orgB, c.orgB);
    // Without companyId: his own company, which is of his organisation.
    await importsInto(orgAdmin.token, undefined, c.orgA);
    await refused(orgAdmin.token, c.outsider, ...NOT_FOUND);
    await refused(orgAdmin.token, c.ecVad, ...NOT_FOUND);
  });

  it('issue 27, point 10: a company_admin imports into his own company, and only there', async () => {
    await importsInto(companyAdmin.token, c.ecVad, c.ecVad);
    await importsInto(companyAdmin.token, undefined, c.ecVad);
    await refused(companyAdmin.token, c.ecOther, ...NOT_FOUND);
    await refused(companyAdmin.token, c.orgA, ...NOT_FOUND);
  });

  it('issue 27, point 10: reports are readable by whoever may import into that company, 404 to others', async () => {
    // An import into the End Customer of the VAD, by the superadmin.
    const reqId = await importsInto(t.superToken, c.ecVad, c.ecVad);
    const report = (token: string) =>
      t.inject({ method: 'GET', url: `${M}/users/imports/${reqId}/details`, headers: bearer(token) });
    const lists = (token: string) =>
      Promise.all([
        t.inject({ method: 'GET', url: `${M}/users/imports?companyId=${c.ecVad}`, headers: bearer(token) }),
        t.inject({ method: 'GET', url: `${M}/companies/${c.ecVad}/imports`, headers: bearer(token) }),
      ]);
    const otherAdmin = await makeUser(t, c.ecOther, ['company_admin']);
    const otherBpAdmin = await makeUser(t, c.otherBp, ['bp_admin']);
    for (const [who, token] of [
      ['superadmin', t.superToken],
      ['bp_admin of its BP', bpAdmin.token],
      ['company_admin of the company', companyAdmin.token],
    ] as const) {
      const res = await report(token);
      expect({ who, status: res.statusCode }).toEqual({ who, status: 200 });
      expect(Object.keys(res.json().data.report)).toContain(`roles-${seq}@import.test`);
      for (const list of await lists(token)) {
        expect({ who, status: list.statusCode }).toEqual({ who, status: 200 });
        expect(list.json().data.map((s: { reqId: string }) => s.reqId)).toContain(reqId);
      }
    }
    for (const [who, token] of [
      ['organization_admin of another organisation', orgAdmin.token],
      ['company_admin of another company', otherAdmin.token],
      ['bp_admin of another BP', otherBpAdmin.token],
    ] as const) {
      const res = await report(token);
      expect({ who, status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({
        who,
        status: 404,
        code: 404000,
      });
      // Nor can they delete it, nor list the company's imports.
      const del = await t.inject({
        method: 'DELETE',
        url: `${M}/users/imports/${reqId}/details`,
        headers: bearer(token),
      });
      expect({ who, status: del.statusCode }).toEqual({ who, status: 404 });
      for (const list of await lists(token)) expect({ who, status: list.statusCode }).toEqual({ who, status: 404 });
    }
    // The report is still there; one who may import into the company deletes it.
    expect((await report(t.superToken)).statusCode).toBe(200);
    const del = await t.inject({
      method: 'DELETE',
      url: `${M}/users/imports/${reqId}/details`,
      headers: bearer(bpAdmin.token),
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().data).toEqual({ reqId, status: 'Deleted' });
    expect((await report(t.superToken)).statusCode).toBe(404);
  });

  it('issue 27, point 10: plain users and anonymous callers are refused', async () => {
    // A report of the plain user's own company.
    const reqId = await importsInto(companyAdmin.token, c.ecVad, c.ecVad);
    // A plain user may not read a company through the company routes (getCompany): his own is
    // unknown to the import as any other (404), named or not; so is the report.
    await refused(plainUser.token, c.ecVad, ...NOT_FOUND);
    const own = await postCsv(t, plainUser.token, '/users/imports', oneLine().csv);
    expect({ status: own.statusCode, code: own.json().errorDetailsCode }).toEqual({ status: 404, code: 404000 });
    const report = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/${reqId}/details`,
      headers: bearer(plainUser.token),
    });
    expect(report.statusCode).toBe(404);
    const list = await t.inject({ method: 'GET', url: `${M}/users/imports`, headers: bearer(plainUser.token) });
    expect(list.statusCode).toBe(404);
    const del = await t.inject({
      method: 'DELETE',
      url: `${M}/users/imports/${reqId}/details`,
      headers: bearer(plainUser.token),
    });
    expect(del.statusCode).toBe(404);
    // Anonymous: 401 everywhere, nothing made.
    await refused(undefined, c.ecVad, 401, 401500);
    for (const [method, url] of [
      ['GET', `${M}/users/imports/${reqId}/details`],
      ['DELETE', `${M}/users/imports/${reqId}/details`],
      ['GET', `${M}/users/imports?companyId=${c.ecVad}`],
      ['GET', `${M}/companies/${c.ecVad}/imports`],
    ] as const) {
      const res = await t.inject({ method, url });
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 401 });
    }
    // The report is untouched.
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `${M}/users/imports/${reqId}/details`,
          headers: bearer(companyAdmin.token),
        })
      ).statusCode,
    ).toBe(200);
  });
});
