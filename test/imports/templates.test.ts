// Issue 27, point 6 (templates and the export) and point 9 (the template asked with accept:
// text/csv, as the SDK asks it); document 3, "Get a CSV template".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { COLUMNS, TEMPLATE_COLUMNS, planHeader, readLine, type ImportLine } from '../../src/modules/imports/columns.ts';
import { openCsv } from '../../src/modules/imports/csv.ts';
import { EXPORT_PAGE } from '../../src/modules/imports/templates.service.ts';
import { BUILT_IN_TEMPLATES } from '../../src/modules/admin/customisation/customisation.keys.ts';
import { systems } from '../../src/modules/systems/systems.tables.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { hashPassword } from '../../src/shared/passwords.ts';

const M = '/api/svc/massprovisioning/v1.0';
const A = '/api/svc/admin/v1.0';
const CHAT_ONLY = BUILT_IN_TEMPLATES.find((x) => x.name === 'Chat only')!;
let t: TestApp;
let companyId: string;
let admin: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
});
afterAll(() => t.close());

const get = (url: string, token = admin.token, accept = 'text/csv') =>
  t.inject({ method: 'GET', url, headers: { ...bearer(token), accept } });

/** The records of a CSV as the import reads it (`%` comments, `,`). */
const records = (text: string): string[][] => parse(text, { comment: '%', relax_column_count: true });

/** Alice's user columns as the export writes them and the import reads them back. */
const ALICE_CELLS = {
  firstName: 'Alice',
  lastName: 'Martin, "the first"',
  nickName: '%ali',
  title: 'Dr',
  jobTitle: 'Engineer',
  department: ' R&D ',
  country: 'FRA',
  language: 'fr',
  timezone: 'Europe/Paris',
  email0: 'alice@example.com',
  businessPhone0: '+33 1 23 45 67 89',
  mobilePhone0: '+33 6 11 22 33 44',
  selectedAppCustomisationTemplateName: 'Chat only',
};

describe('doc 3, Get a CSV template (getCsvTemplate)', () => {
  it('issue 27, point 9: asked with accept: text/csv as the SDK asks it, the user template is text/csv, an attachment, one header line of the user columns', async () => {
    const res = await get(`${M}/users/template`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename=template-user.csv');
    expect(res.body).toBe(`${TEMPLATE_COLUMNS.user.join(',')}\n`);
    expect(TEMPLATE_COLUMNS.user.slice(0, 3)).toEqual(['__action__', 'loginEmail', 'password']);
  });

  it('issue 27, point 6: each mode gives its columns (device, useranddevice, voice), for the company named by companyId', async () => {
    for (const mode of ['device', 'useranddevice', 'voice'] as const) {
      const res = await get(`${M}/users/template?mode=${mode}&companyId=${companyId}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toBe(`attachment; filename=template-${mode}.csv`);
      expect(records(res.body)).toEqual([TEMPLATE_COLUMNS[mode]]);
    }
    expect(TEMPLATE_COLUMNS.device).toContain('pbxShortNumber');
    expect(TEMPLATE_COLUMNS.voice).toContain('macAddress');
  });

  it('issue 27, point 6: comment=true puts before the header one % line per column with its description, and an example line in a comment', async () => {
    const res = await get(`${M}/users/template?mode=useranddevice&comment=true`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.split('\n').filter((l) => l !== '');
    const columns = TEMPLATE_COLUMNS.useranddevice;
    // Every line but the last is a comment; the last is the header.
    expect(lines.slice(0, -1).every((l) => l.startsWith('%'))).toBe(true);
    expect(lines.at(-1)).toBe(columns.join(','));
    for (const c of columns) expect(lines).toContain(`%   ${c}: ${COLUMNS[c].description}`);
    const example = lines[lines.indexOf('% Example line:') + 1];
    expect(records(example.replace(/^% /, ''))).toEqual([columns.map((c) => COLUMNS[c].example)]);
    // The import reads it as a header alone: the comment lines are skipped.
    expect(records(res.body)).toEqual([columns]);
    // comment=false (the default) has none.
    expect((await get(`${M}/users/template?mode=useranddevice&comment=false`)).body).toBe(`${columns.join(',')}\n`);
  });

  it('issue 27, point 10: a plain user is refused (404: he may not import into his company), another company is 404 to a company_admin', async () => {
    const plain = await makeUser(t, companyId);
    expect((await get(`${M}/users/template`, plain.token)).statusCode).toBe(404);
    const other = await makeCompany(t);
    expect((await get(`${M}/users/template?companyId=${other}`)).statusCode).toBe(404);
  });
});

describe("issue 27, point 6: the export of a company's users (exportUsersCsv)", () => {
  it('exports every user of the company as a sync line of the user template, every field of the template, never the password', async () => {
    const company = await makeCompany(t);
    const boss = await makeUser(t, company, ['company_admin']);
    const created = await t.inject({
      method: 'POST',
      url: `${A}/users`,
      headers: bearer(t.superToken),
      payload: {
        loginEmail: 'Alice.Export@example.com',
        password: 'Alice-pass-1',
        companyId: company,
        firstName: 'Alice',
        lastName: 'Martin, "the first"',
        nickName: '%ali',
        title: 'Dr',
        jobTitle: 'Engineer',
        department: ' R&D ',
        country: 'FRA',
        language: 'fr',
        timezone: 'Europe/Paris',
        emails: [
          { email: 'alice.home@example.net', type: 'home' },
          { email: 'alice@example.com', type: 'work' },
        ],
        phoneNumbers: [
          { number: '+33 6 11 22 33 44', type: 'work', deviceType: 'mobile' },
          { number: '+33 1 23 45 67 89', type: 'work', deviceType: 'landline' },
          { number: '+33 1 99 99 99 99', type: 'home', deviceType: 'landline' },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const alice = created.json().data;
    const applied = await t.inject({
      method: 'POST',
      url: `${A}/customisations/templates/apply`,
      headers: bearer(t.superToken),
      payload: { templateId: CHAT_ONLY.id, userId: alice.id },
    });
    expect(applied.statusCode).toBe(200);

    const res = await get(`${M}/companies/${company}/users/export`, boss.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename=users-${company}-user.csv`);
    const rows = records(res.body);
    expect(rows[0]).toEqual(TEMPLATE_COLUMNS.user);
    const byLogin = new Map(rows.slice(1).map((r) => [r[1], Object.fromEntries(rows[0].map((c, i) => [c, r[i]]))]));
    expect([...byLogin.keys()].sort()).toEqual([alice.loginEmail, boss.email].sort());
    expect(byLogin.get(alice.loginEmail)).toEqual({
      __action__: 'sync',
      loginEmail: alice.loginEmail,
      password: '',
      ...ALICE_CELLS,
    });
    // The value holding % is quoted (document 3), as is the one with spaces around it, so the import reads them back.
    expect(res.body).toContain('"%ali"');
    expect(res.body).toContain('" R&D "');
    expect(res.body).not.toContain('Alice-pass-1');
    // A user without the optional fields: empty cells.
    expect(byLogin.get(boss.email)).toMatchObject({
      nickName: '',
      email0: '',
      selectedAppCustomisationTemplateName: '',
    });

    // Read back by the import's own reader (csv.ts, columns.ts) as a synchronisation reads it:
    // sync lines with exactly the user's values, and the empty cells of the other user clear
    // only what he does not have.
    const { header, records: lines } = await openCsv(Buffer.from(res.body), {});
    const plan = planHeader(header.columns, 'sync')!;
    expect(plan).toMatchObject({ mode: 'user', ignored: [] });
    const read = new Map<string, ImportLine>();
    for await (const chunk of lines)
      for (const r of chunk) {
        const l = readLine(plan, r, 'sync');
        if (!('line' in l)) throw new Error(`line ${r.line} refused: ${JSON.stringify(l)}`);
        read.set(l.line.login, l.line);
      }
    expect(read.get(alice.loginEmail.toLowerCase())).toMatchObject({
      action: 'sync',
      user: ALICE_CELLS,
      cleared: [],
    });
    expect(read.get(alice.loginEmail.toLowerCase())!.password).toBeUndefined();
    const bossLine = read.get(boss.email.toLowerCase())!;
    expect(bossLine.cleared).toContain('nickName');
    expect(bossLine.user).toMatchObject({ firstName: 'First' });
  });

  it('reads in pages: more users than a page, each exported once, in the order of their login', async () => {
    const company = await makeCompany(t);
    const hash = await hashPassword('Passw0rd!');
    const n = EXPORT_PAGE + 7;
    const rows = Array.from({ length: n }, (_, i) => ({
      id: newId(),
      companyId: company,
      loginEmail: `p${String(i).padStart(5, '0')}-${company}@example.com`,
      passwordHash: hash,
      firstName: `F${i}`,
      lastName: `L${i}`,
    }));
    await t.db.insert(users).values(rows);
    const res = await get(`${M}/companies/${company}/users/export`, t.superToken);
    expect(res.statusCode).toBe(200);
    const logins = records(res.body)
      .slice(1)
      .map((r) => r[1]);
    expect(logins).toEqual(rows.map((r) => r.loginEmail));
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  });

  it('mode useranddevice adds the PBX extension of each user (a phone number of a telephone system assigned to him); voice is refused', async () => {
    const company = await makeCompany(t);
    const bob = await makeUser(t, company);
    const carol = await makeUser(t, company);
    const systemId = newId();
    await t.db.insert(systems).values({
      id: systemId,
      name: 'PBX',
      pbxId: `PBX${systemId}`,
      companyId: company,
      jidPbxagent: `pbxagent_${systemId}@localhost`,
      jidPbxagentPassword: 'secret',
      jidPbxpcg: `pbxpcg_${systemId}@localhost`,
      jidPbxpcgPassword: 'secret',
    });
    await t.db.insert(systemPhoneNumbers).values({
      id: newId(),
      systemId,
      pbxId: `PBX${systemId}`,
      shortNumber: '2001',
      internalNumber: '82001',
      userId: bob.id,
    });
    const res = await get(`${M}/companies/${company}/users/export?mode=useranddevice`, t.superToken);
    expect(res.statusCode).toBe(200);
    const rows = records(res.body);
    expect(rows[0]).toEqual(TEMPLATE_COLUMNS.useranddevice);
    const cell = (login: string, c: string) => rows.find((r) => r[1] === login)![rows[0].indexOf(c)];
    expect([cell(bob.email, 'pbxShortNumber'), cell(bob.email, 'pbxInternalNumber')]).toEqual(['2001', '82001']);
    expect([cell(carol.email, 'pbxShortNumber'), cell(carol.email, 'pbxInternalNumber')]).toEqual(['', '']);
    const device = records((await get(`${M}/companies/${company}/users/export?mode=device`, t.superToken)).body);
    expect(device[0]).toEqual(TEMPLATE_COLUMNS.device);
    expect(device.find((r) => r[1] === bob.email)).toEqual(['sync', bob.email, '2001', '82001']);
    const voice = await get(`${M}/companies/${company}/users/export?mode=voice`, t.superToken);
    expect(voice.statusCode).toBe(400);
  });

  it('issue 27, point 10: the export is refused to a plain user and to an administrator of another company (404)', async () => {
    const company = await makeCompany(t);
    const plain = await makeUser(t, company);
    expect((await get(`${M}/companies/${company}/users/export`, plain.token)).statusCode).toBe(404);
    expect((await get(`${M}/companies/${company}/users/export`, admin.token)).statusCode).toBe(404);
  });
});
