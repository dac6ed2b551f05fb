// Issue 25, point 2: the numbering plan of a CloudPBX and its free internal numbers (routes.md,
// getNumberingPlan, listFreeInternalNumbers; document 2, Numbering plan, list free internal
// numbers). Decisions in docs/decisions.md, "CloudPBX: subscribers and the numbering plan".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { newId } from '../../src/shared/ids.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let ec: string;
let site: string;
let siteAdmin: MadeUser;
let otherAdmin: MadeUser;

const get = async (url: string, token = t.superToken) => {
  const res = await t.inject({ method: 'GET', url, headers: bearer(token) });
  return res;
};
const free = async (pbxId: string, query = '') => {
  const res = await get(`${PBXS}/${pbxId}/phone-numbers/free${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as number[];
};

/** A CloudPBX of a new company of its own, with the numbering given. */
async function pbxWith(body: Record<string, unknown>) {
  const companyId = await makeCompany(t);
  return createPbx(t, companyId, body);
}
const user = async (companyId: string) => (await makeUser(t, companyId)).id;

beforeAll(async () => {
  t = await createTestApp();
  ec = await makeCompany(t, { name: 'Numbering EC' });
  site = await makeSite(t, ec);
  siteAdmin = await makeUser(t, ec, ['site_admin'], { siteId: site });
  otherAdmin = await makeUser(t, await makeCompany(t), ['company_admin']);
});
afterAll(() => t.close());

describe('doc 2, numbering plan', () => {
  it('doc 2, numbering plan: a range per prefix (p followed by d digits); subscribers and assigned devices allocated; no groups', async () => {
    const pbx = await createPbx(t, ec, { siteId: site, numberingPrefixes: ['2', '30'], numberingDigits: 2 });
    const u1 = await user(ec);
    const u2 = await user(ec);
    const s1 = await seedSubscriber(t, pbx.id, u1, '3005');
    await seedSubscriber(t, pbx.id, u2, '210');
    const deviceId = newId();
    await t.db.insert(devices).values({
      id: deviceId,
      cloudPbxId: pbx.id,
      description: 'Desk',
      macAddress: '00:11:22:33:44:55',
      deviceTypeId: 1,
      subscriberId: s1,
      sipUsername: `num-${deviceId}`,
      adminPassword: 'x',
    });
    // An unassigned device holds no number.
    await t.db.insert(devices).values({
      id: newId(),
      cloudPbxId: pbx.id,
      description: 'Spare',
      deviceTypeId: 999999,
      sipUsername: `num-${newId()}`,
      adminPassword: 'x',
    });
    const res = await get(`${PBXS}/${pbx.id}/numbering-plan`, siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    const plan = res.json().data;
    expect(plan.ranges).toEqual([
      { first: 200, last: 299 },
      { first: 3000, last: 3099 },
    ]);
    expect(
      plan.allocatedNumbers.subscribers.map((s: { shortNumber: string; userId: string }) => [s.shortNumber, s.userId]),
    ).toEqual([
      ['210', u2],
      ['3005', u1],
    ]);
    expect(plan.allocatedNumbers.subscribers[0].userDisplayName).toEqual(expect.any(String));
    expect(plan.allocatedNumbers.groups).toEqual([]);
    expect(plan.allocatedNumbers.devices).toEqual([
      expect.objectContaining({ shortNumber: '3005', userId: u1, macAddress: '00:11:22:33:44:55' }),
    ]);
    expect((await get(`${PBXS}/${pbx.id}/numbering-plan`, otherAdmin.token)).statusCode).toBe(404);
  });

  it('doc 2, numbering plan: a CloudPBX without numbering has no range', async () => {
    const pbx = await pbxWith({ numberingPrefixes: [] });
    const res = await get(`${PBXS}/${pbx.id}/numbering-plan`);
    expect(res.json().data).toEqual({ ranges: [], allocatedNumbers: { subscribers: [], groups: [], devices: [] } });
    expect(await free(pbx.id)).toEqual([]);
  });
});

describe('issue 28, point 9: the numbering plan paged on request', () => {
  it('without limit and offset the plan is whole and has no totals; with them each list is that page, with its total', async () => {
    const pbx = await pbxWith({ numberingPrefixes: ['5'], numberingDigits: 2 });
    const numbers = ['501', '507', '512', '530', '544', '590'];
    for (const n of numbers) {
      const subscriberId = await seedSubscriber(t, pbx.id, await user(pbx.companyId), n);
      const id = newId();
      await t.db.insert(devices).values({
        id,
        cloudPbxId: pbx.id,
        description: `Desk ${n}`,
        deviceTypeId: 999999,
        subscriberId,
        sipUsername: `page-${id}`,
        adminPassword: 'x',
      });
    }
    const whole = (await get(`${PBXS}/${pbx.id}/numbering-plan`)).json().data;
    expect(whole.allocatedNumbers.devices).toHaveLength(6);
    expect(Object.keys(whole).sort()).toEqual(['allocatedNumbers', 'ranges']);
    expect(whole.allocatedNumbers.subscribers.map((s: { shortNumber: string }) => s.shortNumber)).toEqual(numbers);

    // Pages put back together are the whole list, in number order (names included: a page reads
    // the names of its own rows), each saying the total.
    const seen: unknown[] = [];
    const seenDevices: unknown[] = [];
    for (let offset = 0; offset < numbers.length; offset += 4) {
      const res = await get(`${PBXS}/${pbx.id}/numbering-plan?limit=4&offset=${offset}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json().data;
      expect(page.allocatedTotals).toEqual({ subscribers: 6, groups: 0, devices: 6 });
      expect([page.limit, page.offset]).toEqual([4, offset]);
      expect(page.ranges).toEqual(whole.ranges);
      seen.push(...page.allocatedNumbers.subscribers);
      seenDevices.push(...page.allocatedNumbers.devices);
    }
    expect(seen).toEqual(whole.allocatedNumbers.subscribers);
    expect(seenDevices).toEqual(whole.allocatedNumbers.devices);
    expect(seen.every((s) => typeof (s as { userDisplayName: unknown }).userDisplayName === 'string')).toBe(true);
    // The bounds of the other lists: a limit of text falls back to the default (100).
    const fallback = (await get(`${PBXS}/${pbx.id}/numbering-plan?limit=abc`)).json().data;
    expect(fallback.limit).toBe(100);
    expect(fallback.allocatedNumbers.subscribers).toHaveLength(6);
  });
});

describe('doc 2, list free internal numbers', () => {
  it('doc 2, free internal numbers: ascending integers, never an allocated number; limit default 100', async () => {
    const pbx = await pbxWith({ numberingPrefixes: ['2'], numberingDigits: 3 });
    for (const n of ['2000', '2001', '2003', '2099']) await seedSubscriber(t, pbx.id, await user(pbx.companyId), n);
    const numbers = await free(pbx.id);
    expect(numbers.length).toBe(100);
    expect(numbers.slice(0, 3)).toEqual([2002, 2004, 2005]);
    expect(numbers).not.toContain(2099);
    expect(numbers.at(-1)).toBe(2103);
    expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
  });

  it('doc 2, free internal numbers: startingWith filters on the digits; limit capped at 1000; a non-numeric limit is the default', async () => {
    const pbx = await pbxWith({ numberingPrefixes: ['2'], numberingDigits: 4 });
    await seedSubscriber(t, pbx.id, await user(pbx.companyId), '21001');
    expect(await free(pbx.id, '?startingWith=2100&limit=3')).toEqual([21000, 21002, 21003]);
    expect(await free(pbx.id, '?startingWith=21001')).toEqual([]);
    expect(await free(pbx.id, '?startingWith=2')).toHaveLength(100);
    expect(await free(pbx.id, '?startingWith=3')).toEqual([]);
    expect(await free(pbx.id, '?startingWith=210011')).toEqual([]);
    expect(await free(pbx.id, '?limit=5000')).toHaveLength(1000);
    expect(await free(pbx.id, '?limit=abc')).toHaveLength(100);
    expect(await free(pbx.id, '?limit=0')).toEqual([]);
    const bad = await get(`${PBXS}/${pbx.id}/phone-numbers/free?startingWith=2x`);
    expect(bad.statusCode).toBe(400);
  });

  it('doc 2, free internal numbers: the ranges walked in order; a full range gives way to the next; overlapping prefixes give each number once', async () => {
    const pbx = await pbxWith({ numberingPrefixes: ['5', '4', '40'], numberingDigits: 1 });
    // Ranges 50..59 and 40..49 (and 400..409); 40..49 full but 48.
    for (let n = 40; n <= 49; n++) if (n !== 48) await seedSubscriber(t, pbx.id, await user(pbx.companyId), String(n));
    expect(await free(pbx.id, '?limit=3')).toEqual([48, 50, 51]);
    const all = await free(pbx.id, '?limit=1000');
    expect(all).toEqual([48, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409]);
    expect(await free(pbx.id, '?startingWith=40&limit=2')).toEqual([400, 401]);
  });

  it('doc 2, free internal numbers: site_admin of the site reads them; another company admin gets 404', async () => {
    const pbx = await createPbx(t, await makeCompany(t), {});
    expect((await get(`${PBXS}/${pbx.id}/phone-numbers/free`, otherAdmin.token)).statusCode).toBe(404);
    const mine = await pbxWithSite();
    expect((await get(`${PBXS}/${mine}/phone-numbers/free?limit=1`, siteAdmin.token)).json().data).toEqual([200]);
  });
});

/** The CloudPBX of the test's company (site), made once. */
let ownPbx: string | undefined;
async function pbxWithSite(): Promise<string> {
  if (!ownPbx) {
    const res = await get(`${PBXS}?companyId=${ec}`);
    ownPbx = res.json().data[0].id;
  }
  return ownPbx!;
}
