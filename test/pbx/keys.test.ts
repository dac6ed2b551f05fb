// Document 2, Programmable key, the operations table (list, create, delete programmable keys);
// routes.md, CloudPBX; issue 25, point 6. Decisions in docs/decisions.md, "CloudPBX: SIP devices
// and programmable keys". Runs on PGlite and PostgreSQL.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { programmableKeys } from '../../src/modules/pbx/devices.tables.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let admin: MadeUser;
let siteAdmin: MadeUser;
let user1: MadeUser;
let C: string;
let sub1: string;
let otherSub: string;
let macSeq = 0x200;

type Method = 'GET' | 'POST' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
const errorOf = (res: { statusCode: number; json(): any }) => ({
  status: res.statusCode,
  code: res.json().errorDetailsCode,
  field: res.json().errorDetails?.field,
});

/** A device of the model (4 keys for 1001, none for the generic 999999). */
async function device(deviceTypeId = 1001): Promise<string> {
  const macAddress = deviceTypeId === 999999 ? undefined : (0xc0ffee000000 + macSeq++).toString(16);
  const res = await req('POST', `${C}/devices`, admin.token, { description: 'Keys', deviceTypeId, macAddress });
  if (res.statusCode !== 201) throw new Error(`createDevice: ${res.statusCode} ${res.body}`);
  return res.json().data.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const ec = await makeCompany(t, { name: 'Keys EC' });
  const other = await makeCompany(t, { name: 'Keys other EC' });
  const site = await makeSite(t, ec);
  admin = await makeUser(t, ec, ['company_admin']);
  siteAdmin = await makeUser(t, ec, ['site_admin'], { siteId: site });
  user1 = await makeUser(t, ec);
  const pbx = await createPbx(t, ec, { siteId: site });
  const otherPbx = await createPbx(t, other);
  C = `${PBXS}/${pbx.id}`;
  sub1 = await seedSubscriber(t, pbx.id, user1.id, '201');
  otherSub = await seedSubscriber(t, otherPbx.id, (await makeUser(t, other)).id, '201');
});
afterAll(() => t.close());

describe('doc 2, programmable keys', () => {
  it('doc 2, list programmable keys: the key list wrapper, the model’s count and those available', async () => {
    const d = await device();
    const res = await req('GET', `${C}/devices/${d}/keys`, siteAdmin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      deviceId: d,
      deviceType: { id: 1001, vendor: 'Yealink', model: 'SIP-T33G' },
      programmableKeys: 4,
      availableKeys: 4,
      keys: [],
    });
  });

  it('doc 2, create a programmable key: a speeddial to an external number (keyNum as a string); keyOwner admin; one key fewer available', async () => {
    const d = await device();
    const res = await req('POST', `${C}/devices/${d}/keys`, admin.token, {
      keyNum: '2',
      keyType: 'speeddial',
      displayName: 'Front desk',
      number: '+33123456789',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual({
      keyType: 'speeddial',
      keyNum: 2,
      keyOwner: 'admin',
      displayName: 'Front desk',
      number: '+33123456789',
    });
    const list = (await req('GET', `${C}/devices/${d}/keys`, admin.token)).json().data;
    expect(list.availableKeys).toBe(3);
    expect(list.keys).toEqual([
      {
        keyType: 'speeddial',
        keyNum: 2,
        keyOwner: 'admin',
        userId: null,
        phoneNumberId: null,
        displayName: 'Front desk',
        number: '+33123456789',
      },
    ]);
    // The same keyNum again: 409832, nothing changed.
    const again = await req('POST', `${C}/devices/${d}/keys`, admin.token, {
      keyNum: 2,
      keyType: 'speeddial',
      number: '100',
    });
    expect(errorOf(again)).toEqual({ status: 409, code: 409832, field: 'keyNum' });
  });

  it('doc 2, create a programmable key: keyNum from 1 to the device maximum (400833); the generic SIP model has none', async () => {
    const d = await device();
    for (const keyNum of [0, 5]) {
      const res = await req('POST', `${C}/devices/${d}/keys`, admin.token, {
        keyNum,
        keyType: 'speeddial',
        number: '1',
      });
      expect(errorOf(res)).toEqual({ status: 400, code: 400833, field: 'keyNum' });
    }
    expect(
      (await req('POST', `${C}/devices/${d}/keys`, admin.token, { keyNum: 4, keyType: 'speeddial', number: '1' }))
        .statusCode,
    ).toBe(201);
    const generic = await device(999999);
    const res = await req('POST', `${C}/devices/${generic}/keys`, admin.token, {
      keyNum: 1,
      keyType: 'speeddial',
      number: '1',
    });
    expect(errorOf(res)).toEqual({ status: 400, code: 400833, field: 'keyNum' });
    const list = (await req('GET', `${C}/devices/${generic}/keys`, admin.token)).json().data;
    expect({ n: list.programmableKeys, a: list.availableKeys }).toEqual({ n: 0, a: 0 });
  });

  it('doc 2, create a programmable key: monitor for users only (a subscriber’s phoneNumberId, 400834 without), a subscriber of this CloudPBX (400835)', async () => {
    const d = await device();
    expect(
      errorOf(await req('POST', `${C}/devices/${d}/keys`, admin.token, { keyNum: 1, keyType: 'monitor' })),
    ).toEqual({
      status: 400,
      code: 400834,
      field: 'phoneNumberId',
    });
    expect(
      errorOf(await req('POST', `${C}/devices/${d}/keys`, admin.token, { keyNum: 1, keyType: 'speeddial' })),
    ).toMatchObject({ status: 400, code: 400834 });
    expect(
      errorOf(
        await req('POST', `${C}/devices/${d}/keys`, admin.token, {
          keyNum: 1,
          keyType: 'monitor',
          phoneNumberId: otherSub,
        }),
      ),
    ).toEqual({ status: 400, code: 400835, field: 'phoneNumberId' });
    const res = await req('POST', `${C}/devices/${d}/keys`, admin.token, {
      keyNum: 1,
      keyType: 'monitor',
      phoneNumberId: sub1,
      displayName: 'Boss',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [key] = (await req('GET', `${C}/devices/${d}/keys`, admin.token)).json().data.keys;
    expect(key).toMatchObject({ keyType: 'monitor', keyNum: 1, phoneNumberId: sub1, userId: user1.id });
  });

  it('doc 2, delete a programmable key: {status, data: {keyType, keyNum}}; only admin keys (a service key 409833); an unknown keyNum 404', async () => {
    const d = await device();
    await req('POST', `${C}/devices/${d}/keys`, admin.token, { keyNum: 3, keyType: 'speeddial', number: '200' });
    await t.db.insert(programmableKeys).values({ deviceId: d, keyNum: 4, keyType: 'speeddial', keyOwner: 'service' });
    const res = await req('DELETE', `${C}/devices/${d}/keys/3`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ keyType: 'speeddial', keyNum: 3 });
    expect(errorOf(await req('DELETE', `${C}/devices/${d}/keys/4`, admin.token))).toMatchObject({
      status: 409,
      code: 409833,
    });
    expect((await req('DELETE', `${C}/devices/${d}/keys/3`, admin.token)).statusCode).toBe(404);
    const keys = (await req('GET', `${C}/devices/${d}/keys`, admin.token)).json().data.keys;
    expect(keys.map((k: { keyNum: number; keyOwner: string }) => [k.keyNum, k.keyOwner])).toEqual([[4, 'service']]);
  });

  it('doc 2, roles: site_admin reads the keys and creates none (403)', async () => {
    const d = await device();
    const res = await req('POST', `${C}/devices/${d}/keys`, siteAdmin.token, {
      keyNum: 1,
      keyType: 'speeddial',
      number: '1',
    });
    expect(res.statusCode).toBe(403);
  });
});
