// Issue 26, point 2 (group forwards) and the contract details pinned there; document 2, Group
// forward, Group forwards; routes.md getGroupForwards, updateGroupForward. Welcome services are
// inserted as pbx_ivrs rows of kind `welcomeservice` (their API is built elsewhere). Decisions in
// docs/decisions.md, "CloudPBX: groups and group forwards". Runs on PGlite and PostgreSQL.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { ivrs } from '../../src/modules/pbx/ivrs.tables.ts';
import { groupForwards } from '../../src/modules/pbx/groups.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let ec: string;
let admin: MadeUser;
let siteAdmin: MadeUser;
let pbx: Record<string, any>;
let otherPbx: Record<string, any>;
let C: string;
let sub1: string;
let sub1Name: string;
let numberSeq = 210;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
const errorOf = (res: { statusCode: number; json(): any }) => ({
  status: res.statusCode,
  code: res.json().errorDetailsCode,
  field: res.json().errorDetails?.field,
});

async function group(name = 'Hunt', type = 'hunting_group'): Promise<Record<string, any>> {
  const res = await req('POST', `${C}/groups`, admin.token, {
    name,
    type,
    ...(type === 'hunting_group' ? { shortNumber: String(numberSeq++) } : {}),
    members: type === 'hunting_group' ? [sub1] : undefined,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** A welcome service row of the CloudPBX (or a welcome, by kind). */
async function ivr(cloudPbxId = pbx.id, kind = 'welcomeservice', name = 'Reception'): Promise<string> {
  const id = newId();
  await t.db.insert(ivrs).values({ id, cloudPbxId, kind, name });
  return id;
}

const forwards = async (groupId: string) => {
  const res = await req('GET', `${C}/groups/${groupId}/forwards`, siteAdmin.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const put = (groupId: string, body: Record<string, unknown>, query = '') =>
  req('PUT', `${C}/groups/${groupId}/forwards${query}`, admin.token, body);
const forwardOf = async (groupId: string, type: string) =>
  (await forwards(groupId)).groupForwards.find((f: any) => f.type === type);

beforeAll(async () => {
  t = await createTestApp();
  ec = await makeCompany(t, { name: 'Forwards EC' });
  const site = await makeSite(t, ec);
  admin = await makeUser(t, ec, ['company_admin']);
  siteAdmin = await makeUser(t, ec, ['site_admin'], { siteId: site });
  pbx = await createPbx(t, ec, { siteId: site, numberingDigits: 2 });
  otherPbx = await createPbx(t, await makeCompany(t, { name: 'Forwards other EC' }), { numberingDigits: 2 });
  C = `${PBXS}/${pbx.id}`;
  sub1 = await seedSubscriber(t, pbx.id, (await makeUser(t, ec)).id, '201');
  sub1Name = (await req('GET', `${C}/subscribers/${sub1}`, admin.token)).json().data.userDisplayName;
});
afterAll(() => t.close());

describe('issue 26, point 2: group forwards', () => {
  it('issue 26, point 2 (pinned): GET forwards always lists immediate and overflow, inactive ones included', async () => {
    const g = await group('Quiet');
    expect(await forwards(g.id)).toEqual({
      name: 'Quiet',
      groupForwards: [
        {
          type: 'immediate',
          number: null,
          destinationType: null,
          activate: false,
          noReplyDelay: null,
          vcpAutoAttendantId: null,
          name: null,
        },
        {
          type: 'overflow',
          number: null,
          destinationType: null,
          activate: false,
          noReplyDelay: 20,
          vcpAutoAttendantId: null,
          name: null,
        },
      ],
    });
    // Deactivated: still listed.
    const res = await put(g.id, { callForwardType: 'immediate', activate: true, destinationType: 'voicemail' });
    expect(res.statusCode, res.body).toBe(200);
    await put(g.id, { callForwardType: 'immediate', activate: false });
    expect((await forwards(g.id)).groupForwards.map((f: any) => [f.type, f.activate, f.destinationType])).toEqual([
      ['immediate', false, 'voicemail'],
      ['overflow', false, null],
    ]);
  });

  it('issue 26, point 2: internalnumber: an allocated short number of this CloudPBX (a subscriber or a group); the answer {status, data: {type, destinationType, vcpAutoAttendantId, activate}}', async () => {
    const g = await group();
    const res = await put(g.id, {
      callForwardType: 'overflow',
      activate: true,
      destinationType: 'internalnumber',
      number: 201,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: expect.any(String),
      data: { type: 'overflow', destinationType: 'internalnumber', vcpAutoAttendantId: null, activate: true },
    });
    expect(await forwardOf(g.id, 'overflow')).toEqual({
      type: 'overflow',
      number: '201',
      destinationType: 'internalnumber',
      activate: true,
      noReplyDelay: 20,
      vcpAutoAttendantId: null,
      name: sub1Name,
    });
    const other = await group('Other hunt');
    const toGroup = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
      number: other.shortNumber,
    });
    expect(toGroup.statusCode, toGroup.body).toBe(200);
    expect(await forwardOf(g.id, 'immediate')).toMatchObject({
      number: other.shortNumber,
      name: 'Other hunt',
      noReplyDelay: null,
    });
  });

  it('issue 26, pinned: an internal number that is not allocated in this CloudPBX is 400 naming number; the group’s own number is 400', async () => {
    const g = await group();
    const free = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
      number: '299',
    });
    expect(errorOf(free)).toEqual({ status: 400, code: 400856, field: 'number' });
    const junk = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
      number: 'abc',
    });
    expect(errorOf(junk)).toEqual({ status: 400, code: 400856, field: 'number' });
    const self = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
      number: g.shortNumber,
    });
    expect(errorOf(self)).toEqual({ status: 400, code: 400858, field: 'number' });
    const missing = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
    });
    expect(errorOf(missing)).toEqual({ status: 400, code: 400855, field: 'number' });
  });

  it('issue 26, point 2: externalnumber: normalised to E.164 from the company’s country; an invalid number is 400 naming number', async () => {
    const g = await group();
    const res = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'externalnumber',
      number: '01 02 03 04 05',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await forwardOf(g.id, 'immediate')).toMatchObject({
      number: '+33102030405',
      destinationType: 'externalnumber',
      name: '+33102030405',
    });
    const bad = await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'externalnumber',
      number: '12',
    });
    expect(errorOf(bad)).toEqual({ status: 400, code: 400857, field: 'number' });
  });

  it('issue 26, point 2: autoattendant: vcpAutoAttendantId a welcome service of this CloudPBX (a welcome or another CloudPBX’s: 400 naming it)', async () => {
    const g = await group();
    const ws = await ivr();
    const res = await put(g.id, {
      callForwardType: 'overflow',
      activate: true,
      destinationType: 'autoattendant',
      vcpAutoAttendantId: ws,
      noReplyDelay: '30',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      type: 'overflow',
      destinationType: 'autoattendant',
      vcpAutoAttendantId: ws,
      activate: true,
    });
    expect(await forwardOf(g.id, 'overflow')).toEqual({
      type: 'overflow',
      number: null,
      destinationType: 'autoattendant',
      activate: true,
      noReplyDelay: 30,
      vcpAutoAttendantId: ws,
      name: 'Reception',
    });
    for (const id of [await ivr(pbx.id, 'welcome'), await ivr(otherPbx.id), 'nope']) {
      const bad = await put(g.id, {
        callForwardType: 'overflow',
        activate: true,
        destinationType: 'autoattendant',
        vcpAutoAttendantId: id,
      });
      expect(errorOf(bad)).toEqual({ status: 400, code: 400856, field: 'vcpAutoAttendantId' });
    }
    const missing = await put(g.id, { callForwardType: 'overflow', activate: true, destinationType: 'autoattendant' });
    expect(errorOf(missing)).toEqual({ status: 400, code: 400855, field: 'vcpAutoAttendantId' });
  });

  it('doc 2, group forwards: callForwardType is required (the body or the query); destinationType is required to activate', async () => {
    const g = await group();
    const none = await put(g.id, { activate: true, destinationType: 'voicemail' });
    expect(errorOf(none)).toEqual({ status: 400, code: 400854, field: 'callForwardType' });
    const byQuery = await put(g.id, { activate: true, destinationType: 'voicemail' }, '?callForwardType=overflow');
    expect(byQuery.statusCode, byQuery.body).toBe(200);
    expect(await forwardOf(g.id, 'overflow')).toMatchObject({
      activate: true,
      destinationType: 'voicemail',
      name: g.name,
    });
    const g2 = await group();
    const noDestination = await put(g2.id, { callForwardType: 'immediate', activate: true });
    expect(errorOf(noDestination)).toEqual({ status: 400, code: 400855, field: 'destinationType' });
    const numberAlone = await put(g2.id, { callForwardType: 'immediate', activate: false, number: '201' });
    expect(errorOf(numberAlone)).toEqual({ status: 400, code: 400855, field: 'destinationType' });
    const noActivate = await put(g2.id, { callForwardType: 'immediate', destinationType: 'voicemail' });
    expect(noActivate.statusCode).toBe(400);
  });

  it('doc 2, group forwards: noReplyDelay is the overflow’s, 20 by default, kept when not given; an immediate forward has none', async () => {
    const g = await group();
    await put(g.id, { callForwardType: 'overflow', activate: true, destinationType: 'voicemail', noReplyDelay: 45 });
    await put(g.id, { callForwardType: 'overflow', activate: false });
    expect(await forwardOf(g.id, 'overflow')).toMatchObject({
      noReplyDelay: 45,
      activate: false,
      destinationType: 'voicemail',
    });
    await put(g.id, { callForwardType: 'immediate', activate: true, destinationType: 'voicemail', noReplyDelay: 45 });
    expect(await forwardOf(g.id, 'immediate')).toMatchObject({ noReplyDelay: null });
    const out = await put(g.id, { callForwardType: 'overflow', activate: true, noReplyDelay: 5 });
    expect(out.statusCode).toBe(400);
  });

  it('issue 26, point 2: forwards of a manager-assistant group too; site_admin reads them but may not change them (403)', async () => {
    const g = await group('Direction', 'manager_assistant');
    expect((await forwards(g.id)).groupForwards).toHaveLength(2);
    const res = await req('PUT', `${C}/groups/${g.id}/forwards`, siteAdmin.token, {
      callForwardType: 'immediate',
      activate: false,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('issue 26, point 2: a forward disappears with its destination', () => {
  it('issue 26, point 2: a subscriber deleted: the forwards to its number go in the same transaction', async () => {
    const u = await makeUser(t, ec);
    const s = await seedSubscriber(t, pbx.id, u.id, '290');
    const g = await group();
    await put(g.id, { callForwardType: 'overflow', activate: true, destinationType: 'internalnumber', number: '290' });
    expect(await forwardOf(g.id, 'overflow')).toMatchObject({ activate: true, number: '290' });
    expect((await req('DELETE', `${C}/subscribers/${s}`, admin.token)).statusCode).toBe(200);
    expect(await forwardOf(g.id, 'overflow')).toMatchObject({
      activate: false,
      destinationType: null,
      number: null,
      name: null,
    });
    expect(await t.db.select().from(groupForwards).where(eq(groupForwards.groupId, g.id))).toEqual([]);
  });

  it('issue 26, point 2: a group deleted: the forwards to it go; a group’s number changed (freed): the forwards to it go', async () => {
    const g = await group();
    const target = await group('Target');
    await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
      number: target.shortNumber,
    });
    expect((await req('DELETE', `${C}/groups/${target.id}`, admin.token)).statusCode).toBe(200);
    expect(await forwardOf(g.id, 'immediate')).toMatchObject({ activate: false, destinationType: null });
    const moving = await group('Moving');
    await put(g.id, {
      callForwardType: 'immediate',
      activate: true,
      destinationType: 'internalnumber',
      number: moving.shortNumber,
    });
    const moved = await req('PUT', `${C}/groups/${moving.id}`, admin.token, { shortNumber: '289' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await forwardOf(g.id, 'immediate')).toMatchObject({ activate: false, destinationType: null });
    // A rename keeps the number: the forward stays, with the new name.
    await put(g.id, { callForwardType: 'immediate', activate: true, destinationType: 'internalnumber', number: '289' });
    await req('PUT', `${C}/groups/${moving.id}`, admin.token, { name: 'Renamed', shortNumber: '289' });
    expect(await forwardOf(g.id, 'immediate')).toMatchObject({ activate: true, name: 'Renamed' });
  });

  it('issue 26, point 2: a welcome service deleted: the forwards to it go', async () => {
    const g = await group();
    const ws = await ivr();
    await put(g.id, {
      callForwardType: 'overflow',
      activate: true,
      destinationType: 'autoattendant',
      vcpAutoAttendantId: ws,
    });
    await t.db.delete(ivrs).where(eq(ivrs.id, ws));
    expect(await forwardOf(g.id, 'overflow')).toMatchObject({
      activate: false,
      destinationType: null,
      vcpAutoAttendantId: null,
    });
  });
});
