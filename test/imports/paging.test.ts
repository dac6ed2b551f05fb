// Issue 28, point 9: lists of any size page on the server. The per-line report of an import
// (getImportReport) and the lists of imports (listImports, listCompanyImports) take an optional
// limit/offset (and the report a status): without them the answer is document 3's as before;
// with them the page comes from SQL, with its total.
import { after, before, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { M, importAndWait, postCsv, waitForImport } from './support.ts';

describe('issue 28, point 9: the import report and the imports page on the server', () => {
  let t: TestApp;
  let companyId: string;
  let admin: MadeUser;
  let reqId: string;
  // Lines 2 to 9 (the header is line 1): ann three times (her second and third lines fail: a
  // login once per import), two bad logins and a line without login (failing): a failing line
  // whose key depends on a succeeding line before it.
  const csv = [
    'loginEmail,firstName',
    'ann@paging.test,Ann',
    'bad-one,X',
    'ann@paging.test,Anna',
    'bob@paging.test,Bob',
    ',Nobody',
    'ann@paging.test,Annie',
    'cid@paging.test,Cid',
    'bad-two,Y',
  ].join('\n');
  const FAILING = ['bad-one,X', 'ann@paging.test,Anna', ',Nobody', 'ann@paging.test,Annie', 'bad-two,Y'];
  const FAILED_KEYS = ['bad-one', 'ann@paging.test#4', 'line 6', 'ann@paging.test#7', 'bad-two'];

  before(async () => {
    t = await createTestApp({ background: true });
    companyId = await makeCompany(t);
    admin = await makeUser(t, companyId, ['company_admin']);
    const res = await postCsv(t, admin.token, '/users/imports', csv, { label: 'paged' });
    expect(res.statusCode, res.body).toBe(202);
    reqId = res.json().data.reqId;
    await waitForImport(t, admin.token, reqId);
    // Two more imports for the lists, each started later (the latest first).
    t.clock.advance(1000);
    await importAndWait(t, admin.token, 'loginEmail\ndee@paging.test\n');
    t.clock.advance(1000);
    await importAndWait(t, admin.token, 'loginEmail\neve@paging.test\n');
  });
  after(() => t.close());

  const get = (url: string) => t.inject({ method: 'GET', url, headers: bearer(admin.token) });
  const report = async (qs = '') => {
    const res = await get(`${M}/users/imports/${reqId}/details${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('without limit or offset the report is unchanged: every line keyed by login, every failing line, no paging fields', async () => {
    const whole = await report();
    expect(Object.keys(whole.report)).toEqual([
      'ann@paging.test',
      'bad-one',
      'ann@paging.test#4',
      'bob@paging.test',
      'line 6',
      'ann@paging.test#7',
      'cid@paging.test',
      'bad-two',
    ]);
    expect(whole.failingLines).toEqual(FAILING);
    expect(whole.counters).toEqual({ succeeded: 3, failed: 5, warnings: 0, total: 8 });
    for (const k of ['reportTotal', 'reportLimit', 'reportOffset']) expect(k in whole).toBe(false);
    const small = await report('?format=small');
    expect('report' in small).toBe(false);
  });

  it('with limit/offset the page holds exactly those lines in CSV order, keyed as in the whole report, with reportTotal', async () => {
    const whole = await report();
    const entries = Object.entries(whole.report);
    const seen: [string, unknown][] = [];
    for (let offset = 0; offset < entries.length; offset += 3) {
      const page = await report(`?limit=3&offset=${offset}`);
      expect(page).toMatchObject({ reportTotal: 8, reportLimit: 3, reportOffset: offset, reqId });
      expect(Object.entries(page.report)).toEqual(entries.slice(offset, offset + 3));
      seen.push(...Object.entries(page.report));
    }
    expect(seen).toEqual(entries);
    const page = await report('?limit=2&offset=4');
    // Lines 6 and 7: the failing line without login, and ann's third line (her first is on page 1).
    expect(Object.keys(page.report)).toEqual(['line 6', 'ann@paging.test#7']);
    expect(page.failingLines).toEqual([',Nobody', 'ann@paging.test,Annie']);
    expect(await report('?limit=2&offset=50')).toMatchObject({ report: {}, failingLines: [], reportTotal: 8 });
  });

  it('the status filter combines with paging: paging through status=failed gives every failing line, with their total', async () => {
    const whole = await report();
    const failedOnly = await report('?status=failed');
    expect(Object.keys(failedOnly.report)).toEqual(FAILED_KEYS);
    expect(failedOnly.failingLines).toEqual(whole.failingLines);
    const lines: string[] = [];
    const keys: string[] = [];
    for (let offset = 0; offset < 5; offset += 2) {
      const page = await report(`?status=failed&limit=2&offset=${offset}`);
      expect(page).toMatchObject({ reportTotal: 5, reportLimit: 2, reportOffset: offset });
      lines.push(...page.failingLines);
      keys.push(...Object.keys(page.report));
    }
    expect(lines).toEqual(whole.failingLines);
    // ann's second line keeps its key '#4' although her first line (succeeded) is filtered out.
    expect(keys).toEqual(FAILED_KEYS);
    const succeeded = await report('?status=succeeded&limit=2&offset=1');
    expect(succeeded).toMatchObject({ reportTotal: 3, failingLines: [] });
    expect(Object.keys(succeeded.report)).toEqual(['bob@paging.test', 'cid@paging.test']);
  });

  it("bad values: an unknown status is 400; a non-numeric limit falls back to 100 and a negative offset to 0, as the other lists'", async () => {
    const bad = await get(`${M}/users/imports/${reqId}/details?status=pending`);
    expect(bad.statusCode).toBe(400);
    expect(await report('?limit=abc&offset=-2')).toMatchObject({ reportTotal: 8, reportLimit: 100, reportOffset: 0 });
    expect(await report('?limit=5000')).toMatchObject({ reportLimit: 1000 });
  });

  it('listImports and listCompanyImports: {data} whole without limit; with limit/offset a page of the latest first and the total', async () => {
    for (const base of [`${M}/users/imports?companyId=${companyId}`, `${M}/companies/${companyId}/imports?`]) {
      const res = await get(base);
      expect(res.statusCode, res.body).toBe(200);
      const whole = res.json();
      expect(Object.keys(whole)).toEqual(['data']);
      expect(whole.data).toHaveLength(3);
      const ids = whole.data.map((i: { reqId: string }) => i.reqId);
      expect(ids[2]).toBe(reqId);
      const page = (await get(`${base}&limit=2&offset=1`)).json();
      expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
      expect(page.data).toEqual(whole.data.slice(1, 3));
      expect((await get(`${base}&offset=x&limit=1`)).json()).toMatchObject({ total: 3, limit: 1, offset: 0 });
    }
  });
});
