// Issue 27, point 2 (document 3, Bulk import: modes device and useranddevice; "upsert ... attaches a
// device by force when filled; sync ... detaches a device when empty"; "Device mode actions
// counted: attach, force_attach, detach") and point 4 (each line all-or-nothing), through the
// HTTP routes (checkCsv, importCsv, checkCsvForSync, syncCsv) and the import job: users attached to
// the phone numbers of a telephone system by the pbxShortNumber / pbxInternalNumber columns.
// device-lines.test.ts tests a line's device part directly. Runs on PGlite and PostgreSQL.
import { createSystemAt, recordGatewayRequests, reportPhoneNumbers } from './support.ts';
import { after, before, describe, it } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { importAndWait, postCsv } from './support.ts';

let t: TestApp;
let ec: string;
let site: string;
let admin: MadeUser;
/** The iq requests sent to the systems' gateways, in order. */
const sent: { to: string; stanza: string }[] = [];

const createSystem = (name: string) => createSystemAt(t, site, name);
const numbersOf = (systemId: string, numbers: object[]) => reportPhoneNumbers(t, systemId, numbers);
/** The user each phone number is attached to (null: free). */
const holders = async (ids: string[]) =>
  Object.fromEntries(
    (
      await t.db
        .select({ id: systemPhoneNumbers.id, userId: systemPhoneNumbers.userId })
        .from(systemPhoneNumbers)
        .where(inArray(systemPhoneNumbers.id, ids))
    ).map((r) => [r.id, r.userId]),
  );
const attach = (phoneNumberId: string, userId: string | null) =>
  t.db.update(systemPhoneNumbers).set({ userId }).where(eq(systemPhoneNumbers.id, phoneNumberId));
const userByLogin = async (login: string) => (await t.db.select().from(users).where(eq(users.loginEmail, login)))[0];

let seq = 7000;
const nextShort = () => String(++seq);
let k = 0;
const tag = () => `${Date.now().toString(36)}${++k}`;

before(async () => {
  t = await createTestApp({ background: true });
  ec = await makeCompany(t, { name: 'Device HTTP import EC' });
  site = await makeSite(t, ec);
  admin = await makeUser(t, ec, ['company_admin']);
  recordGatewayRequests(t, sent);
});
after(async () => {
  await t.close();
});

describe('issue 27, point 2: device imports through the HTTP routes', () => {
  it('doc 3, bulk import, device mode: checkCsv counts attach and force_attach and changes nothing; importCsv attaches the users to the phone numbers (by force from another user), tells the gateways, and reports _device', async () => {
    const s = await createSystem('Device HTTP attach');
    const [n1, n2, n3] = await numbersOf(s.id, [
      { shortNumber: nextShort() },
      { shortNumber: nextShort(), internalNumber: '88001' },
      { shortNumber: nextShort() },
    ]);
    const [u1, u2, u3, other] = [
      await makeUser(t, ec),
      await makeUser(t, ec),
      await makeUser(t, ec),
      await makeUser(t, ec),
    ];
    await attach(n2.id, other.id);
    await attach(n3.id, u3.id);
    const csv = [
      'loginEmail;pbxShortNumber;pbxInternalNumber',
      `${u1.email};${n1.shortNumber};`,
      `${u2.email};;88001`,
      `${u3.email};${n3.shortNumber};`,
    ].join('\n');

    const before = { holders: await holders([n1.id, n2.id, n3.id]), sent: sent.length };
    const check = await postCsv(t, admin.token, '/users/imports/check', csv);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toMatchObject({
      mode: 'device',
      total: 3,
      valid: 3,
      errors: [],
      actions: { upsert: 3, attach: 1, force_attach: 1 },
    });
    expect(check.json().data.actions.detach).toBe(undefined);
    expect(await holders([n1.id, n2.id, n3.id])).toEqual(before.holders);
    expect(sent.length).toBe(before.sent);

    const report = await importAndWait(t, admin.token, csv);
    expect(report).toMatchObject({ mode: 'device', status: 'Terminated' });
    expect(report.counters).toEqual({ succeeded: 3, failed: 0, warnings: 0, total: 3 });
    expect(report.report[u1.email]).toMatchObject({
      status: 'succeeded',
      userId: u1.id,
      _device: { action: 'attach', status: 'done', origin: { pbxShortNumber: n1.shortNumber, state: 'free' } },
    });
    expect(report.report[u2.email]).toMatchObject({
      status: 'succeeded',
      _device: {
        action: 'force_attach',
        status: 'done',
        origin: { state: 'attached_to_other_user', previousUserId: other.id },
      },
    });
    expect(await holders([n1.id, n2.id, n3.id])).toEqual({ [n1.id]: u1.id, [n2.id]: u2.id, [n3.id]: u3.id });
    // Each change was sent to the system's gateway (updateSystemPhoneNumber); u3's own number was left alone.
    expect(sent.slice(before.sent).map((r) => r.to)).toEqual([`${s.jid_pbxpcg}/gateway`, `${s.jid_pbxpcg}/gateway`]);
  });

  it('doc 3, bulk import, sync: an empty device cell detaches the user (checkCsvForSync counts detach; syncCsv detaches); a filled one attaches', async () => {
    const s = await createSystem('Device HTTP sync');
    const [n1, n2, n3] = await numbersOf(s.id, [
      { shortNumber: nextShort() },
      { shortNumber: nextShort() },
      { shortNumber: nextShort() },
    ]);
    const [u1, u2] = [await makeUser(t, ec), await makeUser(t, ec)];
    await attach(n1.id, u1.id);
    await attach(n2.id, u1.id);
    const csv = ['loginEmail;pbxShortNumber', `${u1.email};`, `${u2.email};${n3.shortNumber}`].join('\n');
    const check = await postCsv(t, admin.token, '/users/imports/synchronize/check', csv);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toMatchObject({ valid: 2, actions: { sync: 2, detach: 1, attach: 1 } });
    expect(await holders([n1.id, n2.id, n3.id])).toEqual({ [n1.id]: u1.id, [n2.id]: u1.id, [n3.id]: null });

    const report = await importAndWait(t, admin.token, csv, {}, '/users/imports/synchronize');
    expect(report.counters).toEqual({ succeeded: 2, failed: 0, warnings: 0, total: 2 });
    expect(report.report[u1.email]).toMatchObject({
      status: 'succeeded',
      action: 'sync',
      _device: { action: 'detach', status: 'done', count: 2 },
    });
    expect(report.report[u2.email]).toMatchObject({ action: 'sync', _device: { action: 'attach', status: 'done' } });
    expect(await holders([n1.id, n2.id, n3.id])).toEqual({ [n1.id]: null, [n2.id]: null, [n3.id]: u2.id });
  });

  it('issue 27, point 4: useranddevice mode: a new user is made and attached in one line; a line whose extension fails (3001) leaves no half-made user, the others are done', async () => {
    const s = await createSystem('Device HTTP user and device');
    const [n1] = await numbersOf(s.id, [{ shortNumber: nextShort() }]);
    const x = tag();
    const good = `ud-good-${x}@device.example`;
    const bad = `ud-bad-${x}@device.example`;
    const csv = [
      'loginEmail;firstName;lastName;pbxShortNumber',
      `${bad};Bad;Line;99999`,
      `${good};Good;Line;${n1.shortNumber}`,
    ].join('\n');
    const check = await postCsv(t, admin.token, '/users/imports/check', csv);
    expect(check.json().data).toMatchObject({ mode: 'useranddevice', total: 2, valid: 1, actions: { attach: 1 } });
    expect(check.json().data.errors).toEqual([
      { line: 2, login: bad, error: { code: 3001, message: expect.stringContaining('pbxShortNumber') } },
    ]);
    expect(await userByLogin(good)).toBe(undefined);

    const report = await importAndWait(t, admin.token, csv);
    expect(report.counters).toEqual({ succeeded: 1, failed: 1, warnings: 0, total: 2 });
    expect(report.report[bad]).toMatchObject({
      status: 'failed',
      line: 2,
      error: { code: 3001 },
      _device: { status: 'failed', error: { code: 3001 } },
    });
    expect(report.failingLines).toEqual([csv.split('\n')[1]]);
    // The failed line made no user; the good line's user exists and holds the number.
    expect(await userByLogin(bad)).toBe(undefined);
    const made = await userByLogin(good);
    expect(made).toMatchObject({ companyId: ec, firstName: 'Good' });
    expect(report.report[good]).toMatchObject({ status: 'succeeded', _user: 'create', userId: made.id });
    expect(await holders([n1.id])).toEqual({ [n1.id]: made.id });
  });
});
