// Issue 25, point 8: the SIP registrar side of the hosted PBX's devices, as the voice port offers it.
// Here the embedded implementation (no registrar behind it) and the choice of the Kamailio one by
// configuration; the real registrar is tested end to end in test/e2e/kamailio-registrar.test.ts.
// Runs on PGlite and PostgreSQL.
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { freshDatabase } from '../support/harness.ts';
import { ConfigError, loadConfig, type Config } from '../../src/config.ts';
import type { Database } from '../../src/db/client.ts';
import { createPorts, type Ports } from '../../src/ports/ports.ts';
import { PortFailure } from '../../src/ports/control.ts';
import { hostPort } from '../../src/ports/voice/voice.kamailio.ts';

let database: Database;
let dataDir: string;
let config: Config;
const now = () => new Date('2026-06-15T10:00:00Z');
let ports: Ports;

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The JSON data of the port's records of a kind, as stored. */
async function stored(kind: string): Promise<string[]> {
  const res = (await database.db.execute(
    sql`SELECT data::text AS data FROM port_records WHERE port = 'voice' AND kind = ${kind} ORDER BY id`,
  )) as unknown as { rows: { data: string }[] };
  return res.rows.map((r) => r.data);
}

before(async () => {
  database = await freshDatabase();
  await database.migrate();
  dataDir = mkdtempSync(join(tmpdir(), 'svc-voice-devices-'));
  config = { ...loadConfig({}), dataDir };
  ports = createPorts({ database, config, now });
});
after(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('device accounts of the voice port (embedded)', () => {
  /** A tenant of company c-<key> with the account of device dev-<key>, user name phone-<key>. */
  const withAccount = async (key: string, password = 'pw') => {
    const tenant = await ports.voice.createTenant({ companyId: `c-${key}`, name: 'Tenant' });
    await ports.voice.createDeviceAccount({
      tenantId: tenant.id,
      deviceId: `dev-${key}`,
      username: `phone-${key}`,
      password,
    });
    return tenant;
  };
  it('issue 25, point 8: a device account keeps the HA1 of its password (md5 of user:realm:password), never the password', async () => {
    const tenant = await ports.voice.createTenant({ companyId: 'c-ha1', name: 'Tenant' });
    expect(ports.voice.sipDomain).toBe('sip.localhost');
    const account = await ports.voice.createDeviceAccount({
      tenantId: tenant.id,
      deviceId: 'dev-ha1',
      username: 'phone-ha1',
      password: 'Secret-pw-1',
    });
    expect(account).toEqual({
      deviceId: 'dev-ha1',
      tenantId: tenant.id,
      username: 'phone-ha1',
      domain: 'sip.localhost',
      enabled: true,
    });
    expect(await ports.voice.getDeviceAccount('dev-ha1')).toEqual(account);
    const [data] = (await stored('device-account')).filter((d) => d.includes('phone-ha1'));
    expect(data).toContain(md5('phone-ha1:sip.localhost:Secret-pw-1'));
    expect(data).not.toContain('Secret-pw-1');

    await ports.voice.changeDeviceAccountPassword('dev-ha1', 'Other-pw-2');
    const [changed] = (await stored('device-account')).filter((d) => d.includes('phone-ha1'));
    expect(changed).toContain(md5('phone-ha1:sip.localhost:Other-pw-2'));
    expect(changed).not.toContain(md5('phone-ha1:sip.localhost:Secret-pw-1'));
    expect(changed).not.toContain('Other-pw-2');
  });

  it('issue 25, point 8: a user name and a device have one account each, under an existing tenant, with a user name the registrar accepts', async () => {
    const tenant = await ports.voice.createTenant({ companyId: 'c-once', name: 'Tenant' });
    const make = (deviceId: string, username: string, tenantId = tenant.id) =>
      ports.voice.createDeviceAccount({ tenantId, deviceId, username, password: 'pw' });
    await make('dev-once', 'phone-once');
    await expect(make('dev-once', 'phone-other')).rejects.toBeInstanceOf(PortFailure);
    await expect(make('dev-twice', 'phone-once')).rejects.toBeInstanceOf(PortFailure);
    await expect(make('dev-x', 'phone-x', 'no-such-tenant')).rejects.toBeInstanceOf(PortFailure);
    for (const bad of ['', 'a:b', 'user@domain', 'with space', '-dash-first', 'x'.repeat(65)])
      await expect(make(`dev-bad-${bad.length}`, bad)).rejects.toThrow(/user name/);
    await expect(
      ports.voice.createDeviceAccount({
        tenantId: tenant.id,
        deviceId: 'dev-nopw',
        username: 'phone-nopw',
        password: '',
      }),
    ).rejects.toThrow(/password/);
    expect(await ports.voice.getDeviceAccount('dev-twice')).toBeUndefined();
    // A tenant with device accounts stays.
    await expect(ports.voice.deleteTenant(tenant.id)).rejects.toThrow(/device accounts/);
  });

  it('issue 25, point 8: without a registrar (embedded) a device has no registrations and a reboot notifies no contact', async () => {
    await withAccount('reg');
    expect(await ports.voice.listRegistrations('dev-reg')).toEqual([]);
    expect(await ports.voice.rebootDevice('dev-reg')).toBe(0);
    await expect(ports.voice.listRegistrations('dev-none')).rejects.toBeInstanceOf(PortFailure);
    await expect(ports.voice.rebootDevice('dev-none')).rejects.toBeInstanceOf(PortFailure);
  });

  it('issue 25, point 8: a device account is disabled and enabled again with the same password', async () => {
    await withAccount('off', 'pw-off');
    await ports.voice.setDeviceAccountEnabled('dev-off', false);
    expect(await ports.voice.getDeviceAccount('dev-off')).toMatchObject({ enabled: false });
    await ports.voice.setDeviceAccountEnabled('dev-off', false);
    expect(await ports.voice.getDeviceAccount('dev-off')).toMatchObject({ enabled: false });
    await ports.voice.setDeviceAccountEnabled('dev-off', true);
    expect(await ports.voice.getDeviceAccount('dev-off')).toMatchObject({ enabled: true });
    const [data] = (await stored('device-account')).filter((d) => d.includes('phone-off'));
    expect(data).toContain(md5('phone-off:sip.localhost:pw-off'));
    await expect(ports.voice.setDeviceAccountEnabled('dev-none', true)).rejects.toBeInstanceOf(PortFailure);
  });

  it('issue 25, point 8: a deleted device account is gone, its user name free again, and its tenant can go', async () => {
    const tenant = await withAccount('del');
    await ports.voice.deleteDeviceAccount('dev-del');
    expect(await ports.voice.getDeviceAccount('dev-del')).toBeUndefined();
    await expect(ports.voice.deleteDeviceAccount('dev-del')).rejects.toBeInstanceOf(PortFailure);
    await expect(ports.voice.changeDeviceAccountPassword('dev-del', 'pw')).rejects.toBeInstanceOf(PortFailure);
    expect((await stored('device-account')).some((d) => d.includes('phone-del'))).toBe(false);
    await ports.voice.createDeviceAccount({
      tenantId: tenant.id,
      deviceId: 'dev-del-2',
      username: 'phone-del',
      password: 'pw',
    });
    await ports.voice.deleteDeviceAccount('dev-del-2');
    await ports.voice.deleteTenant(tenant.id);
  });

  it('issue 25, point 8: the realm is the SIP_DOMAIN setting', async () => {
    const other = createPorts({
      database,
      config: { ...config, ...loadConfig({ SIP_DOMAIN: 'pbx.example.net' }), dataDir },
      now,
    });
    const tenant = await other.voice.createTenant({ companyId: 'c-dom', name: 'Tenant' });
    const a = await other.voice.createDeviceAccount({
      tenantId: tenant.id,
      deviceId: 'dev-dom',
      username: 'phone-dom',
      password: 'pw',
    });
    expect(a.domain).toBe('pbx.example.net');
    const [data] = (await stored('device-account')).filter((d) => d.includes('phone-dom'));
    expect(data).toContain(md5('phone-dom:pbx.example.net:pw'));
    expect(() => loadConfig({ SIP_DOMAIN: 'bad domain' })).toThrow(ConfigError);
  });
});

describe('choosing the Kamailio registrar', () => {
  it('issue 25, point 8: PORTS=voice=kamailio is accepted with its database and control socket, and only for voice', () => {
    const env = {
      PORTS: 'voice=kamailio',
      KAMAILIO_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/kamailio',
      KAMAILIO_CTL: 'unix:/tmp/kamailio_ctl',
    };
    const c = loadConfig(env);
    expect(c.ports.voice).toBe('kamailio');
    expect(c.sip).toEqual({
      domain: 'sip.localhost',
      kamailioDatabaseUrl: env.KAMAILIO_DATABASE_URL,
      kamailioCtl: env.KAMAILIO_CTL,
    });
    expect(() => loadConfig({ PORTS: 'voice=kamailio', KAMAILIO_CTL: env.KAMAILIO_CTL })).toThrow(
      /KAMAILIO_DATABASE_URL/,
    );
    expect(() => loadConfig({ PORTS: 'voice=kamailio', KAMAILIO_DATABASE_URL: env.KAMAILIO_DATABASE_URL })).toThrow(
      /KAMAILIO_CTL/,
    );
    expect(() => loadConfig({ ...env, PORTS: 'billing=kamailio' })).toThrow(/PORTS/);
    expect(() => loadConfig({ ...env, KAMAILIO_DATABASE_URL: 'mysql://x' })).toThrow(/KAMAILIO_DATABASE_URL/);
    // Built without contacting Kamailio: the pool connects at the first call.
    const kam = createPorts({ database, config: { ...config, ...c, dataDir }, now });
    expect(kam.voice.sipDomain).toBe('sip.localhost');
  });

  it("issue 25, point 8: a registration's public source is host:port of the received address or else of the contact", () => {
    expect(hostPort('sip:127.0.0.1:25070')).toBe('127.0.0.1:25070');
    expect(hostPort('sip:phone@192.0.2.7:5062;transport=udp')).toBe('192.0.2.7:5062');
    expect(hostPort('<sip:phone@192.0.2.7>')).toBe('192.0.2.7:5060');
    expect(hostPort('sip:phone@[2001:db8::1]:5070;ob')).toBe('[2001:db8::1]:5070');
    expect(hostPort('sips:phone@host.example?x=1')).toBe('host.example:5060');
  });
});
