// Issue 25, point 8, end to end through the API: a CloudPBX, a licensed subscriber and a SIP
// device made with the hosted PBX's operations become an account of the real registrar (Kamailio,
// started by .ci/run with .ci/kamailio/start.sh; PORTS=voice=kamailio) that a phone (sipp)
// registers with, using the credentials the API answers. The registration reads back through the
// API, the reboot NOTIFY reaches the phone, and once the device is deleted its next REGISTER is
// refused. Without Kamailio or sipp this file fails, saying how to start them.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { loadConfig } from '../../src/config.ts';
import { createPbx, licensedUser, PBXS } from '../pbx/fixtures.ts';
import { KAMAILIO, freeUdpPort, register, requireKamailio, awaitNotify } from './kamailio.ts';

let t: TestApp;
let admin: MadeUser;
let company: string;
let C: string;
let work: string;
let phonePort: number;
let subscriberId: string;
let device: { id: string; sipUsername: string; sipPassword: string; sipDomain: string };
const userAgent = `svc-e2e-api-phone/${randomBytes(4).toString('hex')}`;

const req = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  t.inject({
    method,
    url,
    headers: bearer(admin.token),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const phone = () => ({
  username: device.sipUsername,
  password: device.sipPassword,
  domain: device.sipDomain,
  port: phonePort,
  userAgent,
});

beforeAll(async () => {
  await requireKamailio();
  work = mkdtempSync(join(tmpdir(), 'svc-e2e-pbx-sip-'));
  const config = loadConfig({
    PORTS: 'voice=kamailio',
    KAMAILIO_DATABASE_URL: KAMAILIO.databaseUrl,
    KAMAILIO_CTL: KAMAILIO.ctl,
  });
  t = await createTestApp({ config: { ...config, rateLimitMax: 0 } });
  company = await makeCompany(t, { name: 'SIP end-to-end EC' });
  const site = await makeSite(t, company);
  admin = await makeUser(t, company, ['company_admin']);
  const pbx = await createPbx(t, company, { siteId: site });
  C = `${PBXS}/${pbx.id}`;
  phonePort = await freeUdpPort();
});
afterAll(async () => {
  if (C) await t.inject({ method: 'DELETE', url: `${C}?forceDelete=true`, headers: bearer(t.superToken) });
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('issue 25, point 8: the hosted PBX on the real registrar, through the API', () => {
  it('issue 25, point 8: a licensed subscriber and a SIP device made through the API; the device answers its SIP credentials', async () => {
    // The user holds a licence of an active subscription other than the default offer's (point 4).
    const user = await licensedUser(t, company);
    const sub = await req('POST', `${C}/subscribers`, { userId: user.id, shortNumber: '2001' });
    expect(sub.statusCode, sub.body).toBe(201);
    subscriberId = sub.json().data.id;

    const made = await req('POST', `${C}/devices`, { description: 'Reception desk', deviceTypeId: 999999 });
    expect(made.statusCode, made.body).toBe(201);
    device = made.json().data;
    expect(device.sipUsername).toBeTruthy();
    expect(device.sipPassword).toBeTruthy();
    expect(device.sipDomain).toBe('sip.localhost');
    const assigned = await req('POST', `${C}/subscribers/${subscriberId}/devices`, { deviceId: device.id });
    expect(assigned.statusCode, assigned.body).toBe(201);
  });

  it('issue 25, point 8: the phone registers with the credentials of the API (a wrong password is refused), and the API lists the registrar’s binding', async () => {
    const wrong = await register('register-refused', { ...phone(), password: `${device.sipPassword}-wrong` });
    expect(wrong.code, wrong.output).toBe(0);
    expect((await req('GET', `${C}/devices/${device.id}/registrations`)).json().data).toEqual([]);

    const right = await register('register', phone());
    expect(right.code, right.output).toBe(0);
    const res = await req('GET', `${C}/devices/${device.id}/registrations`);
    expect(res.statusCode, res.body).toBe(200);
    const [reg] = res.json().data;
    expect(reg).toMatchObject({
      fullSipURI: `sip:${device.sipUsername}@127.0.0.1:${phonePort}`,
      user_agent: userAgent,
      deviceId: device.id,
      publicSourceRegistration: `127.0.0.1:${phonePort}`,
    });
    expect(reg.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const expires = Date.parse(`${reg.expirationDate.replace(' ', 'T')}Z`);
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);
    // The subscriber's registrations are those of its devices.
    const bySubscriber = await req('GET', `${C}/subscribers/${subscriberId}/registrations`);
    expect(bySubscriber.statusCode, bySubscriber.body).toBe(200);
    expect(bySubscriber.json().data).toEqual([reg]);
  });

  it('issue 25, point 8: rebooting the device through the API sends the phone a NOTIFY with Event: check-sync;reboot=true', async () => {
    const messages = join(work, 'notify-messages.log');
    const listening = awaitNotify(phonePort, messages, work);
    await new Promise((r) => setTimeout(r, 300)); // the phone binds its port
    const res = await req('POST', `${C}/devices/${device.id}/reboot`);
    expect(res.statusCode, res.body).toBe(200);
    const answered = await listening;
    expect(answered.code, answered.output).toBe(0);
    const received = readFileSync(messages, 'utf8');
    expect(received).toContain(`NOTIFY sip:${device.sipUsername}@127.0.0.1:${phonePort} SIP/2.0`);
    expect(received).toMatch(/^Event: check-sync;reboot=true\r?$/m);
  });

  it('issue 25, point 8: an assigned device is not deleted; unassigned and deleted through the API, its phone’s next REGISTER is refused', async () => {
    expect((await req('DELETE', `${C}/devices/${device.id}`)).statusCode).toBe(409);
    const unassigned = await req('DELETE', `${C}/subscribers/${subscriberId}/devices/${device.id}`);
    expect(unassigned.statusCode, unassigned.body).toBe(200);
    const deleted = await req('DELETE', `${C}/devices/${device.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const refused = await register('register-refused', phone());
    expect(refused.code, refused.output).toBe(0);
    expect((await req('GET', `${C}/devices/${device.id}/registrations`)).statusCode).toBe(404);
  });
});
