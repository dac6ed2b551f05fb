// Issue 26, point 1 (groups of a CloudPBX) and the contract details pinned there; routes.md,
// CloudPBX (createGroup ... deleteGroup); document 2, Numbering plan, Programmable key. Decisions
// in docs/decisions.md, "CloudPBX: groups and group forwards". Runs on PGlite and PostgreSQL.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq, isNotNull } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { programmableKeys } from '../../src/modules/pbx/devices.tables.ts';
import { groupMembers } from '../../src/modules/pbx/groups.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { createPbx, licensedUser, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let ec: string;
let admin: MadeUser;
let siteAdmin: MadeUser;
let otherAdmin: MadeUser;
let pbx: Record<string, any>;
let C: string;
const subs: string[] = [];
const names: string[] = [];
let otherSub: string;
let macSeq = 0x300;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
const errorOf = (res: { statusCode: number; json(): any }) => ({
  status: res.statusCode,
  code: res.json().errorDetailsCode,
  field: res.json().errorDetails?.field,
});

async function createGroup(payload: Record<string, unknown>, url = C, token = admin.token) {
  const res = await req('POST', `${url}/groups`, token, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** A desk phone of the model (1001: 4 keys), assigned to the subscriber when given. */
async function device(subscriberId?: string, deviceTypeId = 1001): Promise<string> {
  const macAddress = (0xc0ffee100000 + macSeq++).toString(16);
  const res = await req('POST', `${C}/devices`, admin.token, { description: 'Desk', deviceTypeId, macAddress });
  if (res.statusCode !== 201) throw new Error(`createDevice: ${res.statusCode} ${res.body}`);
  const id: string = res.json().data.id;
  if (subscriberId) await assign(subscriberId, id);
  return id;
}

async function assign(subscriberId: string, deviceId: string) {
  const res = await req('POST', `${C}/subscribers/${subscriberId}/devices`, admin.token, { deviceId });
  expect(res.statusCode, res.body).toBe(201);
}

const serviceKeys = (deviceId: string) =>
  t.db
    .select()
    .from(programmableKeys)
    .where(and(eq(programmableKeys.deviceId, deviceId), isNotNull(programmableKeys.serviceGroupId)))
    .orderBy(programmableKeys.keyNum);

const member = (i: number) => ({
  phoneNumberId: subs[i],
  userId: expect.any(String),
  userDisplayName: names[i],
  shortNumber: String(201 + i),
});

beforeAll(async () => {
  t = await createTestApp();
  ec = await makeCompany(t, { name: 'Groups EC' });
  const other = await makeCompany(t, { name: 'Groups other EC' });
  const site = await makeSite(t, ec);
  admin = await makeUser(t, ec, ['company_admin']);
  siteAdmin = await makeUser(t, ec, ['site_admin'], { siteId: site });
  otherAdmin = await makeUser(t, other, ['company_admin']);
  pbx = await createPbx(t, ec, { siteId: site, numberingDigits: 2 });
  C = `${PBXS}/${pbx.id}`;
  for (let i = 0; i < 6; i++) {
    const u = await makeUser(t, ec);
    subs.push(await seedSubscriber(t, pbx.id, u.id, String(201 + i)));
    const got = await req('GET', `${C}/subscribers/${subs[i]}`, admin.token);
    names.push(got.json().data.userDisplayName);
  }
  const otherPbx = await createPbx(t, other);
  otherSub = await seedSubscriber(t, otherPbx.id, (await makeUser(t, other)).id, '201');
});
afterAll(() => t.close());

describe('issue 26, point 1: hunting groups', () => {
  it('issue 26, point 1: a hunting group answers id, systemId, name, type, shortNumber, policy (parallel by default) and its members in order', async () => {
    const g = await createGroup({
      name: 'Sales',
      type: 'hunting_group',
      shortNumber: '250',
      members: [subs[1], subs[0]],
    });
    expect(g).toEqual({
      id: expect.any(String),
      systemId: pbx.id,
      name: 'Sales',
      type: 'hunting_group',
      shortNumber: '250',
      policy: 'parallel',
      members: [member(1), member(0)],
    });
    const got = await req('GET', `${C}/groups/${g.id}`, siteAdmin.token);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toEqual(g);
    // Numbers as numbers, members as objects, a policy: clients of the original interface.
    const g2 = await createGroup({
      name: 'Support',
      type: 'hunting_group',
      shortNumber: 251,
      policy: 'circular',
      members: [{ phoneNumberId: subs[2] }, subs[2]],
    });
    expect(g2).toMatchObject({ shortNumber: '251', policy: 'circular', members: [member(2)] });
  });

  it('issue 26, point 1: the group’s number is in the numbering plan’s allocatedNumbers.groups {vcpGroupId, groupName, type, shortNumber} and no longer free', async () => {
    const g = await createGroup({ name: 'Plan group', type: 'hunting_group', shortNumber: '260', members: [] });
    const plan = await req('GET', `${C}/numbering-plan`, siteAdmin.token);
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json().data.allocatedNumbers.groups).toContainEqual({
      vcpGroupId: g.id,
      groupName: 'Plan group',
      type: 'hunting_group',
      shortNumber: '260',
    });
    const free = await req('GET', `${C}/phone-numbers/free?startingWith=2&limit=1000`, admin.token);
    const numbers: number[] = free.json().data;
    expect(numbers).not.toContain(260);
    expect(numbers).not.toContain(201);
    expect(numbers).toContain(259);
    expect(numbers).toContain(261);
    // Stops at the limit, in order, around the groups' and subscribers' numbers.
    const few = await req('GET', `${C}/phone-numbers/free?startingWith=25&limit=3`, admin.token);
    expect(few.json().data).toEqual([252, 253, 254]);
  });

  it('issue 26, point 1: the free internal numbers skip subscribers’ and groups’ numbers interleaved, in order, up to the limit', async () => {
    const P = await createPbx(t, await makeCompany(t, { name: 'Groups free EC' }), { numberingDigits: 2 });
    const U = `${PBXS}/${P.id}`;
    for (const n of ['201', '204', '209']) await seedSubscriber(t, P.id, (await makeUser(t, P.companyId)).id, n);
    for (const n of ['200', '202', '203', '206', '210'])
      await createGroup({ name: `G${n}`, type: 'hunting_group', shortNumber: n }, U, t.superToken);
    const free = await req('GET', `${U}/phone-numbers/free?limit=6`, t.superToken);
    expect(free.json().data).toEqual([205, 207, 208, 211, 212, 213]);
    const tail = await req('GET', `${U}/phone-numbers/free?startingWith=29&limit=3`, t.superToken);
    expect(tail.json().data).toEqual([290, 291, 292]);
  });

  it('issue 26, pinned: a short number already used by a subscriber or a group is 409, for a group and for a subscriber alike', async () => {
    const onSubscriber = await req('POST', `${C}/groups`, admin.token, {
      name: 'Clash',
      type: 'hunting_group',
      shortNumber: '201',
    });
    expect(errorOf(onSubscriber)).toEqual({ status: 409, code: 409822, field: 'shortNumber' });
    await createGroup({ name: 'Holder', type: 'hunting_group', shortNumber: '270' });
    const onGroup = await req('POST', `${C}/groups`, admin.token, {
      name: 'Clash',
      type: 'hunting_group',
      shortNumber: '270',
    });
    expect(errorOf(onGroup)).toEqual({ status: 409, code: 409822, field: 'shortNumber' });
    const ma = await req('POST', `${C}/groups`, admin.token, {
      name: 'Clash',
      type: 'manager_assistant',
      shortNumber: '270',
    });
    expect(errorOf(ma)).toEqual({ status: 409, code: 409822, field: 'shortNumber' });
    const u = await licensedUser(t, ec);
    const sub = await req('POST', `${C}/subscribers`, admin.token, { userId: u.id, shortNumber: '270' });
    expect(errorOf(sub)).toEqual({ status: 409, code: 409822, field: 'shortNumber' });
  });

  it('issue 26, pinned: two group creations at once on one number: one is made, the other is 409', async () => {
    const body = { name: 'Race', type: 'hunting_group', shortNumber: '280' };
    const [a, b] = await Promise.all([
      req('POST', `${C}/groups`, admin.token, body),
      req('POST', `${C}/groups`, admin.token, body),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
  });

  it('issue 26, pinned: a hunting group needs a short number of the plan (400 naming shortNumber); a manager-assistant group needs none', async () => {
    const none = await req('POST', `${C}/groups`, admin.token, { name: 'No number', type: 'hunting_group' });
    expect(errorOf(none)).toEqual({ status: 400, code: 400850, field: 'shortNumber' });
    const out = await req('POST', `${C}/groups`, admin.token, {
      name: 'Out',
      type: 'hunting_group',
      shortNumber: '300',
    });
    expect(errorOf(out)).toEqual({ status: 400, code: 400820, field: 'shortNumber' });
    const ma = await createGroup({
      name: 'Boss',
      type: 'manager_assistant',
      managers: [subs[0]],
      assistants: [subs[1]],
    });
    expect(ma.shortNumber).toBeNull();
  });

  it('issue 26, pinned: a member, manager or assistant that is not a subscriber of this CloudPBX is 400 naming the field', async () => {
    for (const [type, fieldName] of [
      ['hunting_group', 'members'],
      ['manager_assistant', 'managers'],
      ['manager_assistant', 'assistants'],
    ]) {
      const res = await req('POST', `${C}/groups`, admin.token, {
        name: 'Strangers',
        type,
        shortNumber: '290',
        [fieldName]: [subs[0], otherSub],
      });
      expect(errorOf(res), fieldName).toEqual({ status: 400, code: 400851, field: fieldName });
    }
    const wrongRole = await req('POST', `${C}/groups`, admin.token, {
      name: 'Roles',
      type: 'hunting_group',
      shortNumber: '290',
      managers: [subs[0]],
    });
    expect(errorOf(wrongRole)).toEqual({ status: 400, code: 400853, field: 'managers' });
  });

  it('issue 26, point 1: update: the fields given (a list replaces the list), a new number frees the old one; the type cannot change', async () => {
    const g = await createGroup({ name: 'Before', type: 'hunting_group', shortNumber: '230', members: [subs[0]] });
    const res = await req('PUT', `${C}/groups/${g.id}`, admin.token, {
      name: 'After',
      policy: 'sequential',
      shortNumber: '231',
      members: [subs[3], subs[0]],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'After',
      policy: 'sequential',
      shortNumber: '231',
      members: [member(3), member(0)],
    });
    // The old number is free again.
    await createGroup({ name: 'Takes 230', type: 'hunting_group', shortNumber: '230' });
    // An empty body changes nothing.
    const same = await req('PUT', `${C}/groups/${g.id}`, admin.token, {});
    expect(same.json().data).toEqual(res.json().data);
    const type = await req('PUT', `${C}/groups/${g.id}`, admin.token, { type: 'manager_assistant' });
    expect(errorOf(type)).toEqual({ status: 400, code: 400852, field: 'type' });
    const taken = await req('PUT', `${C}/groups/${g.id}`, admin.token, { shortNumber: '202' });
    expect(errorOf(taken)).toEqual({ status: 409, code: 409822, field: 'shortNumber' });
    const cleared = await req('PUT', `${C}/groups/${g.id}`, admin.token, { shortNumber: null });
    expect(errorOf(cleared)).toEqual({ status: 400, code: 400850, field: 'shortNumber' });
    const stranger = await req('PUT', `${C}/groups/${g.id}`, admin.token, { members: [otherSub] });
    expect(errorOf(stranger)).toEqual({ status: 400, code: 400851, field: 'members' });
  });

  it('issue 26, point 1: list {data, limit, offset, total}, by name by default; a group of another CloudPBX is 404', async () => {
    const other = await createPbx(t, await makeCompany(t, { name: 'Groups third EC' }), { numberingDigits: 2 });
    const O = `${PBXS}/${other.id}`;
    const sub = await seedSubscriber(t, other.id, (await makeUser(t, other.companyId)).id, '201');
    const z = await createGroup(
      { name: 'Zulu', type: 'hunting_group', shortNumber: '202', members: [sub] },
      O,
      t.superToken,
    );
    await createGroup({ name: 'Alpha', type: 'hunting_group', shortNumber: '203' }, O, t.superToken);
    await createGroup({ name: 'Mike', type: 'manager_assistant' }, O, t.superToken);
    const res = await req('GET', `${O}/groups`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ limit: 100, offset: 0, total: 3 });
    expect(body.data.map((g: any) => g.name)).toEqual(['Alpha', 'Mike', 'Zulu']);
    expect(body.data[2].members).toEqual([expect.objectContaining({ phoneNumberId: sub, shortNumber: '201' })]);
    const paged = await req('GET', `${O}/groups?limit=1&offset=1&sortField=shortNumber`, t.superToken);
    expect(paged.json()).toMatchObject({ limit: 1, offset: 1, total: 3 });
    expect(paged.json().data.map((g: any) => g.name)).toEqual(['Alpha']);
    const elsewhere = await req('GET', `${C}/groups/${z.id}`, admin.token);
    expect(elsewhere.statusCode).toBe(404);
  });

  it('doc 2, roles: site_admin of the site reads groups but may not change them (403); another company’s admin gets 404', async () => {
    const g = await createGroup({ name: 'Roles', type: 'hunting_group', shortNumber: '240' });
    expect((await req('GET', `${C}/groups`, siteAdmin.token)).statusCode).toBe(200);
    expect(
      (await req('POST', `${C}/groups`, siteAdmin.token, { name: 'x', type: 'manager_assistant' })).statusCode,
    ).toBe(403);
    expect((await req('PUT', `${C}/groups/${g.id}`, siteAdmin.token, { name: 'x' })).statusCode).toBe(403);
    expect((await req('DELETE', `${C}/groups/${g.id}`, siteAdmin.token)).statusCode).toBe(403);
    expect((await req('GET', `${C}/groups/${g.id}`, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('GET', `${C}/groups`, otherAdmin.token)).statusCode).toBe(404);
  });

  it('issue 26, point 1: delete: the group goes, its number is free, its DDI is freed; the gateway is told of create, update and delete', async () => {
    const g = await createGroup({ name: 'Doomed', type: 'hunting_group', shortNumber: '241', members: [subs[0]] });
    await req('PUT', `${C}/groups/${g.id}`, admin.token, { name: 'Doomed 2' });
    const ddiId = newId();
    await t.db.insert(ddis).values({
      id: ddiId,
      cloudPbxId: pbx.id,
      number: '+33199000001',
      numberE164: '+33199000001',
      country: 'FRA',
      vcpGroupId: g.id,
    });
    const res = await req('DELETE', `${C}/groups/${g.id}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
    expect((await req('GET', `${C}/groups/${g.id}`, admin.token)).statusCode).toBe(404);
    const [ddi] = await t.db.select().from(ddis).where(eq(ddis.id, ddiId));
    expect(ddi.vcpGroupId).toBeNull();
    expect(await t.db.select().from(groupMembers).where(eq(groupMembers.groupId, g.id))).toEqual([]);
    await createGroup({ name: 'Reuses 241', type: 'hunting_group', shortNumber: '241' });
    const stanzas = (await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg)))
      .sort((a, b) => a.seq - b.seq)
      .map((r) => r.stanza)
      .filter((s) => s.includes(`<id>${g.id}</id>`));
    expect(stanzas.map((s) => /<group action="(\w+)"/.exec(s)?.[1])).toEqual(['create', 'update', 'delete']);
  });

  it('issue 26, pinned: a subscriber deleted leaves its groups', async () => {
    const u = await makeUser(t, ec);
    const s = await seedSubscriber(t, pbx.id, u.id, '299');
    const g = await createGroup({ name: 'Leavers', type: 'hunting_group', shortNumber: '298', members: [s, subs[0]] });
    expect((await req('DELETE', `${C}/subscribers/${s}`, admin.token)).statusCode).toBe(200);
    const got = await req('GET', `${C}/groups/${g.id}`, admin.token);
    expect(got.json().data.members).toEqual([member(0)]);
  });
});

describe('issue 26, point 1: manager-assistant groups', () => {
  it('issue 26, point 1: a manager-assistant group answers its managers and assistants', async () => {
    const g = await createGroup({
      name: 'Direction',
      type: 'manager_assistant',
      managers: [subs[0], subs[1]],
      assistants: [subs[2]],
    });
    expect(g).toEqual({
      id: expect.any(String),
      systemId: pbx.id,
      name: 'Direction',
      type: 'manager_assistant',
      shortNumber: null,
      policy: 'parallel',
      members: [],
      managers: [member(0), member(1)],
      assistants: [member(2)],
    });
    await req('DELETE', `${C}/groups/${g.id}`, admin.token);
  });

  it('issue 26, point 1: the devices of each assistant get one service monitor key per manager, on the first free keys; removed with the manager who leaves, and with the group', async () => {
    const d = await device(subs[4]);
    // An admin key on 1: the service keys take the next free ones.
    const admin1 = await req('POST', `${C}/devices/${d}/keys`, admin.token, {
      keyNum: 1,
      keyType: 'speeddial',
      number: '+33102030405',
    });
    expect(admin1.statusCode, admin1.body).toBe(201);
    const g = await createGroup({
      name: 'Keys',
      type: 'manager_assistant',
      managers: [subs[0], subs[1]],
      assistants: [subs[4]],
    });
    let keys = await serviceKeys(d);
    expect(keys.map((k) => [k.keyNum, k.keyType, k.keyOwner, k.phoneNumberId, k.number, k.displayName])).toEqual([
      [2, 'monitor', 'service', subs[0], '201', names[0]],
      [3, 'monitor', 'service', subs[1], '202', names[1]],
    ]);
    // The list of keys shows them, owned by the service, not deletable.
    const list = await req('GET', `${C}/devices/${d}/keys`, admin.token);
    expect(list.json().data.keys).toContainEqual(
      expect.objectContaining({ keyNum: 2, keyOwner: 'service', keyType: 'monitor' }),
    );
    expect((await req('DELETE', `${C}/devices/${d}/keys/2`, admin.token)).statusCode).toBe(409);
    // A manager leaves: his key goes; another comes: his key takes the first free one.
    await req('PUT', `${C}/groups/${g.id}`, admin.token, { managers: [subs[1], subs[3]] });
    keys = await serviceKeys(d);
    expect(keys.map((k) => [k.keyNum, k.phoneNumberId])).toEqual([
      [2, subs[3]],
      [3, subs[1]],
    ]);
    // The assistant leaves: all his keys go.
    await req('PUT', `${C}/groups/${g.id}`, admin.token, { assistants: [subs[5]] });
    expect(await serviceKeys(d)).toEqual([]);
    await req('PUT', `${C}/groups/${g.id}`, admin.token, { assistants: [subs[4]] });
    expect(await serviceKeys(d)).toHaveLength(2);
    // The group deleted: its keys go with it.
    await req('DELETE', `${C}/groups/${g.id}`, admin.token);
    expect(await serviceKeys(d)).toEqual([]);
  });

  it('issue 26, point 1: a device assigned later to an assistant gets the keys; unassigned, it loses them; a device without free keys gets none', async () => {
    const g = await createGroup({
      name: 'Later',
      type: 'manager_assistant',
      managers: [subs[0]],
      assistants: [subs[5]],
    });
    const d = await device();
    expect(await serviceKeys(d)).toEqual([]);
    await assign(subs[5], d);
    expect((await serviceKeys(d)).map((k) => [k.keyNum, k.phoneNumberId])).toEqual([[1, subs[0]]]);
    const un = await req('DELETE', `${C}/subscribers/${subs[5]}/devices/${d}`, admin.token);
    expect(un.statusCode, un.body).toBe(200);
    expect(await serviceKeys(d)).toEqual([]);
    const generic = await req('POST', `${C}/devices`, admin.token, { description: 'Soft', deviceTypeId: 999999 });
    await assign(subs[5], generic.json().data.id);
    expect(await serviceKeys(generic.json().data.id)).toEqual([]);
    await req('DELETE', `${C}/groups/${g.id}`, admin.token);
  });

  it('issue 26, point 1: a manager deleted as a subscriber takes his service keys with him', async () => {
    const u = await makeUser(t, ec);
    const manager = await seedSubscriber(t, pbx.id, u.id, '297');
    const d = await device(subs[3]);
    const g = await createGroup({
      name: 'Gone manager',
      type: 'manager_assistant',
      managers: [manager, subs[0]],
      assistants: [subs[3]],
    });
    expect(await serviceKeys(d)).toHaveLength(2);
    expect((await req('DELETE', `${C}/subscribers/${manager}`, admin.token)).statusCode).toBe(200);
    expect((await serviceKeys(d)).map((k) => k.phoneNumberId)).toEqual([subs[0]]);
    const got = await req('GET', `${C}/groups/${g.id}`, admin.token);
    expect(got.json().data.managers).toEqual([member(0)]);
    await req('DELETE', `${C}/groups/${g.id}`, admin.token);
  });
});
