// Issue 25, point 8: the devices' SIP accounts on a real registrar, Kamailio (started by .ci/run
// with .ci/kamailio/start.sh), through the voice port's Kamailio implementation (PORTS=voice=kamailio).
// Phones are played by sipp with the scenarios of test/e2e/sipp/. Without Kamailio or sipp these
// tests fail, saying how to start them. Each run uses user names of its own (CI runs the suite
// twice against one Kamailio).
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from '../support/expect.ts';
import { freshDatabase } from '../support/harness.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createPorts, type Ports } from '../../src/ports/ports.ts';
import { KAMAILIO, freeUdpPort, kamcmd, register, requireKamailio, awaitNotify } from './kamailio.ts';

let database: Database;
let ports: Ports;
let kamailioDb: pg.Client;
let work: string;
let tenantId: string;

const suffix = randomBytes(4).toString('hex');
const device = { deviceId: `dev-${suffix}`, username: `phone-${suffix}`, password: `Pw-${suffix}-1` };
let phonePort: number;
const userAgent = `svc-e2e-phone/${suffix}`;

const bindings = async (username: string) =>
  (await kamailioDb.query<{ n: number }>('SELECT count(*)::int AS n FROM location WHERE username = $1', [username]))
    .rows[0]?.n;

before(async () => {
  await requireKamailio();
  database = await freshDatabase();
  await database.migrate();
  work = mkdtempSync(join(tmpdir(), 'svc-e2e-sip-'));
  const config = {
    ...loadConfig({
      PORTS: 'voice=kamailio',
      KAMAILIO_DATABASE_URL: KAMAILIO.databaseUrl,
      KAMAILIO_CTL: KAMAILIO.ctl,
    }),
    dataDir: work,
  };
  ports = createPorts({ database, config, now: () => new Date() });
  kamailioDb = new pg.Client({ connectionString: KAMAILIO.databaseUrl });
  await kamailioDb.connect();
  tenantId = (await ports.voice.createTenant({ companyId: `c-${suffix}`, name: 'Tenant' })).id;
  phonePort = await freeUdpPort();
});
after(async () => {
  await ports?.voice.deleteDeviceAccount(device.deviceId).catch(() => undefined);
  await kamailioDb?.end();
  await database?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the devices’ SIP registrar (Kamailio)', () => {
  it('issue 25, point 8: a device account registers with its password and only with it; Kamailio keeps only its HA1', async () => {
    const account = await ports.voice.createDeviceAccount({ tenantId, ...device });
    expect(account).toMatchObject({ username: device.username, domain: 'sip.localhost' });
    const { rows } = await kamailioDb.query<{ password: string; ha1: string }>(
      'SELECT password, ha1 FROM subscriber WHERE username = $1 AND domain = $2',
      [device.username, 'sip.localhost'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.password).toBe('');
    expect(rows[0]?.ha1).toMatch(/^[0-9a-f]{32}$/);

    const phone = { ...device, domain: account.domain, port: phonePort, userAgent };
    const wrong = await register('register-refused', { ...phone, password: 'not-the-password' });
    expect(wrong.code, wrong.output).toBe(0);
    expect(await ports.voice.listRegistrations(device.deviceId)).toEqual([]);
    expect(await bindings(device.username)).toBe(0);

    const right = await register('register', phone);
    expect(right.code, right.output).toBe(0);
    expect(await ports.voice.listRegistrations(device.deviceId)).toHaveLength(1);
  });

  it("issue 25, point 8: a device's registration reads back with its contact, its UTC expiry, its user agent and its source address", async () => {
    const [reg] = await ports.voice.listRegistrations(device.deviceId);
    expect(reg).toMatchObject({
      fullSipURI: `sip:${device.username}@127.0.0.1:${phonePort}`,
      user_agent: userAgent,
      deviceId: device.deviceId,
      publicSourceRegistration: `127.0.0.1:${phonePort}`,
    });
    expect(reg?.id).toBeTruthy();
    // The source address comes from Kamailio's `received` (nathelper), not only from the contact.
    const { rows } = await kamailioDb.query<{ received: string | null }>(
      'SELECT received FROM location WHERE username = $1',
      [device.username],
    );
    expect(rows.map((r) => r.received)).toEqual([`sip:127.0.0.1:${phonePort}`]);
    expect(reg?.expirationDate).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Registered for 3600 s: the expiry, read as UTC, is an hour from now (a minute either way).
    const expires = Date.parse(`${reg?.expirationDate.replace(' ', 'T')}Z`);
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);
  });

  it('issue 25, point 8: a reboot sends each registered contact a NOTIFY with Event: check-sync;reboot=true, and counts those that accept it', async () => {
    const messages = join(work, 'notify-messages.log');
    // The phone, at its contact address, waits for the NOTIFY and answers 200 (sipp drops
    // requests of unknown calls: the registering sipp cannot receive it).
    const phone = awaitNotify(phonePort, messages, work);
    await new Promise((r) => setTimeout(r, 300)); // the phone binds its port (Kamailio retransmits anyway)
    expect(await ports.voice.rebootDevice(device.deviceId)).toBe(1);
    const answered = await phone;
    expect(answered.code, answered.output).toBe(0);
    const received = readFileSync(messages, 'utf8');
    expect(received).toContain(`NOTIFY sip:${device.username}@127.0.0.1:${phonePort} SIP/2.0`);
    expect(received).toMatch(/^Event: check-sync;reboot=true\r?$/m);
    expect(received).toContain(`To: <sip:${device.username}@sip.localhost>`);

    // No phone at the contact any more: the NOTIFY times out (Kamailio's fr_timer, 3 s) and is not counted.
    expect(await ports.voice.rebootDevice(device.deviceId)).toBe(0);
  });

  it('issue 25, point 8: after a password change the old password is refused and the new one registers', async () => {
    const phone = { ...device, domain: 'sip.localhost', port: phonePort, userAgent };
    await ports.voice.changeDeviceAccountPassword(device.deviceId, `${device.password}-new`);
    const old = await register('register-refused', phone);
    expect(old.code, old.output).toBe(0);
    const renewed = await register('register', { ...phone, password: `${device.password}-new` });
    expect(renewed.code, renewed.output).toBe(0);
    expect(await ports.voice.listRegistrations(device.deviceId)).toHaveLength(1);
  });

  it('issue 25, point 8: a disabled device account is refused and loses its bindings; enabled again, it registers with the same password', async () => {
    const phone = {
      ...device,
      password: `${device.password}-new`,
      domain: 'sip.localhost',
      port: phonePort,
      userAgent,
    };
    expect(await bindings(device.username)).toBe(1);
    await ports.voice.setDeviceAccountEnabled(device.deviceId, false);
    expect(await ports.voice.listRegistrations(device.deviceId)).toEqual([]);
    expect(await bindings(device.username)).toBe(0);
    const refused = await register('register-refused', phone);
    expect(refused.code, refused.output).toBe(0);
    // A password changed while disabled stays disabled.
    await ports.voice.changeDeviceAccountPassword(device.deviceId, phone.password);
    const still = await register('register-refused', phone);
    expect(still.code, still.output).toBe(0);
    await ports.voice.setDeviceAccountEnabled(device.deviceId, true);
    const back = await register('register', phone);
    expect(back.code, back.output).toBe(0);
    expect(await ports.voice.listRegistrations(device.deviceId)).toHaveLength(1);
  });

  it("issue 25, point 8: a deleted device account's bindings are gone at once and its phone's next REGISTER is refused", async () => {
    expect(await bindings(device.username)).toBe(1);
    await ports.voice.deleteDeviceAccount(device.deviceId);
    expect(await ports.voice.getDeviceAccount(device.deviceId)).toBeUndefined();
    expect(await bindings(device.username)).toBe(0);
    // Gone from Kamailio's memory too, not only from its table.
    const lookup = await kamcmd('ul.lookup', 'location', `s:${device.username}@sip.localhost`);
    expect(lookup.output).toContain('AOR not found');
    const refused = await register('register-refused', {
      ...device,
      password: `${device.password}-new`,
      domain: 'sip.localhost',
      port: phonePort,
      userAgent,
    });
    expect(refused.code, refused.output).toBe(0);
    expect(await bindings(device.username)).toBe(0);
  });
});
