// Document 2, SIP device, SIP registration, the operations table; routes.md, CloudPBX (createDevice
// ... listSubscriberRegistrations); issue 25, points 5 and 8. Decisions in docs/decisions.md,
// "CloudPBX: SIP devices and programmable keys". Runs on PGlite and PostgreSQL.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { eq, like, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let ec: string;
let site: string;
let admin: MadeUser;
let siteAdmin: MadeUser;
let otherAdmin: MadeUser;
let user1: MadeUser;
let user2: MadeUser;
let pbx: Record<string, any>;
let otherPbx: Record<string, any>;
let C: string;
let OC: string;
let sub1: string;
let sub2: string;
let otherSub: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
const voice = () => portsOf(t.deps).voice;
let macSeq = 0x100;
/** A fresh MAC address, upper case with dashes (a form the service normalises). */
const nextMac = () => {
  const hex = (0xa0b0c0000000 + macSeq++).toString(16).toUpperCase().padStart(12, '0');
  return hex.match(/../g)!.join('-');
};
const norm = (mac: string) => mac.replace(/-/g, ':').toLowerCase();

async function create(base: string, body: Record<string, unknown>, token = admin.token) {
  const res = await req('POST', `${base}/devices`, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Record<string, any>;
}
const deskPhone = (base = C) =>
  create(
    base,
    { description: 'Desk', deviceTypeId: 1001, macAddress: nextMac() },
    base === C ? admin.token : otherAdmin.token,
  );
const errorOf = (res: { statusCode: number; json(): any }) => ({
  status: res.statusCode,
  code: res.json().errorDetailsCode,
  field: res.json().errorDetails?.field,
});
/** The HA1 the embedded registrar keeps for a device's account. */
async function storedHa1(deviceId: string): Promise<string | undefined> {
  const res = (await t.db.execute(
    sql`SELECT data->>'ha1' AS ha1 FROM port_records WHERE port = 'voice' AND kind = 'device-account' AND id = ${deviceId}`,
  )) as unknown as { rows: { ha1: string }[] };
  return res.rows[0]?.ha1;
}

/** Accounts of the registrar whose device does not exist (an undone creation leaves none). */
async function orphanAccounts(): Promise<unknown[]> {
  const res = (await t.db.execute(
    sql`SELECT id FROM port_records WHERE port = 'voice' AND kind = 'device-account' AND id NOT IN (SELECT id FROM pbx_devices)`,
  )) as unknown as { rows: unknown[] };
  return res.rows;
}

beforeAll(async () => {
  t = await createTestApp();
  const bp = await makeCompany(t, { name: 'Devices BP', isBP: true, bpType: 'DR' });
  ec = await makeCompany(t, { name: 'Devices EC', bpId: bp });
  const other = await makeCompany(t, { name: 'Devices other EC' });
  site = await makeSite(t, ec);
  admin = await makeUser(t, ec, ['company_admin']);
  siteAdmin = await makeUser(t, ec, ['site_admin'], { siteId: site });
  otherAdmin = await makeUser(t, other, ['company_admin']);
  user1 = await makeUser(t, ec);
  user2 = await makeUser(t, ec);
  pbx = await createPbx(t, ec, { siteId: site });
  otherPbx = await createPbx(t, other);
  C = `${PBXS}/${pbx.id}`;
  OC = `${PBXS}/${otherPbx.id}`;
  sub1 = await seedSubscriber(t, pbx.id, user1.id, '201');
  sub2 = await seedSubscriber(t, pbx.id, user2.id, '202');
  otherSub = await seedSubscriber(t, otherPbx.id, (await makeUser(t, other)).id, '201');
});
afterAll(() => t.close());

describe('doc 2, create a SIP device', () => {
  it('doc 2, create a SIP device: every field of the SIP device, the MAC normalised, and SIP credentials the registrar accepts', async () => {
    const mac = nextMac();
    const d = await create(C, { description: 'Reception', deviceTypeId: '1001', macAddress: mac });
    expect(d).toMatchObject({
      systemId: pbx.id,
      companyId: ec,
      description: 'Reception',
      macAddress: norm(mac),
      phoneNumberId: null,
      shortNumber: null,
      userId: null,
      userDisplayName: null,
      deviceType: { id: 1001, vendor: 'Yealink', model: 'SIP-T33G' },
      currentDevice: true,
      adminPassword: null,
      debugSessionEndDate: null,
      adminUrl: null,
      sipDomain: voice().sipDomain,
    });
    expect(typeof d.sipUsername).toBe('string');
    expect(d.sipPassword.length).toBeGreaterThan(15);
    // The registrar holds the account, enabled, with the HA1 of exactly these credentials.
    const account = await voice().getDeviceAccount(d.id);
    expect(account).toMatchObject({ username: d.sipUsername, enabled: true, tenantId: pbx.cloudpbx.vcpNumber });
    const md5 = (s: string) => createHash('md5').update(s).digest('hex');
    expect(await storedHa1(d.id)).toBe(md5(`${d.sipUsername}:${d.sipDomain}:${d.sipPassword}`));
    // The administrators read them again (getDevice).
    const got = await req('GET', `${C}/devices/${d.id}`, admin.token);
    expect(got.json().data.sipPassword).toBe(d.sipPassword);
  });

  it('issue 25, point 5: every written form of a MAC address is one address (":", "-", ".", none, upper case)', async () => {
    for (const [i, form] of ['AABBCC000001', 'aabb.cc00.0002', 'AA:BB:CC:00:00:03', 'aa-bb-cc-00-00-04'].entries()) {
      const d = await create(C, { description: `Form ${i}`, deviceTypeId: 1002, macAddress: form });
      expect(d.macAddress).toBe(`aa:bb:cc:00:00:0${i + 1}`);
    }
    const dup = await req('POST', `${C}/devices`, admin.token, {
      description: 'Same',
      deviceTypeId: 1002,
      macAddress: 'aabbcc-000001',
    });
    expect(errorOf(dup)).toEqual({ status: 409, code: 409830, field: 'macAddress' });
  });

  it('doc 2, create a SIP device: deviceTypeId from the models (400830), macAddress mandatory for a desk phone (400831) and valid (400832)', async () => {
    const bad = async (body: Record<string, unknown>) => errorOf(await req('POST', `${C}/devices`, admin.token, body));
    expect(await bad({ description: 'x', deviceTypeId: 4242, macAddress: nextMac() })).toEqual({
      status: 400,
      code: 400830,
      field: 'deviceTypeId',
    });
    expect(await bad({ description: 'x', deviceTypeId: 1001 })).toEqual({
      status: 400,
      code: 400831,
      field: 'macAddress',
    });
    expect(await bad({ description: 'x', deviceTypeId: 1001, macAddress: 'aa:bb:cc:dd:ee' })).toEqual({
      status: 400,
      code: 400832,
      field: 'macAddress',
    });
    expect(await bad({ description: 'x', deviceTypeId: 1001, macAddress: 'zz:bb:cc:dd:ee:ff' })).toEqual({
      status: 400,
      code: 400832,
      field: 'macAddress',
    });
    expect(
      (await req('POST', `${C}/devices`, admin.token, { deviceTypeId: 1001, macAddress: nextMac() })).statusCode,
    ).toBe(400);
    // The generic SIP model (a softphone) needs none.
    const soft = await create(C, { description: 'Softphone', deviceTypeId: 999999 });
    expect(soft.macAddress).toBe(null);
    expect(soft.deviceType).toEqual({ id: 999999, vendor: 'Generic', model: 'SIP device' });
  });

  it('issue 25, point 5: a MAC address is unique across the platform: 409830 in another CloudPBX, no account left on the registrar', async () => {
    const mac = nextMac();
    await create(C, { description: 'Here', deviceTypeId: 1001, macAddress: mac });
    const res = await req('POST', `${OC}/devices`, otherAdmin.token, {
      description: 'There',
      deviceTypeId: 1001,
      macAddress: norm(mac).replace(/:/g, ''),
    });
    expect(errorOf(res)).toEqual({ status: 409, code: 409830, field: 'macAddress' });
    expect(await orphanAccounts()).toEqual([]);
    expect(await t.db.select().from(devices).where(eq(devices.cloudPbxId, otherPbx.id))).toEqual([]);
  });

  it('issue 25, point 5: two creations of one MAC address at once: both pass the check, the unique index refuses the second (409830), one device, one account', async () => {
    const mac = nextMac();
    const body = (n: number) => ({ description: `Race ${n}`, deviceTypeId: 1001, macAddress: mac });
    // The registrar holds both creations after their checks: neither device is stored yet.
    const release = portsOf(t.deps).controls.voice.hold();
    const pending = [1, 2].map((n) => req('POST', `${C}/devices`, admin.token, body(n)));
    await new Promise((r) => setTimeout(r, 300));
    release();
    const answers = await Promise.all(pending);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    expect(loser.json().errorDetailsCode).toBe(409830);
    const rows = await t.db
      .select()
      .from(devices)
      .where(eq(devices.macAddress, norm(mac)));
    expect(rows.length).toBe(1);
    // The loser's account was made, then deleted again.
    await new Promise((r) => setTimeout(r, 50));
    expect(await orphanAccounts()).toEqual([]);
  });

  it('issue 25, point 8: a registrar that fails: 502830 and no device', async () => {
    const controls = portsOf(t.deps).controls.voice;
    const before = (await t.db.select().from(devices)).length;
    controls.failNext = 1;
    const res = await req('POST', `${C}/devices`, admin.token, {
      description: 'Fails',
      deviceTypeId: 1001,
      macAddress: nextMac(),
    });
    controls.failNext = 0;
    expect(errorOf(res).code).toBe(502830);
    expect((await t.db.select().from(devices)).length).toBe(before);
  });

  it('issue 25, point 9: create, update and delete tell the CloudPBX’s gateway, without secrets', async () => {
    const d = await deskPhone();
    await req('PUT', `${C}/devices/${d.id}`, admin.token, { description: 'Renamed' });
    await req('DELETE', `${C}/devices/${d.id}`, admin.token);
    const rows = await t.db
      .select()
      .from(outbox)
      .where(like(outbox.stanza, `%${d.id}%`));
    const actions = rows.map((r) => /<device action="(\w+)"/.exec(r.stanza)?.[1]);
    expect(actions).toEqual(['create', 'update', 'delete']);
    expect(rows.every((r) => r.recipient === pbx.jid_pbxpcg)).toBe(true);
    expect(rows.some((r) => r.stanza.includes(d.sipPassword))).toBe(false);
  });
});

describe('issue 25, point 9: assignments and resets told to the gateway', () => {
  it('issue 25, point 9: assign, unassign and reset are device updates naming their change and the subscriber', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, { deviceId: d.id });
    await req('DELETE', `${C}/subscribers/${sub2}/devices/${d.id}`, admin.token);
    await req('POST', `${C}/devices/${d.id}/reset`, admin.token);
    const rows = await t.db
      .select()
      .from(outbox)
      .where(like(outbox.stanza, `%${d.id}%`));
    const seen = rows.map((r) => [
      /<device action="(\w+)"/.exec(r.stanza)?.[1],
      /<change>(\w+)<\/change>/.exec(r.stanza)?.[1],
      // An empty element (`<phoneNumberId/>`): unassigned.
      /<phoneNumberId(?:\/>|>(\w*)<\/phoneNumberId>)/.exec(r.stanza)?.[1] ?? '',
    ]);
    expect(seen).toEqual([
      ['create', undefined, ''],
      ['update', 'assign', sub2],
      ['update', 'unassign', ''],
      ['update', 'reset', ''],
    ]);
  });
});

describe('doc 2, list SIP devices', () => {
  it('doc 2, list SIP devices: {data, limit, offset, total}, sorted by macAddress by default, filters assigned and phoneNumberId; no secrets', async () => {
    const [a, b] = [await deskPhone(OC), await deskPhone(OC)];
    await req('POST', `${OC}/subscribers/${otherSub}/devices`, otherAdmin.token, { deviceId: b.id });
    const all = await req('GET', `${OC}/devices`, otherAdmin.token);
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect({ total: body.total, limit: body.limit, offset: body.offset }).toEqual({ total: 2, limit: 100, offset: 0 });
    expect(body.data.map((d: { id: string }) => d.id)).toEqual(
      [a, b].sort((x, y) => (x.macAddress < y.macAddress ? -1 : 1)).map((d) => d.id),
    );
    expect(body.data.every((d: { sipPassword: unknown }) => d.sipPassword === null)).toBe(true);
    const ids = async (q: string) =>
      (await req('GET', `${OC}/devices?${q}`, otherAdmin.token)).json().data.map((d: { id: string }) => d.id);
    expect(await ids('assigned=true')).toEqual([b.id]);
    expect(await ids('assigned=false')).toEqual([a.id]);
    expect(await ids(`phoneNumberId=${otherSub}`)).toEqual([b.id]);
    expect(await ids('sortOrder=-1&limit=1')).toEqual([
      [a, b].sort((x, y) => (x.macAddress > y.macAddress ? -1 : 1))[0].id,
    ]);
    const page = (await req('GET', `${OC}/devices?offset=5`, otherAdmin.token)).json();
    expect({ data: page.data, total: page.total }).toEqual({ data: [], total: 2 });
    const assigned = (await req('GET', `${OC}/devices?assigned=true`, otherAdmin.token)).json().data[0];
    expect(assigned).toMatchObject({ phoneNumberId: otherSub, shortNumber: '201' });
    expect(assigned.userDisplayName).toMatch(/^First Last/);
  });
});

describe('doc 2, update and delete a SIP device', () => {
  it('doc 2, update a SIP device: description and macAddress (normalised, unique, required for a desk phone)', async () => {
    const d = await deskPhone();
    const taken = await deskPhone();
    const res = await req('PUT', `${C}/devices/${d.id}`, admin.token, {
      description: 'New',
      macAddress: 'AABB.CCDD.EE99',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ description: 'New', macAddress: 'aa:bb:cc:dd:ee:99' });
    expect(
      errorOf(await req('PUT', `${C}/devices/${d.id}`, admin.token, { macAddress: taken.macAddress.toUpperCase() })),
    ).toEqual({
      status: 409,
      code: 409830,
      field: 'macAddress',
    });
    expect(errorOf(await req('PUT', `${C}/devices/${d.id}`, admin.token, { macAddress: null }))).toEqual({
      status: 400,
      code: 400831,
      field: 'macAddress',
    });
    // Its own address again is no conflict.
    expect(
      (await req('PUT', `${C}/devices/${d.id}`, admin.token, { macAddress: 'aa:bb:cc:dd:ee:99' })).statusCode,
    ).toBe(200);
  });

  it('doc 2, delete a SIP device: refused while assigned (409831); deleted with its registrar account', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/subscribers/${sub1}/devices`, admin.token, { deviceId: d.id });
    const refused = await req('DELETE', `${C}/devices/${d.id}`, admin.token);
    expect(errorOf(refused)).toMatchObject({ status: 409, code: 409831 });
    expect(await voice().getDeviceAccount(d.id)).toBeDefined();
    await req('DELETE', `${C}/subscribers/${sub1}/devices/${d.id}`, admin.token);
    const res = await req('DELETE', `${C}/devices/${d.id}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(await voice().getDeviceAccount(d.id)).toBe(undefined);
    expect((await req('GET', `${C}/devices/${d.id}`, admin.token)).statusCode).toBe(404);
  });
});

describe('doc 2, assign a SIP device to a subscriber', () => {
  it('doc 2, assign a SIP device: by deviceId or by macAddress plus deviceTypeId; the answer shows the subscriber and his user', async () => {
    const d = await deskPhone();
    const res = await req('POST', `${C}/subscribers/${sub1}/devices`, admin.token, { deviceId: d.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ id: d.id, phoneNumberId: sub1, shortNumber: '201', userId: user1.id });
    expect(res.json().data.userDisplayName).toMatch(/^First Last/);
    const e = await deskPhone();
    const byMac = await req('POST', `${C}/subscribers/${sub1}/devices`, admin.token, {
      macAddress: e.macAddress.toUpperCase(),
      deviceTypeId: '1001',
    });
    expect(byMac.statusCode, byMac.body).toBe(201);
    expect(byMac.json().data.id).toBe(e.id);
    const listed = await req('GET', `${C}/subscribers/${sub1}/devices`, siteAdmin.token);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(
      listed
        .json()
        .data.map((x: { id: string }) => x.id)
        .sort(),
    ).toEqual([d.id, e.id].sort());
    expect(listed.json().total).toBe(2);
  });

  it('doc 2, assign SIP device: "the device must already exist" in this CloudPBX (400005 naming the field); one of another subscriber is 409831', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/subscribers/${sub1}/devices`, admin.token, { deviceId: d.id });
    expect(
      errorOf(await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, { deviceId: d.id })),
    ).toMatchObject({
      status: 409,
      code: 409831,
    });
    const foreign = await deskPhone(OC);
    expect(
      errorOf(await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, { deviceId: foreign.id })),
    ).toEqual({
      status: 400,
      code: 400005,
      field: 'deviceId',
    });
    expect(
      errorOf(
        await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, {
          macAddress: foreign.macAddress,
          deviceTypeId: 1001,
        }),
      ),
    ).toEqual({ status: 400, code: 400005, field: 'macAddress' });
    const mine = await deskPhone();
    expect(
      errorOf(
        await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, {
          macAddress: mine.macAddress,
          deviceTypeId: 1002,
        }),
      ),
    ).toEqual({ status: 400, code: 400005, field: 'deviceTypeId' });
    expect((await t.db.select().from(devices).where(eq(devices.id, mine.id)))[0].subscriberId).toBe(null);
  });

  it('issue 25, point 8: unassigning disables the device’s SIP account, assigning enables it again; another subscriber’s device is 404', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, { deviceId: d.id });
    expect((await req('DELETE', `${C}/subscribers/${sub1}/devices/${d.id}`, admin.token)).statusCode).toBe(404);
    expect((await voice().getDeviceAccount(d.id))?.enabled).toBe(true);
    const res = await req('DELETE', `${C}/subscribers/${sub2}/devices/${d.id}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await voice().getDeviceAccount(d.id))?.enabled).toBe(false);
    expect((await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data.phoneNumberId).toBe(null);
    await req('POST', `${C}/subscribers/${sub1}/devices`, admin.token, { deviceId: d.id });
    expect((await voice().getDeviceAccount(d.id))?.enabled).toBe(true);
  });
});

describe('doc 2, reset, reboot, registrations', () => {
  it('doc 2, reset a SIP device: {status, data: []}, inoperative (account disabled, currentDevice false) until reconfigured by an update', async () => {
    const d = await deskPhone();
    const res = await req('POST', `${C}/devices/${d.id}/reset`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(typeof res.json().status).toBe('string');
    expect((await voice().getDeviceAccount(d.id))?.enabled).toBe(false);
    const reset = (await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data;
    expect({ currentDevice: reset.currentDevice, reset: reset.resetDate !== null }).toEqual({
      currentDevice: false,
      reset: true,
    });
    const updated = await req('PUT', `${C}/devices/${d.id}`, admin.token, { description: 'Reconfigured' });
    expect(updated.json().data).toMatchObject({ currentDevice: true, resetDate: null });
    expect((await voice().getDeviceAccount(d.id))?.enabled).toBe(true);
  });

  it('doc 2, reset a SIP device: assigning reconfigures it too', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/devices/${d.id}/reset`, admin.token);
    const res = await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, { deviceId: d.id });
    expect(res.json().data).toMatchObject({ currentDevice: true, resetDate: null, phoneNumberId: sub2 });
    expect((await voice().getDeviceAccount(d.id))?.enabled).toBe(true);
  });

  it('doc 2, reboot a desk phone: {status, data: []}, the status telling how many registered contacts were reached', async () => {
    const d = await deskPhone();
    const res = await req('POST', `${C}/devices/${d.id}/reboot`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: `Reboot of SIP device ${d.id} requested: 0 registered contacts reached`,
      data: [],
    });
  });

  it('doc 2, SIP registrations of a device and of a subscriber: the registrar’s (none on the embedded one); its failure 502830', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/subscribers/${sub2}/devices`, admin.token, { deviceId: d.id });
    const res = await req('GET', `${C}/devices/${d.id}/registrations`, siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    const bySub = await req('GET', `${C}/subscribers/${sub2}/registrations`, siteAdmin.token);
    expect(bySub.statusCode, bySub.body).toBe(200);
    expect(bySub.json().data).toEqual([]);
    portsOf(t.deps).controls.voice.failNext = 1;
    const failed = await req('GET', `${C}/devices/${d.id}/registrations`, admin.token);
    portsOf(t.deps).controls.voice.failNext = 0;
    expect(errorOf(failed).code).toBe(502830);
  });
});

describe('doc 2, debug sessions', () => {
  it('doc 2, grant a debug session: the admin password and page address shown until the end date (default 1800 s), then no longer', async () => {
    const d = await deskPhone();
    const res = await req('POST', `${C}/devices/${d.id}/debug`, admin.token, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    const granted = (await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data;
    expect(new Date(granted.debugSessionEndDate).getTime()).toBe(t.clock.now().getTime() + 1800_000);
    expect(granted.adminPassword.length).toBeGreaterThan(8);
    expect(granted.adminUrl).toBe(`https://${d.macAddress.replace(/:/g, '')}.devices.${d.sipDomain}/`);
    // The list never shows the password.
    const listed = (await req('GET', `${C}/devices?limit=1000`, admin.token))
      .json()
      .data.find((x: { id: string }) => x.id === d.id);
    expect(listed.adminPassword).toBe(null);
    // The session ends by itself at its end date.
    const soon = await req('POST', `${C}/devices/${d.id}/debug`, t.superToken, { duration: '60' });
    expect(soon.statusCode, soon.body).toBe(200);
    t.clock.advance(61_000);
    const ended = (await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data;
    expect({ p: ended.adminPassword, e: ended.debugSessionEndDate, u: ended.adminUrl }).toEqual({
      p: null,
      e: null,
      u: null,
    });
  });

  it('doc 2, grant a debug session: only a superadmin may give a duration other than the default (403830)', async () => {
    const d = await deskPhone();
    expect(errorOf(await req('POST', `${C}/devices/${d.id}/debug`, admin.token, { duration: 60 }))).toEqual({
      status: 403,
      code: 403830,
      field: 'duration',
    });
    expect((await req('POST', `${C}/devices/${d.id}/debug`, admin.token, { duration: '1800' })).statusCode).toBe(200);
  });

  it('doc 2, revoke a debug session: revoked, the admin password changed and no longer visible', async () => {
    const d = await deskPhone();
    await req('POST', `${C}/devices/${d.id}/debug`, admin.token, {});
    const before = (await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data.adminPassword;
    const res = await req('DELETE', `${C}/devices/${d.id}/debug`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([]);
    const revoked = (await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data;
    expect({ p: revoked.adminPassword, e: revoked.debugSessionEndDate }).toEqual({ p: null, e: null });
    await req('POST', `${C}/devices/${d.id}/debug`, admin.token, {});
    const again = (await req('GET', `${C}/devices/${d.id}`, admin.token)).json().data.adminPassword;
    expect(again === before).toBe(false);
  });
});

describe('doc 2, who manages SIP devices', () => {
  it('doc 2, roles: site_admin reads the devices of his site’s CloudPBX and changes none (403)', async () => {
    const d = await deskPhone();
    expect((await req('GET', `${C}/devices/${d.id}`, siteAdmin.token)).statusCode).toBe(200);
    expect((await req('GET', `${C}/devices`, siteAdmin.token)).statusCode).toBe(200);
    expect((await req('PUT', `${C}/devices/${d.id}`, siteAdmin.token, { description: 'No' })).statusCode).toBe(403);
    expect((await req('POST', `${C}/devices/${d.id}/debug`, siteAdmin.token, {})).statusCode).toBe(403);
    expect(
      (await req('POST', `${C}/devices`, siteAdmin.token, { description: 'No', deviceTypeId: 999999 })).statusCode,
    ).toBe(403);
  });

  it('doc 2, roles: the admin of another company gets 404; a device of another CloudPBX under this one’s path is 404', async () => {
    const d = await deskPhone();
    expect((await req('GET', `${C}/devices/${d.id}`, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('DELETE', `${C}/devices/${d.id}`, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${OC}/devices/${d.id}`, t.superToken)).statusCode).toBe(404);
    expect((await req('GET', `${OC}/devices/${d.id}`, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${C}/subscribers/${otherSub}/devices`, t.superToken)).statusCode).toBe(404);
  });
});
