// Issue 27, point 9: clients of the original interface. "Every parameter in the query string
// (companyId, delimiter, comment, label, commandId, noemails, nostrict), the raw text/csv body,
// DELETE of a report with a JSON body, the template asked with accept: text/csv: the SDK's import
// calls work." Each call here is made as the SDK makes it (route table, Bulk import: "CSV bodies are
// sent raw with Content-Type: text/csv; charset=utf-8; query companyId, delimiter, comment, label,
// commandId as relevant"). Runs on PGlite and PostgreSQL (TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { imports } from '../../src/modules/imports/imports.tables.ts';
import { M, waitForImport } from './support.ts';

describe('issue 27, point 9: the import calls of the original SDK', () => {
  let t: TestApp;
  let companyId: string;
  let admin: MadeUser;
  let seq = 0;
  before(async () => {
    t = await createTestApp({ background: true });
    companyId = await makeCompany(t);
    admin = await makeUser(t, companyId, ['company_admin']);
  });
  after(() => t.close());

  /** A POST as the SDK sends it: the CSV raw, every parameter in the query string as written here. */
  const post = (
    path: string,
    query: string,
    csv: string | Buffer,
    contentType = 'text/csv; charset=utf-8',
    token = t.superToken,
  ) =>
    t.inject({
      method: 'POST',
      url: `${M}${path}${query ? `?${query}` : ''}`,
      headers: { ...bearer(token), 'content-type': contentType },
      payload: csv,
    });
  const login = (what: string) => `sdk-${what}-${++seq}@import.test`;
  const userOf = async (l: string) =>
    (
      await t.db
        .select()
        .from(users)
        .where(sql`lower(${users.loginEmail}) = ${l}`)
    )[0];
  const report = async (reqId: string) =>
    (
      await t.inject({ method: 'GET', url: `${M}/users/imports/${reqId}/details`, headers: bearer(t.superToken) })
    ).json().data;

  it('issue 27, point 9: companyId, delimiter (a tab), comment, label, commandId, noemails and nostrict, all in the query string', async () => {
    const l = login('all');
    // Tab-separated; `#` is the comment character, so `%` is plain text in a value.
    const csv = `loginEmail\tfirstName\tlastName\n# a comment line\n${l}\tAll\t100% sdk\n`;
    const commandId = `sdk-command-${seq}`;
    const query = `companyId=${companyId}&delimiter=%09&comment=%23&label=From%20the%20SDK&commandId=${commandId}&noemails=true&nostrict=false`;
    const res = await post('/users/imports', query, csv);
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json().data;
    expect(started.label).toBe('From the SDK');
    const summary = await waitForImport(t, t.superToken, started.reqId);
    expect(summary.counters).toEqual({ succeeded: 1, failed: 0, warnings: 0, total: 1 });
    expect(summary.companyId).toBe(companyId);
    const user = await userOf(l);
    expect({ companyId: user.companyId, firstName: user.firstName, lastName: user.lastName }).toEqual({
      companyId,
      firstName: 'All',
      lastName: '100% sdk',
    });
    const [row] = await t.db.select().from(imports).where(eq(imports.id, started.reqId));
    expect(row.options).toEqual({ delimiter: '\t', comment: '#', noemails: true, nostrict: false });
    expect(row.commandId).toBe(commandId);
    // The commandId keeps the import: its last result is this one.
    const byCommand = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/synchronize/${commandId}/report`,
      headers: bearer(t.superToken),
    });
    expect(byCommand.statusCode, byCommand.body).toBe(200);
    expect(byCommand.json().report.reqId).toBe(started.reqId);
    // The check takes the same query string (its report names the tab).
    const check = await post('/users/imports/check', query, csv);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toMatchObject({ delimiter: '\t', columns: 3, total: 1, valid: 1 });
  });

  it('issue 27, point 9: the tab delimiter as the SDK may write it: a tab, \\t, tab; the others as themselves', async () => {
    const tabbed = `loginEmail\tfirstName\n${login('tab')}\tTab\n`;
    for (const given of ['%09', '%5Ct', 'tab', 'TAB']) {
      const res = await post('/users/imports/check', `companyId=${companyId}&delimiter=${given}`, tabbed);
      expect({ given, status: res.statusCode }).toEqual({ given, status: 200 });
      expect({ given, ...res.json().data }).toMatchObject({ given, delimiter: '\t', columns: 2, valid: 1 });
    }
    for (const d of [',', ';', '|']) {
      // The value holds the other delimiters, quoted: the one given is the one used. (A company_admin
      // without companyId: his own company.)
      const csv = `loginEmail${d}firstName\n${login('d')}${d}"a,b;c|d"\n`;
      const res = await post(
        '/users/imports/check',
        `delimiter=${encodeURIComponent(d)}`,
        csv,
        'text/csv',
        admin.token,
      );
      expect({ d, status: res.statusCode }).toEqual({ d, status: 200 });
      expect({ d, ...res.json().data }).toMatchObject({ d, delimiter: d, columns: 2, valid: 1 });
    }
  });

  it('issue 27, point 9: the CSV raw, as text/csv with or without charset (text/plain and octet-stream too), a BOM accepted', async () => {
    for (const type of ['text/csv; charset=utf-8', 'text/csv', 'text/plain', 'application/octet-stream']) {
      const l = login('raw');
      const csv = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`loginEmail;firstName\n${l};Élodie\n`)]);
      const res = await post('/users/imports', `companyId=${companyId}`, csv, type);
      expect({ type, status: res.statusCode }).toEqual({ type, status: 202 });
      await waitForImport(t, t.superToken, res.json().data.reqId);
      expect({ type, firstName: (await userOf(l))?.firstName }).toEqual({ type, firstName: 'Élodie' });
    }
  });

  it('issue 27, point 9: DELETE of a report with a JSON body (the SDK sends {} or a body), or none', async () => {
    for (const payload of [{}, { reqId: 'ignored', companyId }, undefined]) {
      const res = await post('/users/imports', `companyId=${companyId}`, `loginEmail\n${login('del')}\n`);
      expect(res.statusCode, res.body).toBe(202);
      const reqId = res.json().data.reqId;
      await waitForImport(t, t.superToken, reqId);
      const del = await t.inject({
        method: 'DELETE',
        url: `${M}/users/imports/${reqId}/details`,
        headers: { ...bearer(t.superToken), ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { payload } : {}),
      });
      expect({ payload, status: del.statusCode, body: del.json() }).toEqual({
        payload,
        status: 200,
        body: { data: { reqId, status: 'Deleted' } },
      });
      const gone = await t.inject({
        method: 'GET',
        url: `${M}/users/imports/${reqId}/details`,
        headers: bearer(t.superToken),
      });
      expect(gone.statusCode).toBe(404);
    }
  });

  it('issue 27, point 9: the template asked with accept: text/csv (and companyId, mode, comment in the query)', async () => {
    for (const accept of ['text/csv', 'text/csv, application/json', '*/*']) {
      const res = await t.inject({
        method: 'GET',
        url: `${M}/users/template?companyId=${companyId}&mode=useranddevice&comment=false`,
        headers: { ...bearer(t.superToken), accept },
      });
      expect({ accept, status: res.statusCode }).toEqual({ accept, status: 200 });
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename=/);
      const header = res.body.split('\n')[0];
      expect(header.split(',')).toContain('loginEmail');
      expect(header.split(',')).toContain('pbxShortNumber');
    }
  });

  it('issue 27, point 9: nostrict=true makes a wrong value a warning (counters.warnings), the line made without it', async () => {
    const strict = login('strict');
    const lenient = login('lenient');
    const csv = (l: string) => `loginEmail;firstName;language\n${l};Lang;not a language\n`;
    const failed = await post('/users/imports', `companyId=${companyId}&nostrict=false`, csv(strict));
    expect(failed.statusCode, failed.body).toBe(202);
    const s1 = await waitForImport(t, t.superToken, failed.json().data.reqId);
    expect(s1.counters).toEqual({ succeeded: 0, failed: 1, warnings: 0, total: 1 });
    expect((await report(failed.json().data.reqId)).report[strict].error.code).toBe(1004);
    expect(await userOf(strict)).toBe(undefined);

    const warned = await post('/users/imports', `companyId=${companyId}&nostrict=true`, csv(lenient));
    expect(warned.statusCode, warned.body).toBe(202);
    const s2 = await waitForImport(t, t.superToken, warned.json().data.reqId);
    expect(s2.counters).toEqual({ succeeded: 1, failed: 0, warnings: 1, total: 1 });
    expect((await report(warned.json().data.reqId)).report[lenient].status).toBe('succeeded');
    const user = await userOf(lenient);
    expect(user.firstName).toBe('Lang');
    expect(user.language).not.toBe('not a language');
    // The check says the same: valid with nostrict, an error without.
    const checked = await post('/users/imports/check', `nostrict=true&companyId=${companyId}`, csv(login('c')));
    expect(checked.json().data).toMatchObject({ valid: 1, errors: [] });
    const refused = await post('/users/imports/check', `companyId=${companyId}`, csv(login('c')));
    expect(refused.json().data.valid).toBe(0);
    expect(refused.json().data.errors[0].error.code).toBe(1004);
  });
});
