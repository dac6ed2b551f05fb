// Document 2, "Welcome and welcome service (IVR)", "Office hours", "Welcome services (IVR)";
// routes.md, CloudPBX (createWelcome ... updateOfficeHours); issue 26, points 6 and 7. Decisions
// in docs/decisions.md, "CloudPBX: welcome services and office hours". Groups and their forwards
// are inserted directly (their API is another part of the issue).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { groupForwards, groups } from '../../src/modules/pbx/groups.tables.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { ivrOverflows } from '../../src/modules/pbx/ivrs.overflows.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let ec1: string;
let bpAdmin: MadeUser;
let ec1Admin: MadeUser;
let siteAdmin: MadeUser;
let support: MadeUser;
let otherAdmin: MadeUser;
let sub1: MadeUser;
let pbx1: Record<string, any>;
let pbx2: Record<string, any>;
let pbxNoTz: Record<string, any>;
let S1: string;
let S1b: string;
let I1: string;
let I2: string;
let HG: string;
let MA: string;
let W: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

let seq = 0;
/** A DDI of the PBX made through the API (a French number new to the platform). */
async function ddi(pbx: Record<string, any>): Promise<Record<string, any>> {
  const res = await req('POST', `${PBXS}/${pbx.id}/phone-numbers/ddi`, t.superToken, {
    number: `03${String(100_000_000 + ++seq).slice(1)}`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function ddiRow(id: string) {
  return (await t.db.select().from(ddis).where(eq(ddis.id, id)))[0];
}

async function welcome(name = `Welcome ${++seq}`, url = `${I1}/welcomes`) {
  const res = await req('POST', url, t.superToken, { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function service(body: Record<string, unknown>, url = `${I1}/welcomeservices`) {
  const res = await req('POST', url, t.superToken, { name: `Service ${++seq}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** A group of the PBX, inserted directly (the groups' API is built elsewhere). */
async function group(cloudPbxId: string, type: 'hunting_group' | 'manager_assistant', shortNumber: string | null) {
  const id = newId();
  await t.db.insert(groups).values({
    id,
    cloudPbxId,
    name: `Group ${shortNumber ?? id}`,
    type,
    shortNumber,
    shortNumberValue: shortNumber ? Number(shortNumber) : null,
  });
  return id;
}

/** The stanzas the PBX's gateway was sent about welcomes and welcome services, oldest first. */
async function ivrStanzas(pbx: Record<string, any>): Promise<string[]> {
  const rows = await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg));
  return rows
    .sort((a, b) => a.seq - b.seq)
    .map((r) => r.stanza)
    .filter((s) => s.includes('<ivr '));
}

const expectError = (res: { statusCode: number; body: string; json(): any }, status: number, code: number) => {
  expect({ status: res.statusCode, code: res.json().errorDetailsCode }, res.body).toEqual({ status, code });
};

beforeAll(async () => {
  t = await createTestApp();
  const bp = await makeCompany(t, { name: 'IVR BP', isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { name: 'IVR EC', bpId: bp });
  const ec2 = await makeCompany(t, { name: 'IVR other EC' });
  const ec3 = await makeCompany(t, { name: 'IVR EC without time zone' });
  await t.db.update(companies).set({ timezone: 'Europe/Paris' }).where(eq(companies.id, ec1));
  await t.db.update(companies).set({ timezone: 'Mars/Olympus' }).where(eq(companies.id, ec3));
  const site1 = await makeSite(t, ec1);
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  ec1Admin = await makeUser(t, ec1, ['company_admin']);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1 });
  support = await makeUser(t, bp, ['support']);
  otherAdmin = await makeUser(t, ec2, ['company_admin']);
  sub1 = await makeUser(t, ec1);
  const sub2 = await makeUser(t, ec1);
  const outsider = await makeUser(t, ec2);
  pbx1 = await createPbx(t, ec1, { siteId: site1 });
  pbx2 = await createPbx(t, ec2);
  pbxNoTz = await createPbx(t, ec3);
  S1 = await seedSubscriber(t, pbx1.id, sub1.id, '201');
  S1b = await seedSubscriber(t, pbx1.id, sub2.id, '202');
  await seedSubscriber(t, pbx2.id, outsider.id, '201');
  I1 = `${PBXS}/${pbx1.id}/ivrs`;
  I2 = `${PBXS}/${pbx2.id}/ivrs`;
  HG = await group(pbx1.id, 'hunting_group', '250');
  MA = await group(pbx1.id, 'manager_assistant', null);
  W = (await welcome('Main welcome')).id;
});
afterAll(() => t.close());

describe('welcomes (issue 26, point 6)', () => {
  it('issue 26, point 6: a welcome {name} has id, systemId, name, timezone = the company’s, isDefaultIvr (the first one)', async () => {
    const got = await req('GET', `${I1}/${W}`, ec1Admin.token);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toEqual({
      id: W,
      systemId: pbx1.id,
      name: 'Main welcome',
      timezone: 'Europe/Paris',
      isDefaultIvr: true,
    });
    const second = await welcome('Second welcome');
    expect(second.isDefaultIvr).toBe(false);
    const list = await req('GET', `${I1}/welcomes`, siteAdmin.token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((w: any) => w.name)).toEqual(['Main welcome', 'Second welcome']);
    expect(list.json().total).toBe(2);
  });

  it('issue 26, point 6: a company with no IANA time zone gives its welcomes UTC', async () => {
    const w = await welcome('No zone', `${PBXS}/${pbxNoTz.id}/ivrs/welcomes`);
    expect(w.timezone).toBe('UTC');
  });

  it('issue 26, point 6: a name is required; the name changes through POST C/ivrs/{ivrId}; service fields sent to a welcome are ignored', async () => {
    expectError(await req('POST', `${I1}/welcomes`, t.superToken, {}), 400, 400000);
    const w = await welcome('Old name');
    const res = await req('POST', `${I1}/${w.id}`, ec1Admin.token, { name: 'New name', welcomeId: W, unknown: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ ...w, name: 'New name' });
  });
});

describe('office hours (issue 26, point 7)', () => {
  it('issue 26, point 7: a new welcome opens Monday to Friday 09:00 to 18:00; isOpen and nextChange at the service’s clock', async () => {
    // The test clock: Saturday 2026-11-21 08:00Z, 09:00 in Paris: closed until Monday 09:00 Paris.
    const res = await req('GET', `${I1}/${W}/officehours`, siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    const work = [['09:00', '18:00']];
    expect(res.json().data).toEqual({
      officehours: { openhours: [[], work, work, work, work, work, []], exceptions: [] },
      timezone: 'Europe/Paris',
      isOpen: false,
      nextChange: '2026-11-23T08:00:00.000Z',
    });
  });

  it('issue 26, point 7: PUT {officehours} answers {status, officehours}; the hours read back open or closed', async () => {
    const w = await welcome('Saturday shop');
    const openhours = [
      [],
      [],
      [],
      [],
      [],
      [],
      [
        ['09:00', '12:30'],
        ['14:00', '18:00'],
      ],
    ];
    const exceptions = [{ year: 2026, month: 12, mday: 25, periods: [['0']], open: false }];
    const res = await req('PUT', `${I1}/${w.id}/officehours`, ec1Admin.token, {
      officehours: { openhours, exceptions },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toContain('updated');
    expect(res.json().data.officehours).toEqual({ openhours, exceptions });
    const now = await req('GET', `${I1}/${w.id}/officehours`, siteAdmin.token);
    expect(now.json().data).toMatchObject({ isOpen: true, nextChange: '2026-11-21T11:31:00.000Z' });
    // Numbers as strings are accepted; {} changes nothing; an absent member is kept.
    const again = await req('PUT', `${I1}/${w.id}/officehours`, ec1Admin.token, {
      officehours: { exceptions: [{ year: '2026', month: '11', mday: '21', open: 'false' }] },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.officehours.openhours).toEqual(openhours);
    const closedToday = await req('GET', `${I1}/${w.id}/officehours`, siteAdmin.token);
    // The exception applies on its date only: open again next Saturday 09:00 Paris.
    expect(closedToday.json().data).toMatchObject({ isOpen: false, nextChange: '2026-11-28T08:00:00.000Z' });
    const same = await req('PUT', `${I1}/${w.id}/officehours`, ec1Admin.token, { officehours: {} });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().data.officehours.exceptions).toEqual([
      { year: 2026, month: 11, mday: 21, periods: [['0']], open: false },
    ]);
  });

  it('issue 26, point 7: the service’s clock moves isOpen', async () => {
    const w = await welcome('Quarter hour');
    const day = [['09:45', '10:00']];
    await req('PUT', `${I1}/${w.id}/officehours`, t.superToken, { officehours: { openhours: Array(7).fill(day) } });
    // 09:00 Paris: closed until 09:45 (08:45Z).
    const closed = await req('GET', `${I1}/${w.id}/officehours`, t.superToken);
    expect(closed.json().data).toMatchObject({ isOpen: false, nextChange: '2026-11-21T08:45:00.000Z' });
    t.clock.advance(50 * 60_000);
    try {
      // 09:50 Paris: open through 10:00:59, so until 10:01 (09:01Z).
      const open = await req('GET', `${I1}/${w.id}/officehours`, t.superToken);
      expect(open.json().data).toMatchObject({ isOpen: true, nextChange: '2026-11-21T09:01:00.000Z' });
    } finally {
      t.clock.advance(-50 * 60_000);
    }
  });

  it('doc 2, office hours: anything else is 400 naming the day or the exception, and nothing is stored', async () => {
    const w = await welcome('Strict');
    const put = (officehours: unknown) => req('PUT', `${I1}/${w.id}/officehours`, ec1Admin.token, { officehours });
    const days = (d: unknown[]) => Array.from({ length: 7 }, (_, i) => d[i] ?? []);
    const cases: [unknown, string][] = [
      [{ openhours: [[], []] }, 'openhours'],
      [{ openhours: days([[], [['18:00', '09:00']]]) }, 'openhours[1] (monday)[0]'],
      [{ openhours: days([['0']]) }, 'openhours[0] (sunday)[0]'],
      [{ openhours: days([[], [], [['9:00', '18:00']]]) }, 'openhours[2] (tuesday)[0]'],
      [{ exceptions: [{ year: 2027, month: 2, mday: 29, periods: [['0']], open: false }] }, 'exceptions[0].mday'],
      [{ exceptions: [{ year: 2027, month: 13, mday: 1, open: false }] }, 'exceptions[0].month'],
      [
        { exceptions: [{ year: 2027, month: 1, mday: 1, open: true, periods: [['10:00']] }] },
        'exceptions[0].periods[0]',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await put(body);
      expectError(res, 400, 400880);
      expect(res.json().errorDetails.field, JSON.stringify(body)).toBe(field);
    }
    const after = await req('GET', `${I1}/${w.id}/officehours`, ec1Admin.token);
    expect(after.json().data.officehours.openhours[1]).toEqual([['09:00', '18:00']]);
    expectError(await put('x'), 400, 400000);
  });

  it('issue 26, point 7: a welcome service reads its welcome’s hours; they are set on the welcome (409882)', async () => {
    const s = await service({ welcomeId: W, openHoursOverflow: { type: 'user', destinationId: S1 } });
    const res = await req('GET', `${I1}/${s.id}/officehours`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.timezone).toBe('Europe/Paris');
    expect(res.json().data.officehours.openhours[1]).toEqual([['09:00', '18:00']]);
    expectError(await req('PUT', `${I1}/${s.id}/officehours`, ec1Admin.token, { officehours: {} }), 409, 409882);
    await req('DELETE', `${I1}/${s.id}`, t.superToken);
  });
});

describe('welcome services (issue 26, point 6)', () => {
  it('issue 26, point 6: a welcome service with its welcome and overflows; answers carry the destination’s name, number and userDisplayName', async () => {
    const d = await ddi(pbx1);
    const s = await service({
      name: 'Reception',
      welcomeId: W,
      openHoursOverflow: { type: 'user', destinationId: S1, number: 'ignored' },
      closedHoursOverflow: { type: 'closed_hours', destinationId: W },
      externalNumberId: d.id,
    });
    const [u] = await t.db.select().from(subscribers).where(eq(subscribers.id, S1));
    expect(u.userId).toBe(sub1.id);
    expect(s).toMatchObject({
      systemId: pbx1.id,
      name: 'Reception',
      externalNumber: d.numberE164,
      externalNumberId: d.id,
      phoneNumberId: d.id,
      timezone: 'Europe/Paris',
      welcomeId: W,
      welcomeName: 'Main welcome',
      vcpAutoAttendantId: s.id,
      isDefaultIvr: true,
    });
    expect(s.openHoursOverflow).toMatchObject({
      type: 'user',
      destinationId: S1,
      number: '201',
      userId: sub1.id,
      vcpAutoAttendantId: null,
    });
    expect(s.openHoursOverflow.userDisplayName).toBeTruthy();
    expect(s.openHoursOverflow.name).toBe(s.openHoursOverflow.userDisplayName);
    expect(s.closedHoursOverflow).toMatchObject({ type: 'closed_hours', destinationId: W, name: 'Main welcome' });
    // The DDI shows the service as vcpIVRId.
    const list = await req('GET', `${PBXS}/${pbx1.id}/phone-numbers/ddi?isAssignedToIVR=true`, ec1Admin.token);
    expect(list.json().data.map((x: any) => [x.id, x.vcpIVRId])).toEqual([[d.id, s.id]]);
    // GET C/ivrs/{ivrId} and the list read it.
    const got = await req('GET', `${I1}/${s.id}`, siteAdmin.token);
    expect(got.json().data).toEqual(s);
    const all = await req('GET', `${I1}/welcomeservices`, support.token);
    expect(all.json().data.map((x: any) => x.id)).toEqual([s.id]);
    await req('DELETE', `${I1}/${s.id}`, t.superToken);
  });

  it('issue 26, point 6: every overflow type takes its kind of destination in this CloudPBX', async () => {
    const target = await service({ welcomeId: W, openHoursOverflow: { type: 'user', destinationId: S1 } });
    const d = await ddi(pbx1);
    await req('POST', `${I1}/${target.id}`, t.superToken, { externalNumberId: d.id });
    const cases: [Record<string, string>, Record<string, unknown>][] = [
      [
        { type: 'hunting_group', destinationId: HG },
        { number: '250', name: 'Group 250' },
      ],
      [{ type: 'voicemail', destinationId: S1b }, { number: '202' }],
      [{ type: 'voicemail', destinationId: HG }, { number: '250' }],
      [
        { type: 'auto_attendant', destinationId: target.id },
        { number: d.numberE164, name: target.name, vcpAutoAttendantId: target.id, vcpAutoAttendantName: target.name },
      ],
      [
        { type: 'office_hours', destinationId: W },
        { name: 'Main welcome', number: null },
      ],
    ];
    for (const [o, expected] of cases) {
      const s = await service({ welcomeId: W, openHoursOverflow: o });
      expect(s.openHoursOverflow, JSON.stringify(o)).toMatchObject({ ...o, ...expected });
      await req('DELETE', `${I1}/${s.id}`, t.superToken);
    }
    await req('DELETE', `${I1}/${target.id}`, t.superToken);
  });

  it('issue 26, pinned contract: an overflow destination not in this CloudPBX (or not of its type) is 400 naming the field', async () => {
    const foreignWelcome = (await welcome('Foreign', `${I2}/welcomes`)).id;
    const [foreignSub] = await t.db.select().from(subscribers).where(eq(subscribers.cloudPbxId, pbx2.id));
    const bad: [string, Record<string, unknown>][] = [
      ['openHoursOverflow.destinationId', { openHoursOverflow: { type: 'user', destinationId: foreignSub.id } }],
      ['openHoursOverflow.destinationId', { openHoursOverflow: { type: 'user', destinationId: 'nobody' } }],
      ['openHoursOverflow.destinationId', { openHoursOverflow: { type: 'hunting_group', destinationId: MA } }],
      ['openHoursOverflow.destinationId', { openHoursOverflow: { type: 'auto_attendant', destinationId: W } }],
      [
        'openHoursOverflow.destinationId',
        { openHoursOverflow: { type: 'closed_hours', destinationId: foreignWelcome } },
      ],
      ['openHoursOverflow.destinationId', { openHoursOverflow: { type: 'voicemail', destinationId: MA } }],
      ['openHoursOverflow.type', { openHoursOverflow: { destinationId: S1 } }],
      ['openHoursOverflow', { openHoursOverflow: {} }],
      [
        'closedHoursOverflow.destinationId',
        {
          openHoursOverflow: { type: 'user', destinationId: S1 },
          closedHoursOverflow: { type: 'office_hours', destinationId: S1 },
        },
      ],
    ];
    for (const [field, body] of bad) {
      const res = await req('POST', `${I1}/welcomeservices`, ec1Admin.token, { name: 'Bad', welcomeId: W, ...body });
      expectError(res, 400, 400881);
      expect(res.json().errorDetails.field, JSON.stringify(body)).toBe(field);
    }
    // The required fields; welcomeId a welcome of this CloudPBX.
    expectError(await req('POST', `${I1}/welcomeservices`, ec1Admin.token, { name: 'x', welcomeId: W }), 400, 400000);
    const ok = { type: 'user', destinationId: S1 };
    const other = await req('POST', `${I1}/welcomeservices`, ec1Admin.token, {
      name: 'x',
      welcomeId: foreignWelcome,
      openHoursOverflow: ok,
    });
    expectError(other, 400, 400005);
    expect(other.json().errorDetails.field).toBe('welcomeId');
    const s = await service({ welcomeId: W, openHoursOverflow: ok });
    const notWelcome = await req('POST', `${I1}/welcomeservices`, ec1Admin.token, {
      name: 'x',
      welcomeId: s.id,
      openHoursOverflow: ok,
    });
    expectError(notWelcome, 400, 400882);
    // A service cannot overflow to itself.
    const self = await req('POST', `${I1}/${s.id}`, ec1Admin.token, {
      openHoursOverflow: { type: 'auto_attendant', destinationId: s.id },
    });
    expectError(self, 400, 400881);
    await req('DELETE', `${I1}/${s.id}`, t.superToken);
  });

  it('issue 26, point 6: externalNumberId must be a DDI of this CloudPBX assigned to nothing else; null dissociates', async () => {
    const taken = await ddi(pbx1);
    await t.db.update(ddis).set({ userId: sub1.id }).where(eq(ddis.id, taken.id));
    const grouped = await ddi(pbx1);
    await t.db.update(ddis).set({ vcpGroupId: HG }).where(eq(ddis.id, grouped.id));
    const foreign = await ddi(pbx2);
    const ok = { type: 'user', destinationId: S1 };
    for (const id of [taken.id, grouped.id]) {
      const res = await req('POST', `${I1}/welcomeservices`, ec1Admin.token, {
        name: 'x',
        welcomeId: W,
        openHoursOverflow: ok,
        externalNumberId: id,
      });
      expectError(res, 409, 409880);
    }
    const res = await req('POST', `${I1}/welcomeservices`, ec1Admin.token, {
      name: 'x',
      welcomeId: W,
      openHoursOverflow: ok,
      externalNumberId: foreign.id,
    });
    expectError(res, 400, 400005);
    expect(res.json().errorDetails.field).toBe('externalNumberId');
    // One service's DDI is not another's.
    const d1 = await ddi(pbx1);
    const d2 = await ddi(pbx1);
    const a = await service({ welcomeId: W, openHoursOverflow: ok, externalNumberId: d1.id });
    const b = await service({ welcomeId: W, openHoursOverflow: ok });
    expectError(await req('POST', `${I1}/${b.id}`, ec1Admin.token, { externalNumberId: d1.id }), 409, 409880);
    // Moving to another DDI frees the first; null dissociates.
    const moved = await req('POST', `${I1}/${a.id}`, ec1Admin.token, { externalNumberId: d2.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ externalNumberId: d2.id, externalNumber: d2.numberE164 });
    expect((await ddiRow(d1.id)).vcpIvrId).toBe(null);
    expect((await ddiRow(d2.id)).vcpIvrId).toBe(a.id);
    const none = await req('POST', `${I1}/${a.id}`, ec1Admin.token, { externalNumberId: null });
    expect(none.json().data).toMatchObject({ externalNumberId: null, externalNumber: null, phoneNumberId: null });
    expect((await ddiRow(d2.id)).vcpIvrId).toBe(null);
    for (const s of [a, b]) await req('DELETE', `${I1}/${s.id}`, t.superToken);
  });

  it('issue 26, point 6: an update changes name, welcome and overflows; {} and absent fields change nothing; null removes the closed-hours overflow', async () => {
    const w2 = await welcome('Other welcome');
    const s = await service({
      welcomeId: W,
      openHoursOverflow: { type: 'user', destinationId: S1 },
      closedHoursOverflow: { type: 'voicemail', destinationId: S1 },
    });
    const same = await req('POST', `${I1}/${s.id}`, ec1Admin.token, { openHoursOverflow: {}, closedHoursOverflow: {} });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().data).toEqual(s);
    const res = await req('POST', `${I1}/${s.id}`, ec1Admin.token, {
      name: 'Renamed',
      welcomeId: w2.id,
      openHoursOverflow: { type: 'hunting_group', destinationId: HG },
      closedHoursOverflow: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Renamed',
      welcomeId: w2.id,
      welcomeName: 'Other welcome',
      openHoursOverflow: { type: 'hunting_group', destinationId: HG },
      closedHoursOverflow: null,
    });
    expectError(await req('POST', `${I1}/${s.id}`, ec1Admin.token, { openHoursOverflow: null }), 400, 400000);
    await req('DELETE', `${I1}/${s.id}`, t.superToken);
    await req('DELETE', `${I1}/${w2.id}`, t.superToken);
  });

  it('issue 26, point 6: deleting a welcome used by a welcome service is 409; deleting the service frees its DDI and removes the forwards and overflows pointing to it', async () => {
    const w = await welcome('In use');
    const d = await ddi(pbx1);
    const s = await service({
      welcomeId: w.id,
      openHoursOverflow: { type: 'user', destinationId: S1 },
      externalNumberId: d.id,
    });
    const pointing = await service({
      welcomeId: W,
      openHoursOverflow: { type: 'auto_attendant', destinationId: s.id },
    });
    const res = await req('DELETE', `${I1}/${w.id}`, ec1Admin.token);
    expectError(res, 409, 409881);
    expect(res.json().errorDetails.welcomeServiceIds).toEqual([s.id]);
    // A hunting group forwarding to the service (inserted directly).
    const g = await group(pbx1.id, 'hunting_group', '260');
    await t.db.insert(groupForwards).values({
      groupId: g,
      type: 'overflow',
      activate: true,
      destinationType: 'autoattendant',
      vcpAutoAttendantId: s.id,
    });
    const del = await req('DELETE', `${I1}/${s.id}`, ec1Admin.token);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ status: `Welcome ${s.id} deleted`, data: [] });
    expect((await ddiRow(d.id)).vcpIvrId).toBe(null);
    expect(await t.db.select().from(groupForwards).where(eq(groupForwards.groupId, g))).toEqual([]);
    const after = await req('GET', `${I1}/${pointing.id}`, ec1Admin.token);
    expect(after.json().data.openHoursOverflow).toBe(null);
    expect((await req('GET', `${I1}/${s.id}`, ec1Admin.token)).statusCode).toBe(404);
    // The welcome is free now.
    expect((await req('DELETE', `${I1}/${w.id}`, ec1Admin.token)).statusCode).toBe(200);
    await req('DELETE', `${I1}/${pointing.id}`, t.superToken);
  });

  it('issue 26, point 6 (decision): an overflow whose destination is deleted later goes with it (null in the answer)', async () => {
    const u = await makeUser(t, ec1);
    const sid = await seedSubscriber(t, pbx1.id, u.id, '230');
    const g = await group(pbx1.id, 'hunting_group', '270');
    const w = await welcome('Doomed');
    const s = await service({
      welcomeId: W,
      openHoursOverflow: { type: 'user', destinationId: sid },
      closedHoursOverflow: { type: 'hunting_group', destinationId: g },
    });
    const s2 = await service({ welcomeId: W, openHoursOverflow: { type: 'office_hours', destinationId: w.id } });
    await t.db.delete(subscribers).where(eq(subscribers.id, sid));
    await t.db.delete(groups).where(eq(groups.id, g));
    expect((await req('DELETE', `${I1}/${w.id}`, ec1Admin.token)).statusCode).toBe(200);
    const got = await req('GET', `${I1}/${s.id}`, ec1Admin.token);
    expect(got.json().data).toMatchObject({ openHoursOverflow: null, closedHoursOverflow: null });
    expect((await req('GET', `${I1}/${s2.id}`, ec1Admin.token)).json().data.openHoursOverflow).toBe(null);
    expect(await t.db.select().from(ivrOverflows).where(eq(ivrOverflows.ivrId, s.id))).toEqual([]);
    for (const x of [s, s2]) await req('DELETE', `${I1}/${x.id}`, t.superToken);
  });

  it('issue 26, point 6: the default moves to the oldest welcome left when the default is deleted', async () => {
    const url = `${PBXS}/${pbxNoTz.id}/ivrs/welcomes`;
    const list = await req('GET', url, t.superToken);
    const first = list.json().data.find((x: any) => x.isDefaultIvr);
    const second = await welcome('Next default', url);
    expect(second.isDefaultIvr).toBe(false);
    expect((await req('DELETE', `${PBXS}/${pbxNoTz.id}/ivrs/${first.id}`, t.superToken)).statusCode).toBe(200);
    const got = await req('GET', `${PBXS}/${pbxNoTz.id}/ivrs/${second.id}`, t.superToken);
    expect(got.json().data.isDefaultIvr).toBe(true);
  });

  it('issue 26, point 6: the gateway is told of each welcome and welcome service created, updated, deleted', async () => {
    const before = (await ivrStanzas(pbx1)).length;
    const w = await welcome('Told');
    const s = await service({ welcomeId: w.id, openHoursOverflow: { type: 'user', destinationId: S1 } });
    await req('POST', `${I1}/${s.id}`, ec1Admin.token, { name: 'Told again' });
    await req('PUT', `${I1}/${w.id}/officehours`, ec1Admin.token, { officehours: { exceptions: [] } });
    await req('DELETE', `${I1}/${s.id}`, ec1Admin.token);
    await req('DELETE', `${I1}/${w.id}`, ec1Admin.token);
    const stanzas = (await ivrStanzas(pbx1)).slice(before);
    expect(stanzas.map((x) => /<ivr action="(\w+)"/.exec(x)?.[1])).toEqual([
      'create',
      'create',
      'update',
      'update',
      'delete',
      'delete',
    ]);
    expect(stanzas[1]).toContain('<openHoursOverflow>user:');
    expect(stanzas[3]).toContain('<officehours>');
  });
});

describe('welcome services and their CloudPBX', () => {
  it('issue 26, point 6: a CloudPBX deleted with forceDelete takes its welcomes, welcome services and overflows with it', async () => {
    const company = await makeCompany(t, { name: 'IVR PBX deleted' });
    const pbx = await createPbx(t, company);
    const u = await makeUser(t, company);
    const sid = await seedSubscriber(t, pbx.id, u.id, '201');
    const url = `${PBXS}/${pbx.id}/ivrs`;
    const w = await welcome('Gone', `${url}/welcomes`);
    const d = await ddi(pbx);
    const s = await service(
      {
        welcomeId: w.id,
        openHoursOverflow: { type: 'user', destinationId: sid },
        closedHoursOverflow: { type: 'closed_hours', destinationId: w.id },
        externalNumberId: d.id,
      },
      `${url}/welcomeservices`,
    );
    await service(
      { welcomeId: w.id, openHoursOverflow: { type: 'auto_attendant', destinationId: s.id } },
      `${url}/welcomeservices`,
    );
    const del = await req('DELETE', `${PBXS}/${pbx.id}?forceDelete=true`, t.superToken);
    expect(del.statusCode, del.body).toBe(200);
    expect(await t.db.select().from(ivrOverflows).where(eq(ivrOverflows.ivrId, s.id))).toEqual([]);
  });
});

describe('welcome services: authorisation (document 2, roles)', () => {
  it('doc 2, roles: reads for superadmin, support, bp_admin, company_admin, site_admin of its site; writes not for site_admin or support; out of scope 404', async () => {
    for (const u of [bpAdmin, ec1Admin, siteAdmin, support]) {
      const res = await req('GET', `${I1}/${W}`, u.token);
      expect(res.statusCode, res.body).toBe(200);
      expect((await req('GET', `${I1}/${W}/officehours`, u.token)).statusCode).toBe(200);
    }
    for (const u of [siteAdmin, support]) {
      expect((await req('POST', `${I1}/welcomes`, u.token, { name: 'no' })).statusCode).toBe(403);
      expect((await req('PUT', `${I1}/${W}/officehours`, u.token, { officehours: {} })).statusCode).toBe(403);
      expect((await req('DELETE', `${I1}/${W}`, u.token)).statusCode).toBe(403);
    }
    expect((await req('POST', `${I1}/welcomes`, bpAdmin.token, { name: 'by the BP' })).statusCode).toBe(201);
    expect((await req('GET', `${I1}/${W}`, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${I1}/welcomes`, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${I1}/${W}`, sub1.token)).statusCode).toBe(404);
    // A welcome of another CloudPBX under this one's path: 404.
    const foreign = (await req('GET', `${I2}/welcomes`, t.superToken)).json().data[0];
    expect((await req('GET', `${I1}/${foreign.id}`, t.superToken)).statusCode).toBe(404);
  });
});
