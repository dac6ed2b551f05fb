// Issue 27, point 4 ("side effects on external systems ... are compensated when the line fails"),
// on the real SIP registrar (Kamailio, started by .ci/run with .ci/kamailio/start.sh;
// PORTS=voice=kamailio): importVoiceCsv makes a SIP device whose account is a row of Kamailio's
// `subscriber` table, and a phone (sipp) registers with the credentials getDevice answers; a line
// whose DDI is refused after its device account was made leaves no account on Kamailio (the line's
// undo step deleted it). Without Kamailio or sipp this file fails, saying how to start them.
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { loadConfig } from '../../src/config.ts';
import { createPbx, licensedUser, PBXS } from '../pbx/fixtures.ts';
import { importAndWait } from '../imports/support.ts';
import { KAMAILIO, freeUdpPort, register, requireKamailio } from './kamailio.ts';

let t: TestApp;
let admin: MadeUser;
let company: string;
let pbx: Record<string, any>;
let otherPbx: Record<string, any>;
let kamailioDb: pg.Client;
const suffix = randomBytes(4).toString('hex');

/** Kamailio's account rows of a SIP user name (a device's sipUsername is its id). */
const accounts = async (username: string) =>
  (await kamailioDb.query<{ n: number }>('SELECT count(*)::int AS n FROM subscriber WHERE username = $1', [username]))
    .rows[0].n;

before(async () => {
  await requireKamailio();
  const config = loadConfig({
    PORTS: 'voice=kamailio',
    KAMAILIO_DATABASE_URL: KAMAILIO.databaseUrl,
    KAMAILIO_CTL: KAMAILIO.ctl,
  });
  t = await createTestApp({ config: { ...config, rateLimitMax: 0 }, background: true });
  company = await makeCompany(t, { name: 'SIP import EC' });
  await t.db.execute(sql`UPDATE companies SET country = 'FRA' WHERE id = ${company}`);
  const site = await makeSite(t, company);
  admin = await makeUser(t, company, ['company_admin']);
  pbx = await createPbx(t, company, { siteId: site });
  const other = await makeCompany(t, { name: 'SIP import other EC' });
  otherPbx = await createPbx(t, other, { siteId: await makeSite(t, other) });
  kamailioDb = new pg.Client({ connectionString: KAMAILIO.databaseUrl });
  await kamailioDb.connect();
});
after(async () => {
  for (const p of [pbx, otherPbx])
    if (p) await t.inject({ method: 'DELETE', url: `${PBXS}/${p.id}?forceDelete=true`, headers: bearer(t.superToken) });
  await kamailioDb?.end();
  await t?.close();
});

describe('issue 27, point 4: a voice import on the real SIP registrar', () => {
  it('issue 27, point 4: importVoiceCsv makes a device account a phone registers with; a line that fails after its device account was made leaves none on Kamailio', async () => {
    // A DDI of the other company's CloudPBX: createDdi refuses it (409810) after the line's device was made.
    const number = `03${String(Date.now()).slice(-8)}`;
    const ddi = await t.inject({
      method: 'POST',
      url: `${PBXS}/${otherPbx.id}/phone-numbers/ddi`,
      headers: bearer(t.superToken),
      payload: { number },
    });
    expect(ddi.statusCode, ddi.body).toBe(201);
    const [good, bad] = [await licensedUser(t, company), await licensedUser(t, company)];
    const mac = (n: number) => `c0:ff:ee:${suffix.slice(0, 2)}:${suffix.slice(2, 4)}:0${n}`;
    const csv = [
      'loginEmail;shortNumber;ddiE164Number;macAddress',
      `${good.email};2001;;${mac(1)}`,
      `${bad.email};2002;${number};${mac(2)}`,
    ].join('\n');
    const report = await importAndWait(t, admin.token, csv, {}, '/users/imports/voice');
    expect(report.counters).toEqual({ succeeded: 1, failed: 1, warnings: 0, total: 2 });

    // The line that failed: its device was made (deviceId in its report), then undone on Kamailio.
    expect(report.report[bad.email]).toMatchObject({
      status: 'failed',
      error: { code: 409810 },
      _sipDevice: { action: 'create', status: 'done' },
      _ddi: { status: 'failed' },
    });
    const undone: string = report.report[bad.email]._sipDevice.deviceId;
    expect(typeof undone).toBe('string');
    expect(await accounts(undone)).toBe(0);

    // The line that succeeded: its account is on Kamailio, and a phone registers with it.
    const deviceId: string = report.report[good.email]._sipDevice.deviceId;
    expect(report.report[good.email]).toMatchObject({ status: 'succeeded', _sipDevice: { action: 'create' } });
    expect(await accounts(deviceId)).toBe(1);
    const got = await t.inject({
      method: 'GET',
      url: `${PBXS}/${pbx.id}/devices/${deviceId}`,
      headers: bearer(admin.token),
    });
    expect(got.statusCode, got.body).toBe(200);
    const device = got.json().data;
    const phone = {
      username: device.sipUsername,
      password: device.sipPassword,
      domain: device.sipDomain,
      port: await freeUdpPort(),
      userAgent: `svc-e2e-import-phone/${suffix}`,
      expires: 60,
    };
    const refused = await register('register-refused', { ...phone, password: `${device.sipPassword}-wrong` });
    expect(refused.code, refused.output).toBe(0);
    const registered = await register('register', phone);
    expect(registered.code, registered.output).toBe(0);
  });
});
