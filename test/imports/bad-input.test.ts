// Issue 27, point 7: bad input never hurts. "A CSV larger than a documented limit (a setting,
// default 50 MB) is 413 before it is read whole; a body that is not CSV, a header without known
// columns, a line with too many or too few fields, or a value of the wrong type is reported on its
// line, never a 500." Whole-body faults answer 400 with the documented code of
// src/modules/imports/imports.errors.ts (4009xx); a line's fault is the report's `{code, message}`
// of src/modules/imports/line-errors.ts, on its physical line. A property test sends random
// CSV-like text to the check. Runs on PGlite and PostgreSQL (TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { imports } from '../../src/modules/imports/imports.tables.ts';
import { importErrors } from '../../src/modules/imports/imports.errors.ts';
import { LINE_ERRORS } from '../../src/modules/imports/line-errors.ts';
import { M, postCsv, waitForImport } from './support.ts';

const LIMIT = 2048;
const LINE_CODES = new Set<number>(Object.values(LINE_ERRORS).map((e) => e.code));
const CSV_CODES = new Set<number>(Object.values(importErrors).map((e) => e.code));

describe('issue 27, point 7: bad input never hurts', () => {
  let t: TestApp;
  let companyId: string;
  let admin: MadeUser;
  before(async () => {
    t = await createTestApp({ background: true, config: { importMaxBytes: LIMIT } });
    companyId = await makeCompany(t);
    admin = await makeUser(t, companyId, ['company_admin']);
  });
  after(() => t.close());

  const check = (csv: string | Buffer, query: Record<string, string> = {}) =>
    postCsv(t, admin.token, '/users/imports/check', csv, query);
  const importsOfCompany = async () =>
    (await t.db.select({ id: imports.id }).from(imports).where(eq(imports.companyId, companyId))).length;
  /** The errors of a check, by line: [line, code]. */
  const errorsOf = (res: { json(): any }) =>
    (res.json().data.errors as { line: number; error: { code: number } }[]).map((e) => [e.line, e.error.code]);

  it('issue 27, point 7: a CSV larger than IMPORT_MAX_BYTES is 413 on every CSV route; at the limit it is read', async () => {
    const header = 'loginEmail;firstName\n';
    const lineOf = (i: number) => `big-${String(i).padStart(5, '0')}@import.test;Big\n`;
    let body = header;
    for (let i = 0; body.length + lineOf(i).length <= LIMIT; i++) body += lineOf(i);
    body += 'x'.repeat(LIMIT - body.length); // exactly LIMIT bytes: a last line without a login
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const atLimit = await check(body);
    expect(atLimit.statusCode, atLimit.body).toBe(200);
    const over = `${body}\n`;
    const before_ = await importsOfCompany();
    for (const path of [
      '/users/imports/check',
      '/users/imports/synchronize/check',
      '/users/imports',
      '/users/imports/synchronize',
    ]) {
      const res = await postCsv(t, admin.token, path, over);
      expect({ path, status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({
        path,
        status: 413,
        code: 413000,
      });
    }
    expect(await importsOfCompany()).toBe(before_);
  });

  it('issue 27, point 7: a streamed body is 413 as soon as it passes the limit, before its end (it has none)', async () => {
    let pulled = 0;
    let ended = false;
    // A CSV that never ends: a header, then lines for ever, produced only as they are read.
    const endless = new Readable({
      read() {
        const chunk = Buffer.from(pulled === 0 ? 'loginEmail\n' : `endless-${pulled}@import.test\n`);
        pulled += chunk.length;
        this.push(chunk);
      },
    });
    endless.on('end', () => (ended = true));
    const res = await t.inject({
      method: 'POST',
      url: `${M}/users/imports?companyId=${companyId}`,
      headers: { ...bearer(admin.token), 'content-type': 'text/csv' },
      payload: endless,
    });
    expect({ status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({ status: 413, code: 413000 });
    expect(ended).toBe(false);
    // What was read is bounded by the limit and the stream's buffers, not by the body (endless).
    expect(pulled).toBeLessThan(4 * 1024 * 1024);
    endless.destroy();
  });

  it('issue 27, point 7: a body that is not CSV is a 400 with the documented code, never a 500', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0xff, 0xfe]);
    const cases: [string, string | Buffer, number][] = [
      ['binary bytes (a PNG)', png, 400900],
      ['random bytes', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 131 + 7) % 256)), 400900],
      ['JSON', '{"loginEmail":"json@import.test","firstName":"Json"}', 400901],
      ['JSON without quotes in the way', '[1,2,3]', 400902],
      ['an empty body', '', 400901],
      ['only blank and comment lines', '\n\n% a comment\n\n', 400901],
      ['a header without known columns', 'name;mail\nJane;jane@import.test\n', 400902],
      ['a lone quote', '"', 400901],
      ['a header with an unclosed quote', '"loginEmail;firstName\nx@import.test;X\n', 400901],
      ['NUL bytes in the header', 'loginEmail;first\u0000Name\nnul@import.test;X\n', 400900],
      ['invalid UTF-8 in the header', Buffer.from([...Buffer.from('loginEmail;first'), 0xc3, 0x28, 0x0a]), 400900],
      ['a bad delimiter parameter', 'loginEmail\nx@import.test\n', 400903],
    ];
    for (const [what, body, code] of cases) {
      const res = await check(body, what === 'a bad delimiter parameter' ? { delimiter: ':' } : {});
      expect({ what, status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({
        what,
        status: 400,
        code,
      });
      expect(CSV_CODES.has(code)).toBe(true);
    }
  });

  const BAD_LINES = Buffer.concat([
    Buffer.from(
      [
        'loginEmail;firstName;language;country',
        'good@import.test;Good;en;FRA', // 2: valid
        'many@import.test;Many;en;FRA;extra', // 3: too many fields
        'few@import.test;Few', // 4: too few
        'lang@import.test;Lang;not a language;FRA', // 5: wrong value
        'country@import.test;Country;en;XX', // 6: wrong value
        'not-an-email;X;en;FRA', // 7: wrong value of the key
        ';NoLogin;en;FRA', // 8: no login
        'nul@import.test;Nu\u0000l;en;FRA', // 9: a NUL byte
        'quote@import.test;"Open;en;FRA', // 10: a quote never closed... up to the end
      ].join('\n'),
    ),
  ]);

  it('issue 27, point 7: lines with too many or too few fields, wrong values and NUL bytes are reported on their line', async () => {
    const res = await check(BAD_LINES);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.total).toBe(9);
    expect(res.json().data.valid).toBe(1);
    expect(errorsOf(res)).toEqual([
      [3, 1002],
      [4, 1002],
      [5, 1004],
      [6, 1004],
      [7, 1004],
      [8, 1005],
      [9, 1001],
      [10, 1003],
    ]);
    const messages = res.json().data.errors.map((e: { error: { message: string } }) => e.error.message);
    expect(messages[0]).toBe('the line has 5 fields where the header names 4');
    expect(messages[2]).toContain('column language');
    expect(messages[3]).toContain('column country');
  });

  it('issue 27, point 7: invalid UTF-8 in a line is 1001 on that line, the others read', async () => {
    const body = Buffer.concat([
      Buffer.from('loginEmail;firstName\nfirst@import.test;First\nbad@import.test;B'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('d\n% a comment\nlast@import.test;Last\n'),
    ]);
    const res = await check(body);
    expect(res.statusCode, res.body).toBe(200);
    expect(errorsOf(res)).toEqual([[3, 1001]]);
    expect(res.json().data.valid).toBe(2);
  });

  it('issue 27, point 1: a broken quote after empty and comment lines is reported on its own line; a lone CR ends no line', async () => {
    const afterBlanks = await check('loginEmail;firstName\n\n   \n% a comment\n"open@import.test;X\n');
    expect(errorsOf(afterBlanks)).toEqual([[5, 1003]]);
    const crBeforeCrLf = await check('loginEmail;firstName\r\r\n"a@import.test;X\n');
    expect(errorsOf(crBeforeCrLf)).toEqual([[2, 1003]]);
    // A CR inside a line is one of its characters: the line is one record of two fields.
    const loneCr = await check('loginEmail;firstName\ncr@import.test;A\rB\n');
    expect(loneCr.json().data).toMatchObject({ total: 1, valid: 1, errors: [] });
  });

  it('issue 27, point 7: the import of such lines ends Terminated, each bad line failed on its line with its code, the good one made', async () => {
    const start = await postCsv(t, admin.token, '/users/imports', BAD_LINES);
    expect(start.statusCode, start.body).toBe(202);
    const summary = await waitForImport(t, admin.token, start.json().data.reqId);
    expect(summary.counters).toEqual({ succeeded: 1, failed: 8, warnings: 0, total: 9 });
    const full = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/${start.json().data.reqId}/details`,
      headers: bearer(admin.token),
    });
    const report = full.json().data.report as Record<
      string,
      { status: string; line?: number; error?: { code: number } }
    >;
    const failed = Object.values(report)
      .filter((e) => e.status === 'failed')
      .map((e) => [e.line, e.error?.code])
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(failed).toEqual([
      [3, 1002],
      [4, 1002],
      [5, 1004],
      [6, 1004],
      [7, 1004],
      [8, 1005],
      [9, 1001],
      [10, 1003],
    ]);
    expect(report['good@import.test']).toMatchObject({ status: 'succeeded', _user: 'create' });
    expect(full.json().data.failingLines).toHaveLength(8);
  });

  it('issue 27, point 7: random CSV-like text sent to the check never gives a 500 (property, 200 runs)', async () => {
    const COLUMNS = [
      'loginEmail',
      'firstName',
      'lastName',
      'language',
      'country',
      'timezone',
      'password',
      '__action__',
    ];
    const pieces = [
      ';',
      ',',
      '|',
      '\t',
      '"',
      '""',
      '%',
      '\n',
      '\r\n',
      '\r',
      '\u0000',
      '\uFFFD',
      '\uFEFF',
      'é',
      '😀',
      '@',
      'a@b.co',
      'x'.repeat(300),
      'upsert',
      'sync',
      'delete',
      'detach',
      'fr',
      'FRA',
      'Europe/Paris',
      'Passw0rd!',
      ' ',
      '\\',
      "'",
    ];
    const cell = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(...pieces),
      fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((a) => a.join('')),
      fc.emailAddress(),
      // A login with a piece inside: what reaches the lookups of the line's user.
      fc
        .tuple(fc.emailAddress(), fc.constantFrom(...pieces), fc.nat())
        .map(([e, p, at]) => `${e.slice(0, at % (e.length + 1))}${p}${e.slice(at % (e.length + 1))}`),
    );
    const header = fc.oneof(
      fc.subarray(COLUMNS, { minLength: 1 }).map((c) => ['loginEmail', ...c.filter((x) => x !== 'loginEmail')]),
      fc.subarray(COLUMNS, { minLength: 1 }),
      fc.array(fc.oneof(fc.constantFrom(...COLUMNS), fc.string({ maxLength: 8 })), { minLength: 1, maxLength: 6 }),
    );
    const csvText = fc
      .tuple(
        header,
        fc.constantFrom(';', ',', '|', '\t'),
        fc.array(fc.array(cell, { maxLength: 8 }), { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
      )
      .map(([h, d, lines, eol]) => [h.join(d), ...lines.map((l) => l.join(d))].join(eol));
    const body = fc.oneof(
      { weight: 8, arbitrary: csvText.map((s) => Buffer.from(s)) },
      // Bytes that may be no UTF-8, spliced into CSV-like text.
      {
        weight: 2,
        arbitrary: fc.tuple(csvText, fc.uint8Array({ maxLength: 16 }), fc.nat()).map(([s, bytes, at]) => {
          const b = Buffer.from(s);
          const i = b.length ? at % b.length : 0;
          return Buffer.concat([b.subarray(0, i), Buffer.from(bytes), b.subarray(i)]);
        }),
      },
    );
    const query = fc.record(
      {
        delimiter: fc.constantFrom(';', ',', '|', '\\t', 'tab', ':', ''),
        comment: fc.constantFrom('%', '#', ';', '"', ''),
        nostrict: fc.constantFrom('true', 'false'),
      },
      { requiredKeys: [] },
    );
    let runs = 0;
    const statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(body, query, async (data, q) => {
        runs++;
        const res = await check(data, q);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const json = res.json();
        if (res.statusCode === 200) {
          const lines = data.toString('utf8').split('\n');
          for (const e of json.data.errors as { line: number; error: { code: number } }[]) {
            expect(LINE_CODES.has(e.error.code) || e.error.code >= 100000, JSON.stringify(e)).toBe(true);
            expect(e.line >= 2 && e.line <= lines.length, JSON.stringify(e)).toBe(true);
            // The line named is one with something on it (not an empty line skipped before it).
            expect(/^[ \r]*$/.test(lines[e.line - 1]), JSON.stringify(e)).toBe(false);
          }
          expect(json.data.total).toBeGreaterThanOrEqual(json.data.valid);
        } else {
          expect([400, 413], res.body).toContain(res.statusCode);
          const code = json.errorDetailsCode;
          expect(CSV_CODES.has(code) || code === 413000 || code === 400000, res.body).toBe(true);
          // 400000 is the schema's refusal of a query value (a comment of two characters...), never the database's.
          if (code === 400000) expect(json.errorDetails.context, res.body).toBe('querystring');
        }
      }),
      { numRuns: 200 },
    );
    expect(runs).toBe(200);
    expect(statuses[200] ?? 0).toBeGreaterThan(20);
  });
});
