// Issue 25, point 4: the subscribers of a CloudPBX (routes.md, CloudPBX: createSubscriber...
// setSubscriberRecording; document 2, Subscribers and the table of operations whose method and
// path are not given). Decisions in docs/decisions.md, "CloudPBX: subscribers and the numbering plan".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { newId } from '../../src/shared/ids.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { addDefaultSubscription } from '../../src/modules/commerce/commerce.api.ts';
import { licences, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import {
  createPbx,
  licensedUser as licensedUserOf,
  ownSubscription,
  PBXS,
  pbxWorld,
  seedSubscriber,
  type PbxWorld,
} from './fixtures.ts';

let t: TestApp;
let w: PbxWorld;
let pbx: Record<string, any>;
let otherPbx: Record<string, any>;
let C: string;

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

const subscription = (companyId: string, o: { status?: 'active' | 'creating' } = {}) =>
  ownSubscription(t, companyId, o);
const licensedUser = (companyId: string) => licensedUserOf(t, companyId);

const platformSubscribers = async (p: Record<string, any>) =>
  portsOf(t.deps).voice.listSubscribers(p.cloudpbx.vcpNumber);

async function createSub(userId: string, shortNumber: string | number, token = w.ec1Admin.token) {
  return req('POST', `${C}/subscribers`, token, { userId, shortNumber });
}

async function created(shortNumber: string): Promise<Record<string, any>> {
  const u = await licensedUser(w.ec1);
  const res = await createSub(u.id, shortNumber);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await pbxWorld(t, 'Subscribers');
  pbx = await createPbx(t, w.ec1, { siteId: w.site1 });
  otherPbx = await createPbx(t, w.otherEc);
  C = `${PBXS}/${pbx.id}`;
});
afterAll(() => t.close());

describe('issue 25 point 4, create a subscriber', () => {
  it('issue 25 point 4, create a subscriber: 201, its id is its phoneNumberId, made on the voice platform, told to the gateway', async () => {
    const u = await licensedUser(w.ec1);
    const res = await createSub(u.id, '2001');
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json().data;
    expect(s).toMatchObject({
      phoneNumberId: s.id,
      systemId: pbx.id,
      userId: u.id,
      loginEmail: u.email,
      shortNumber: '2001',
      customSipHeader_1: null,
      customSipHeader_2: null,
      barringOptions: { permissions: 'int_nat_local', restrictions: 'default' },
      callForwardOptions: { externalCallForward: 'company_policy' },
      overflow: { value: 'default', activate: true, unavailableOverflow: 'default', noReplyDelay: 20 },
      recordingProfile: 'none',
      devices: [],
    });
    expect(s.userDisplayName).toBe(`${s.firstName} ${s.lastName}`.trim());
    const onPlatform = (await platformSubscribers(pbx)).filter((p) => p.userId === u.id);
    expect(onPlatform.map((p) => p.shortNumber)).toEqual(['2001']);
    const [row] = await t.db.select().from(subscribers).where(eq(subscribers.id, s.id));
    expect(row.vcpSubscriberId).toBe(onPlatform[0].id);
    const events = await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg));
    expect(events.some((e) => e.stanza.includes('action="create"') && e.stanza.includes(s.id))).toBe(true);
  });

  it('issue 25 point 4, create a subscriber: a number sent as a number is read as its digits', async () => {
    const u = await licensedUser(w.ec1);
    const res = await createSub(u.id, 2002);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.shortNumber).toBe('2002');
  });

  it('issue 25 point 2, create a subscriber: a number outside the numbering plan (prefix 2, 3 digits) is 400820 naming shortNumber', async () => {
    const u = await licensedUser(w.ec1);
    for (const n of ['3001', '200', '20001', '2a01', '']) {
      const res = await createSub(u.id, n);
      expect(res.statusCode, `${n}: ${res.body}`).toBe(400);
      if (n !== '') {
        expect(res.json().errorDetailsCode).toBe(400820);
        expect(JSON.stringify(res.json())).toContain('shortNumber');
      }
    }
    expect(await t.db.select().from(subscribers).where(eq(subscribers.userId, u.id))).toEqual([]);
  });

  it('issue 25 point 4, create a subscriber: a number already allocated is 409822; a user already a subscriber is 409821', async () => {
    const first = await created('2010');
    const u = await licensedUser(w.ec1);
    const taken = await createSub(u.id, '2010');
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().errorDetailsCode).toBe(409822);
    const again = await createSub(first.userId, '2011');
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().errorDetailsCode).toBe(409821);
    expect((await platformSubscribers(pbx)).filter((p) => p.shortNumber === '2011')).toEqual([]);
  });

  it('issue 25 point 4, create a subscriber: no licence, a licence of the default offer or of a subscription not active is 409820', async () => {
    const none = await makeUser(t, w.ec1);
    const r1 = await createSub(none.id, '2020');
    expect(r1.statusCode, r1.body).toBe(409);
    expect(r1.json().errorDetailsCode).toBe(409820);
    const company = await makeCompany(t, { bpId: w.bp });
    await addDefaultSubscription(t.db, company, new Date());
    const [def] = await t.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.companyId, company), eq(subscriptions.isDefault, true)));
    const withDefault = await makeUser(t, w.ec1);
    await t.db.insert(licences).values({ subscriptionId: def.id, userId: withDefault.id, userCompanyId: w.ec1 });
    const r2 = await createSub(withDefault.id, '2020');
    expect(r2.json().errorDetailsCode, r2.body).toBe(409820);
    const notActive = await makeUser(t, w.ec1);
    const sub = await subscription(w.ec1, { status: 'creating' });
    await t.db.insert(licences).values({ subscriptionId: sub, userId: notActive.id, userCompanyId: w.ec1 });
    const r3 = await createSub(notActive.id, '2020');
    expect(r3.json().errorDetailsCode, r3.body).toBe(409820);
  });

  it('issue 25 point 4, create a subscriber: a user of another company is 400005 (a reference), nothing made', async () => {
    const stranger = await licensedUser(w.otherEc);
    const res = await createSub(stranger.id, '2030');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400005);
    expect((await platformSubscribers(pbx)).filter((p) => p.userId === stranger.id)).toEqual([]);
  });

  it('issue 25 point 4, create a subscriber: the voice platform refusing is 502, nothing stored', async () => {
    const u = await licensedUser(w.ec1);
    portsOf(t.deps).controls.voice.failNext = 1;
    const res = await createSub(u.id, '2040');
    expect(res.statusCode, res.body).toBe(502);
    expect(await t.db.select().from(subscribers).where(eq(subscribers.userId, u.id))).toEqual([]);
    expect((await platformSubscribers(pbx)).filter((p) => p.userId === u.id)).toEqual([]);
  });

  it('issue 25 point 4, create a subscriber: two creations for one user at once make one (201, 409), one subscriber on the platform', async () => {
    const u = await licensedUser(w.ec1);
    const both = await Promise.all([createSub(u.id, '2050'), createSub(u.id, '2051')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await platformSubscribers(pbx)).filter((p) => p.userId === u.id).length).toBe(1);
  });
});

describe('issue 25 point 4, list, get and delete subscribers', () => {
  it('issue 25 point 4, list subscribers: {data, limit, offset, total}, by shortNumber by default', async () => {
    const mine = await createPbx(t, await makeCompany(t, { bpId: w.bp }));
    for (const n of ['2300', '2100', '2200'])
      await seedSubscriber(t, mine.id, (await makeUser(t, mine.companyId)).id, n);
    const res = await req('GET', `${PBXS}/${mine.id}/subscribers?limit=2`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ limit: 2, offset: 0, total: 3 });
    expect(res.json().data.map((s: { shortNumber: string }) => s.shortNumber)).toEqual(['2100', '2200']);
    const desc = await req('GET', `${PBXS}/${mine.id}/subscribers?sortOrder=-1&offset=1`, t.superToken);
    expect(desc.json().data.map((s: { shortNumber: string }) => s.shortNumber)).toEqual(['2200', '2100']);
  });

  it('issue 28, list subscribers: search finds by the first digits of the number or by a part of the name; paging counts the matches', async () => {
    const mine = await createPbx(t, await makeCompany(t, { bpId: w.bp }));
    const made: Record<string, string> = {};
    for (const n of ['2300', '2310', '2100', '2231']) {
      const u = await makeUser(t, mine.companyId);
      await seedSubscriber(t, mine.id, u.id, n);
      made[n] = u.id;
    }
    const numbers = async (query: string) => {
      const res = await req('GET', `${PBXS}/${mine.id}/subscribers?${query}`, t.superToken);
      expect(res.statusCode, res.body).toBe(200);
      return { total: res.json().total, numbers: res.json().data.map((s: { shortNumber: string }) => s.shortNumber) };
    };
    // Digits: the numbers that start with them (2231 holds "23" but does not start with it).
    expect(await numbers('search=23')).toEqual({ total: 2, numbers: ['2300', '2310'] });
    expect(await numbers('search=23&limit=1&offset=1')).toEqual({ total: 2, numbers: ['2310'] });
    // Text: a part of the display name ("First Last<id>"), whatever its case; % is no wildcard.
    const name = `last${made['2100'].slice(-6)}`.toUpperCase();
    expect(await numbers(`search=${encodeURIComponent(name)}`)).toEqual({ total: 1, numbers: ['2100'] });
    expect(await numbers('search=%25')).toEqual({ total: 0, numbers: [] });
    expect((await numbers('search=')).total).toBe(4);
  });

  it('issue 25 point 4, get a subscriber: a subscriber of another CloudPBX under this path is 404', async () => {
    const other = await seedSubscriber(t, otherPbx.id, (await makeUser(t, w.otherEc)).id, '2001');
    expect((await req('GET', `${C}/subscribers/${other}`, t.superToken)).statusCode).toBe(404);
    expect((await req('GET', `${PBXS}/${otherPbx.id}/subscribers/${other}`, t.superToken)).statusCode).toBe(200);
    expect((await req('DELETE', `${C}/subscribers/${other}`, t.superToken)).statusCode).toBe(404);
  });

  it('issue 25 point 4, delete a subscriber: gone on the platform; its DDI numbers and devices unassigned; its number free again', async () => {
    const s = await created('2060');
    const ddiId = newId();
    await t.db.insert(ddis).values({
      id: ddiId,
      cloudPbxId: pbx.id,
      number: '+33100000060',
      numberE164: '+33100000060',
      userId: s.userId,
      jidIm: 'im@x',
      jidTel: 'tel@x',
      jidPassword: 'secret',
    });
    const deviceId = newId();
    await t.db.insert(devices).values({
      id: deviceId,
      cloudPbxId: pbx.id,
      description: 'Desk',
      deviceTypeId: 999999,
      subscriberId: s.id,
      sipUsername: `sub-${deviceId}`,
      adminPassword: 'x',
    });
    expect((await req('GET', `${C}/subscribers/${s.id}`, w.siteAdmin.token)).json().data.devices).toEqual([deviceId]);
    const res = await req('DELETE', `${C}/subscribers/${s.id}`, w.ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: `Subscriber ${s.id} deleted`, data: [] });
    expect((await req('GET', `${C}/subscribers/${s.id}`, t.superToken)).statusCode).toBe(404);
    expect((await platformSubscribers(pbx)).filter((p) => p.shortNumber === '2060')).toEqual([]);
    const [d] = await t.db.select().from(ddis).where(eq(ddis.id, ddiId));
    expect([d.userId, d.jidIm, d.jidTel, d.jidPassword]).toEqual([null, null, null, null]);
    const [dev] = await t.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(dev.subscriberId).toBe(null);
    const free = await req('GET', `${C}/phone-numbers/free?startingWith=206&limit=1`, t.superToken);
    expect(free.json().data).toEqual([2060]);
    const events = await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg));
    expect(events.some((e) => e.stanza.includes('action="delete"') && e.stanza.includes(s.id))).toBe(true);
  });

  it('issue 25 point 8, delete a subscriber: its devices, now unassigned, have their registrar accounts disabled', async () => {
    const s = await created('2080');
    const made = await req('POST', `${C}/devices`, w.ec1Admin.token, { description: 'Desk', deviceTypeId: 999999 });
    expect(made.statusCode, made.body).toBe(201);
    const deviceId: string = made.json().data.id;
    const assigned = await req('POST', `${C}/subscribers/${s.id}/devices`, w.ec1Admin.token, { deviceId });
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect((await portsOf(t.deps).voice.getDeviceAccount(deviceId))?.enabled).toBe(true);
    const res = await req('DELETE', `${C}/subscribers/${s.id}`, w.ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await portsOf(t.deps).voice.getDeviceAccount(deviceId))?.enabled).toBe(false);
    expect((await req('GET', `${C}/devices/${deviceId}`, w.ec1Admin.token)).json().data.phoneNumberId ?? null).toBe(
      null,
    );
  });

  it('issue 25 point 4, delete a subscriber: the voice platform refusing is 502, nothing deleted', async () => {
    const s = await created('2070');
    portsOf(t.deps).controls.voice.failNext = 1;
    const res = await req('DELETE', `${C}/subscribers/${s.id}`, w.ec1Admin.token);
    expect(res.statusCode, res.body).toBe(502);
    expect((await req('GET', `${C}/subscribers/${s.id}`, t.superToken)).statusCode).toBe(200);
  });
});

describe('doc 2, options of a subscriber', () => {
  let s: Record<string, any>;
  let S: string;
  beforeAll(async () => {
    s = await created('2500');
    S = `${C}/subscribers/${s.id}`;
  });

  it('doc 2, subscriber SIP headers: read and updated (absent: unchanged; null clears)', async () => {
    const put = await req('PUT', `${S}/sip-headers`, w.ec1Admin.token, {
      customSipHeader_1: 'X-A',
      customSipHeader_2: 'X-B',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ customSipHeader_1: 'X-A', customSipHeader_2: 'X-B' });
    const again = await req('PUT', `${S}/sip-headers`, w.ec1Admin.token, { customSipHeader_2: null });
    expect(again.json().data).toEqual({ customSipHeader_1: 'X-A', customSipHeader_2: null });
    const get = await req('GET', `${S}/sip-headers`, w.siteAdmin.token);
    expect(get.json().data).toEqual({ customSipHeader_1: 'X-A', customSipHeader_2: null });
  });

  it('doc 2, subscriber barring: one id or an array of one; `default` restriction; an unknown id is 400 naming the field', async () => {
    const put = await req('PUT', `${S}/barring-options`, w.ec1Admin.token, {
      permissions: 'local',
      restrictions: ['custom_numbers'],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ permissions: 'local', restrictions: 'custom_numbers' });
    const back = await req('PUT', `${S}/barring-options`, w.ec1Admin.token, { restrictions: 'default' });
    expect(back.json().data).toEqual({ permissions: 'local', restrictions: 'default' });
    const bad = await req('PUT', `${S}/barring-options`, w.ec1Admin.token, { permissions: 'everything' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('permissions');
    expect((await req('GET', `${S}/barring-options`, t.superToken)).json().data).toEqual({
      permissions: 'local',
      restrictions: 'default',
    });
  });

  it('doc 2, subscriber external call forward: company_policy, authorized, not_authorized (required)', async () => {
    const put = await req('PUT', `${S}/call-forward-options`, w.ec1Admin.token, {
      externalCallForward: 'not_authorized',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual({ externalCallForward: 'not_authorized' });
    expect((await req('GET', `${S}/call-forward-options`, t.superToken)).json().data).toEqual({
      externalCallForward: 'not_authorized',
    });
    const bad = await req('PUT', `${S}/call-forward-options`, w.ec1Admin.token, { externalCallForward: 'sometimes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('externalCallForward');
    expect((await req('PUT', `${S}/call-forward-options`, w.ec1Admin.token, {})).statusCode).toBe(400);
  });

  it('doc 2, subscriber overflow: value and unavailableOverflow required; activate is value not disabled; noReplyDelay 10 to 60', async () => {
    const put = await req('PUT', `${S}/overflow`, w.ec1Admin.token, {
      value: 'disabled',
      unavailableOverflow: 'custom',
      noReplyDelay: '30',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ value: 'disabled', activate: false, unavailableOverflow: 'custom' });
    const keep = await req('PUT', `${S}/overflow`, w.ec1Admin.token, {
      value: 'custom',
      unavailableOverflow: 'default',
    });
    expect(keep.json().data).toEqual({
      value: 'custom',
      activate: true,
      unavailableOverflow: 'default',
      noReplyDelay: 30,
    });
    for (const body of [
      { value: 'custom', unavailableOverflow: 'default', noReplyDelay: 5 },
      { value: 'custom', unavailableOverflow: 'default', noReplyDelay: 61 },
      { value: 'custom' },
      { value: 'sometimes', unavailableOverflow: 'default' },
    ]) {
      const bad = await req('PUT', `${S}/overflow`, w.ec1Admin.token, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await req('GET', `${S}/overflow`, w.siteAdmin.token)).json().data).toEqual({
      value: 'custom',
      activate: true,
      unavailableOverflow: 'default',
      noReplyDelay: 30,
    });
  });

  it("doc 2, set a subscriber's recording: {data: {recordingProfile}}; an unknown profile is 400 naming it", async () => {
    const put = await req('PUT', `${S}/recording`, w.ec1Admin.token, { recordingProfile: 'external_only' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ data: { recordingProfile: 'external_only' } });
    expect((await req('GET', S, t.superToken)).json().data.recordingProfile).toBe('external_only');
    const bad = await req('PUT', `${S}/recording`, w.ec1Admin.token, { recordingProfile: 'some' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('recordingProfile');
  });

  it('issue 25 point 9, subscriber options: each change is told to the gateway (action update)', async () => {
    const before = (await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg))).filter(
      (e) => e.stanza.includes('action="update"') && e.stanza.includes(s.id),
    ).length;
    await req('PUT', `${S}/recording`, w.ec1Admin.token, { recordingProfile: 'all' });
    const after = (await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg))).filter(
      (e) => e.stanza.includes('action="update"') && e.stanza.includes(s.id),
    ).length;
    expect(after).toBe(before + 1);
  });
});

describe('doc 2, roles on subscribers', () => {
  let s: Record<string, any>;
  beforeAll(async () => {
    s = await created('2600');
  });

  it('doc 2, roles: site_admin of the site reads, gets 403 on writes; support reads, 403 on writes', async () => {
    for (const who of [w.siteAdmin, w.support]) {
      expect((await req('GET', `${C}/subscribers/${s.id}`, who.token)).statusCode).toBe(200);
      expect((await req('GET', `${C}/subscribers`, who.token)).statusCode).toBe(200);
      const put = await req('PUT', `${C}/subscribers/${s.id}/recording`, who.token, { recordingProfile: 'all' });
      expect(put.statusCode, put.body).toBe(403);
      const u = await licensedUser(w.ec1);
      expect((await createSub(u.id, '2601', who.token)).statusCode).toBe(403);
      expect((await req('DELETE', `${C}/subscribers/${s.id}`, who.token)).statusCode).toBe(403);
    }
  });

  it("doc 2, roles: bp_admin of the End Customer creates; another company's admin gets 404", async () => {
    const u = await licensedUser(w.ec1);
    expect((await createSub(u.id, '2602', w.bpAdmin.token)).statusCode).toBe(201);
    expect((await req('GET', `${C}/subscribers/${s.id}`, w.otherAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${C}/subscribers`, w.otherAdmin.token)).statusCode).toBe(404);
    const put = await req('PUT', `${C}/subscribers/${s.id}/overflow`, w.otherAdmin.token, {
      value: 'default',
      unavailableOverflow: 'default',
    });
    expect(put.statusCode).toBe(404);
  });
});
