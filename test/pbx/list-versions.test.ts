// Issue 25, point 12: the DDI and device lists of a CloudPBX are remembered with the 'pbx' list
// version (src/db/list-count.ts, migration 0028) and stay exact: the page asked again after any
// write that changes what it shows (the PBX's rows, a user's names) is the new one.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
const get = async (url: string) => {
  const res = await t.inject({ method: 'GET', url, headers: bearer(t.superToken) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const post = async (url: string, payload: Record<string, unknown>) => {
  const res = await t.inject({ method: 'POST', url, headers: bearer(t.superToken), payload });
  expect(res.statusCode < 300, res.body).toBe(true);
  return res.json().data;
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('issue 25, point 12: remembered CloudPBX lists stay exact', () => {
  it('issue 25, point 12: listDdis asked again after an assignment and a user rename answers the new page', async () => {
    const c = await makeCompany(t, { name: 'Remembered DDIs' });
    const pbx = await createPbx(t, c);
    const u = await makeUser(t, c);
    await seedSubscriber(t, pbx.id, u.id, '201');
    const L = `${PBXS}/${pbx.id}/phone-numbers/ddi`;
    const ddi = await post(L, { number: '+33199000101' });
    const before = await get(L);
    expect(before).toMatchObject({ total: 1 });
    expect(before.data[0].userId).toBeNull();
    // The same page again: remembered, the same answer.
    expect(await get(L)).toEqual(before);
    await post(`${L}/${ddi.id}/users/${u.id}`, {});
    expect((await get(L)).data[0].userId).toBe(u.id);
    await t.db.update(users).set({ firstName: 'Renamed', lastName: 'Person' }).where(eq(users.id, u.id));
    expect((await get(L)).data[0]).toMatchObject({ firstName: 'Renamed', userDisplayName: 'Renamed Person' });
    await post(L, { number: '+33199000102' });
    expect(await get(L)).toMatchObject({ total: 2 });
  });

  it("issue 26, point 6: a DDI that is a welcome service's external number shows its name (welcomeName), renamed at once", async () => {
    const c = await makeCompany(t, { name: 'Remembered welcome' });
    const pbx = await createPbx(t, c);
    const L = `${PBXS}/${pbx.id}/phone-numbers/ddi`;
    const ddi = await post(L, { number: '+33199000201' });
    expect((await get(L)).data[0].welcomeName).toBeNull();
    const welcome = await post(`${PBXS}/${pbx.id}/ivrs/welcomes`, { name: 'Welcome' });
    const service = await post(`${PBXS}/${pbx.id}/ivrs/welcomeservices`, {
      name: 'Reception',
      welcomeId: welcome.id,
      openHoursOverflow: { type: 'office_hours', destinationId: welcome.id },
      closedHoursOverflow: { type: 'closed_hours', destinationId: welcome.id },
      externalNumberId: ddi.id,
    });
    expect((await get(L)).data[0]).toMatchObject({ vcpIVRId: service.id, welcomeName: 'Reception' });
    await post(`${PBXS}/${pbx.id}/ivrs/${service.id}`, { name: 'Front desk' });
    expect((await get(L)).data[0].welcomeName).toBe('Front desk');
  });

  it('issue 25, point 12: listDevices and listSubscriberDevices asked again after an assignment and a rename answer the new page', async () => {
    const c = await makeCompany(t, { name: 'Remembered devices' });
    const pbx = await createPbx(t, c);
    const u = await makeUser(t, c);
    const sub = await seedSubscriber(t, pbx.id, u.id, '202');
    const D = `${PBXS}/${pbx.id}/devices`;
    const S = `${PBXS}/${pbx.id}/subscribers/${sub}/devices`;
    const dev = await post(D, { description: 'Remembered phone', deviceTypeId: 999999 });
    expect((await get(`${D}?assigned=false`)).total).toBe(1);
    expect((await get(S)).total).toBe(0);
    await post(S, { deviceId: dev.id });
    expect((await get(`${D}?assigned=false`)).total).toBe(0);
    const mine = await get(S);
    expect(mine).toMatchObject({ total: 1 });
    expect(mine.data[0]).toMatchObject({ id: dev.id, phoneNumberId: sub, shortNumber: '202' });
    await t.db.update(users).set({ firstName: 'Other', lastName: 'Name' }).where(eq(users.id, u.id));
    expect((await get(D)).data[0].userDisplayName).toBe('Other Name');
  });

  it('issue 25, point 12: the numbering plan and the free numbers asked again after a subscriber and a group are made answer the new plan', async () => {
    const c = await makeCompany(t, { name: 'Remembered plan' });
    const pbx = await createPbx(t, c);
    const P = `${PBXS}/${pbx.id}/numbering-plan`;
    const F = `${PBXS}/${pbx.id}/phone-numbers/free?limit=3`;
    expect((await get(P)).data.allocatedNumbers.subscribers).toEqual([]);
    expect((await get(F)).data).toEqual([2000, 2001, 2002]);
    const u = await makeUser(t, c);
    await seedSubscriber(t, pbx.id, u.id, '2000');
    expect((await get(P)).data.allocatedNumbers.subscribers.map((s: { shortNumber: string }) => s.shortNumber)).toEqual(
      ['2000'],
    );
    expect((await get(F)).data).toEqual([2001, 2002, 2003]);
    await post(`${PBXS}/${pbx.id}/groups`, { name: 'Desk', type: 'hunting_group', shortNumber: '2001' });
    expect((await get(P)).data.allocatedNumbers.groups).toMatchObject([{ groupName: 'Desk', shortNumber: '2001' }]);
    expect((await get(F)).data).toEqual([2002, 2003, 2004]);
  });
});
