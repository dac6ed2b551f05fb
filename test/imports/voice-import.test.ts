// Issue 27, points 2 and 4 (document 3, Bulk import, the voice-provisioning mode), through the HTTP
// routes (checkVoiceCsv, importVoiceCsv) and the import job, as a client runs them: one CSV makes
// users, their CloudPBX subscribers, DDI numbers and SIP devices; the report's `_subscriber`,
// `_ddi` and `_sipDevice`; a failing line leaves no half-made user, and nothing on the voice
// platform or the registrar (the embedded ports' state, port_records). voice-lines.test.ts tests
// the line's voice part directly. Runs on PGlite and PostgreSQL (TEST_DATABASE_URL).
import { after, before, describe, it } from 'node:test';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { createPbx, licensedUser } from '../pbx/fixtures.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { rowsOf } from '../../src/db/raw.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { M, importAndWait, postCsv } from './support.ts';

let t: TestApp;
let ec: string;
let admin: MadeUser;
let pbx: Record<string, any>;
let otherPbx: Record<string, any>;
let tenantId: string;

const rows = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await t.db.execute(q));
/** The voice platform's and the registrar's records (the embedded ports keep them in port_records). */
const portState = async () =>
  JSON.stringify(await rows(sql`SELECT port, kind, id, data FROM port_records ORDER BY port, kind, id`));
const platformSubscribersOf = async (userId: string) =>
  (await portsOf(t.deps).voice.listSubscribers(tenantId)).filter((s) => s.userId === userId);
const userByLogin = async (login: string) => (await t.db.select().from(users).where(eq(users.loginEmail, login)))[0];

let seq = 0;
const tag = () => `${Date.now().toString(36)}${++seq}`;
let macSeq = 0x300;
const nextMac = () => (0xc0ffee100000 + macSeq++).toString(16).match(/../g)!.join(':');
let numberSeq = 500;
/** A French number new to the platform (03 xx xx xx xx) and its E.164 form. */
const nextDdi = () => {
  const national = `03${String(100_000_000 + ++numberSeq).slice(1)}`;
  return { national, e164: `+33${national.slice(1)}` };
};
let shortSeq = 100;
/** A number of the numbering plan of the CloudPBX (prefix 2, three digits). */
const nextShort = () => `2${++shortSeq}`;

before(async () => {
  t = await createTestApp({ background: true });
  ec = await makeCompany(t, { name: 'Voice HTTP import EC' });
  await t.db.execute(sql`UPDATE companies SET country = 'FRA' WHERE id = ${ec}`);
  admin = await makeUser(t, ec, ['company_admin']);
  pbx = await createPbx(t, ec);
  const other = await makeCompany(t, { name: 'Voice HTTP import other EC' });
  otherPbx = await createPbx(t, other);
  [{ vcpTenantId: tenantId }] = await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, pbx.id));
});
after(async () => {
  await t.close();
});

describe('issue 27, point 4: voice imports through the HTTP routes', () => {
  it('doc 3, bulk import, voice mode: checkVoiceCsv reports what importVoiceCsv then does in one CSV: a user made, licensed users made subscribers with DDI numbers and SIP devices, the _subscriber, _ddi and _sipDevice sub-reports', async () => {
    const k = tag();
    // A subscriber needs a licence of an active subscription other than the default one (issue 25,
    // point 4): the users given a voice here hold one; a user the CSV makes holds only the default.
    const [ka, kb, kc] = [await licensedUser(t, ec), await licensedUser(t, ec), await licensedUser(t, ec)];
    const fresh = `vnew-${k}@voice.example`;
    const a = { short: nextShort(), ddi: nextDdi(), mac: nextMac() };
    const b = { short: nextShort(), mac: nextMac() };
    const c = { short: nextShort(), ddi: nextDdi() };
    const csv = [
      'loginEmail;firstName;lastName;shortNumber;ddiE164Number;macAddress;customSipHeader_1',
      `${fresh};New;Voice;;;;`,
      `${ka.email};Ada;Voice;${a.short};${a.ddi.national};${a.mac.toUpperCase()};X-Team: sales`,
      `${kb.email};;;${b.short};;${b.mac};`,
      `${kc.email};;;${c.short};${c.ddi.e164};;`,
    ].join('\n');

    const portBefore = await portState();
    const check = await postCsv(t, admin.token, '/users/imports/voice/check', csv);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toMatchObject({ mode: 'voice', total: 4, valid: 4, errors: [], actions: { upsert: 4 } });
    // The check wrote nothing and called no external system.
    expect(await userByLogin(fresh)).toBe(undefined);
    expect(
      await t.db
        .select()
        .from(subscribers)
        .where(inArray(subscribers.userId, [ka.id, kb.id, kc.id])),
    ).toEqual([]);
    expect(await portState()).toBe(portBefore);

    const report = await importAndWait(t, admin.token, csv, {}, '/users/imports/voice');
    expect(report).toMatchObject({ mode: 'voice', status: 'Terminated' });
    expect(report.counters).toEqual({ succeeded: 4, failed: 0, warnings: 0, total: 4 });
    const made = await userByLogin(fresh);
    expect(made?.companyId).toBe(ec);
    expect(report.report[fresh]).toMatchObject({ status: 'succeeded', _user: 'create', userId: made.id });
    expect(
      Object.keys(report.report[fresh]).filter((key) => ['_subscriber', '_ddi', '_sipDevice'].includes(key)),
    ).toEqual([]);
    expect(report.report[ka.email]).toMatchObject({
      status: 'succeeded',
      action: 'upsert',
      _user: 'update',
      userId: ka.id,
      _subscriber: {
        action: 'create',
        status: 'done',
        userId: ka.id,
        origin: { shortNumber: a.short, state: 'absent' },
      },
      _ddi: { action: 'create', status: 'done', origin: { state: 'absent' } },
      _sipDevice: { action: 'create', status: 'done', origin: { macAddress: a.mac, state: 'absent' } },
    });
    expect(report.report[kb.email]).toMatchObject({
      status: 'succeeded',
      _subscriber: { action: 'create', status: 'done' },
      _sipDevice: { action: 'create', status: 'done' },
    });
    expect(report.report[kb.email]._ddi).toBe(undefined);
    expect(report.report[kc.email]).toMatchObject({
      status: 'succeeded',
      _subscriber: { action: 'create', status: 'done', origin: { shortNumber: c.short } },
      _ddi: { action: 'create', status: 'done' },
    });
    expect(report.report[kc.email]._sipDevice).toBe(undefined);
    expect((await userByLogin(ka.email)).firstName).toBe('Ada');

    // What the platform now holds.
    const subs = await t.db
      .select()
      .from(subscribers)
      .where(inArray(subscribers.userId, [made.id, ka.id, kb.id, kc.id]));
    expect(Object.fromEntries(subs.map((s) => [s.userId, [s.cloudPbxId, s.shortNumber]]))).toEqual({
      [ka.id]: [pbx.id, a.short],
      [kb.id]: [pbx.id, b.short],
      [kc.id]: [pbx.id, c.short],
    });
    expect(subs.find((s) => s.userId === ka.id)!.customSipHeader1).toBe('X-Team: sales');
    const subOf = (userId: string) => subs.find((s) => s.userId === userId)!.id;
    const devs = await t.db
      .select()
      .from(devices)
      .where(inArray(devices.macAddress, [a.mac, b.mac]));
    expect(Object.fromEntries(devs.map((d) => [d.macAddress, d.subscriberId]))).toEqual({
      [a.mac]: subOf(ka.id),
      [b.mac]: subOf(kb.id),
    });
    for (const d of devs) expect((await portsOf(t.deps).voice.getDeviceAccount(d.id))?.enabled).toBe(true);
    const numbers = await t.db
      .select()
      .from(ddis)
      .where(inArray(ddis.numberE164, [a.ddi.e164, c.ddi.e164]));
    expect(Object.fromEntries(numbers.map((d) => [d.numberE164, [d.cloudPbxId, d.userId]]))).toEqual({
      [a.ddi.e164]: [pbx.id, ka.id],
      [c.ddi.e164]: [pbx.id, kc.id],
    });
    for (const u of [ka, kb, kc]) expect(await platformSubscribersOf(u.id)).toHaveLength(1);
    expect(await platformSubscribersOf(made.id)).toHaveLength(0);
  });

  it("docs/decisions.md, Bulk import: a voice line makes a new user a subscriber, with a licence of the company's first service subscription with a licence free", async () => {
    const k = tag();
    const login = `vnew-${k}@voice.example`;
    const short = nextShort();
    const mac = nextMac();
    const report = await importAndWait(
      t,
      admin.token,
      `loginEmail;firstName;lastName;shortNumber;macAddress\n${login};New;Comer;${short};${mac}\n`,
      {},
      '/users/imports/voice',
    );
    expect(report.counters).toMatchObject({ succeeded: 1, failed: 0 });
    const entry = report.report[login];
    expect(entry).toMatchObject({
      _user: 'create',
      _subscriber: { action: 'create', status: 'done', licence: { subscriptionId: expect.any(String) } },
      _sipDevice: { status: 'done' },
    });
    const userId: string = entry.userId;
    expect((await t.db.select().from(subscribers).where(eq(subscribers.userId, userId)))[0]?.shortNumber).toBe(short);
    const held = await rows(sql`SELECT subscription_id FROM licences WHERE user_id = ${userId}`);
    expect(held.map((r) => r.subscription_id)).toContain(entry._subscriber.licence.subscriptionId);
  });

  it('issue 27, point 4: failing voice lines (2011: a SIP device for a non-subscriber; a DDI refused after the user, his licence, the subscriber and the device were made) leave no half-made user and nothing on the voice platform or the registrar; the check finds them; the other line is done', async () => {
    const k = tag();
    // A number of the other company's CloudPBX: createDdi refuses it (409810).
    const taken = nextDdi();
    const res = await t.inject({
      method: 'POST',
      url: `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${otherPbx.id}/phone-numbers/ddi`,
      headers: bearer(t.superToken),
      payload: { number: taken.national },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ok = await licensedUser(t, ec);
    // A user the line makes: given a licence, made a subscriber and a device's owner, then refused.
    const refused = { email: `vrefused-${k}@voice.example` };
    const okShort = nextShort();
    const noSub = { login: `vnosub-${k}@voice.example`, mac: nextMac() };
    const bad = { short: nextShort(), mac: nextMac() };
    const csv = [
      'loginEmail;firstName;lastName;shortNumber;ddiE164Number;macAddress',
      `${noSub.login};No;Sub;;;${noSub.mac}`,
      `${ok.email};;;${okShort};;`,
      `${refused.email};Re;Fused;${bad.short};${taken.national};${bad.mac}`,
    ].join('\n');
    const lines = csv.split('\n');
    const portBefore = await portState();
    const platformBefore = (await portsOf(t.deps).voice.listSubscribers(tenantId)).length;

    // The check finds each of them without writing.
    const check = await postCsv(t, admin.token, '/users/imports/voice/check', csv);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toMatchObject({ total: 3, valid: 1 });
    expect(
      check.json().data.errors.map((e: { line: number; error: { code: number } }) => [e.line, e.error.code]),
    ).toEqual([
      [2, 2011],
      [4, 409810],
    ]);
    expect(await portState()).toBe(portBefore);

    const report = await importAndWait(t, admin.token, csv, {}, '/users/imports/voice');
    expect(report.counters).toEqual({ succeeded: 1, failed: 2, warnings: 0, total: 3 });
    expect(report.report[noSub.login]).toMatchObject({
      status: 'failed',
      line: 2,
      error: { code: 2011, message: expect.stringContaining('macAddress') },
      _sipDevice: { status: 'failed', error: { code: 2011 } },
    });
    expect(report.report[refused.email]).toMatchObject({
      status: 'failed',
      line: 4,
      error: { code: 409810 },
      _subscriber: { action: 'create', status: 'done' },
      _sipDevice: { action: 'create', status: 'done' },
      _ddi: { status: 'failed', error: { code: 409810 } },
    });
    expect(report.failingLines).toEqual([lines[1], lines[3]]);
    expect(report.report[ok.email]).toMatchObject({
      status: 'succeeded',
      _subscriber: { action: 'create', status: 'done' },
    });

    // No half-made user: the users the failed lines were making do not exist.
    expect(await userByLogin(noSub.login)).toBe(undefined);
    expect(await userByLogin(refused.email)).toBe(undefined);
    // Nothing of the failed lines on the platform: no subscriber, device or DDI of theirs.
    const newSubId: string = report.report[refused.email]._subscriber.userId;
    expect(typeof newSubId).toBe('string');
    for (const id of [newSubId]) {
      expect(await platformSubscribersOf(id)).toHaveLength(0);
      expect(await t.db.select().from(subscribers).where(eq(subscribers.userId, id))).toEqual([]);
    }
    expect(
      await t.db
        .select()
        .from(devices)
        .where(inArray(devices.macAddress, [noSub.mac, bad.mac])),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(ddis)
        .where(and(eq(ddis.cloudPbxId, pbx.id), eq(ddis.numberE164, taken.e164))),
    ).toEqual([]);
    // The voice platform gained the subscriber of the line that succeeded, and nothing else: every
    // record of the ports that is new is his, and the registrar has no account without a device.
    expect(await platformSubscribersOf(ok.id)).toHaveLength(1);
    expect((await portsOf(t.deps).voice.listSubscribers(tenantId)).length).toBe(platformBefore + 1);
    const added = (await rows(sql`SELECT port, kind, id, data FROM port_records ORDER BY port, kind, id`)).filter(
      (r) => !portBefore.includes(JSON.stringify(r)),
    );
    expect(added.length).toBeGreaterThan(0);
    expect(added.filter((r) => !JSON.stringify(r).includes(ok.id))).toEqual([]);
    expect(
      await rows(
        sql`SELECT id FROM port_records WHERE kind = 'device-account' AND id NOT IN (SELECT id FROM pbx_devices)`,
      ),
    ).toEqual([]);
  });

  it('issue 27, point 4: a company without a CloudPBX: importVoiceCsv and checkVoiceCsv are refused before any work (400, IMPORT_NO_CLOUDPBX)', async () => {
    const bare = await makeCompany(t, { name: 'Voice HTTP import bare EC' });
    const bareAdmin = await makeUser(t, bare, ['company_admin']);
    const csv = `loginEmail;shortNumber\nnone-${tag()}@voice.example;${nextShort()}\n`;
    for (const path of ['/users/imports/voice', '/users/imports/voice/check']) {
      const res = await postCsv(t, bareAdmin.token, path, csv);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
    }
    const list = await t.inject({
      method: 'GET',
      url: `${M}/companies/${bare}/imports`,
      headers: bearer(t.superToken),
    });
    expect(list.json().data).toEqual([]);
  });
});
