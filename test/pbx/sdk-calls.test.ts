// Issue 25, point 11: the calls of the original interface's public SDK for the CloudPBX, its SIP
// devices, subscribers' devices, DDI numbers and external trunks, replayed with the bodies and
// query strings that SDK builds (facts read from its REST layer: which fields each call sends,
// numbers as numbers where it passes numbers, `numberingPrefix` singular, barring ids as single
// strings, `{}` bodies on actions, the trunk filter spelled `vcpInstanceId` once its vendor word
// is replaced). A field the caller leaves undefined is absent from the JSON it sends.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite } from '../support/factories.ts';
import { externalTrunks } from '../../src/modules/pbx/trunks.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { licensedUser, PBXS, V } from './fixtures.ts';

let t: TestApp;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const sdk = (method: Method, url: string, payload?: unknown) =>
  t.inject({
    method,
    url,
    headers: { ...bearer(t.superToken), 'content-type': 'application/json', accept: 'application/json' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("issue 25, point 11: the original SDK's CloudPBX, SIP device, DDI and trunk calls", () => {
  it('issue 25, point 11: createACloudPBX, getCloudPbxById, getCloudPbxs, updateCloudPBX and deleteCloudPBX as the SDK sends them', async () => {
    const bp = await makeCompany(t, { name: 'SDK BP', isBP: true, bpType: 'VAD' });
    const companyId = await makeCompany(t, { name: 'SDK customer', bpId: bp });
    const siteId = await makeSite(t, companyId);
    // createACloudPBX(bpId, companyId, customSipHeader_1, customSipHeader_2, externalTrunkId,
    // language, name, noReplyDelay, numberingDigits, numberingPrefix, outgoingPrefix,
    // routeInternalCallsToPeer, siteId), with the trunk, outgoing prefix and routing left undefined.
    const created = await sdk('POST', PBXS, {
      bpId: bp,
      companyId,
      customSipHeader_1: 'X-Sdk-One',
      customSipHeader_2: 'X-Sdk-Two',
      language: 'fr',
      name: 'SDK CloudPBX',
      noReplyDelay: 25,
      numberingDigits: 3,
      numberingPrefix: 2,
      siteId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id: string = created.json().data.id;
    expect(created.json().data).toMatchObject({
      companyId,
      name: 'SDK CloudPBX',
      cloudpbx: { language: 'fr', numberingPrefixes: ['2'], numberingDigits: 3, customSipHeader_1: 'X-Sdk-One' },
    });

    const got = await sdk('GET', `${PBXS}/${id}`);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data.id).toBe(id);

    const list = await sdk('GET', `${PBXS}?limit=100&offset=0&sortField=companyId&sortOrder=1&companyId=${companyId}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((p: { id: string }) => p.id)).toEqual([id]);

    // updateCloudPBX sends every field; barring ids as single strings, prefixes as numbers.
    const updated = await sdk('PUT', `${PBXS}/${id}`, {
      barringOptions: { permissions: 'nat_local', restrictions: 'surcharged_numbers' },
      callForwardOptions: { externalCallForward: 'not_authorized' },
      customSipHeader_1: 'X-Sdk-Three',
      customSipHeader_2: 'X-Sdk-Four',
      emergencyOptions: { callAuthorizationWithSoftPhone: true, emergencyGroupActivated: false },
      language: 'en',
      name: 'SDK CloudPBX renamed',
      numberingDigits: 3,
      numberingPrefix: 3,
      outgoingPrefix: 0,
      routeInternalCallsToPeer: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({
      name: 'SDK CloudPBX renamed',
      cloudpbx: {
        language: 'en',
        numberingPrefixes: ['3'],
        outgoingPrefix: '0',
        customSipHeader_1: 'X-Sdk-Three',
        callForwardOptions: { externalCallForward: 'not_authorized' },
        emergencyOptions: { callAuthorizationWithSoftPhone: true, emergencyGroupActivated: false },
      },
    });

    const deleted = await sdk('DELETE', `${PBXS}/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await sdk('GET', `${PBXS}/${id}`)).statusCode).toBe(404);
  });

  it('issue 25, point 11: the SIP device, subscriber and DDI calls of the SDK, in the order an administrator makes them', async () => {
    const companyId = await makeCompany(t, { name: 'SDK devices' });
    const made = await sdk('POST', PBXS, { companyId, numberingPrefix: 2, numberingDigits: 3, name: 'SDK devices' });
    expect(made.statusCode, made.body).toBe(201);
    const C = `${PBXS}/${made.json().data.id}`;
    const user = await licensedUser(t, companyId);

    // createCloudPBXSubscriberRainbowUser(systemId, login, password, shortNumber, userId): login
    // and password undefined.
    const sub = await sdk('POST', `${C}/subscribers`, { shortNumber: '2001', userId: user.id });
    expect(sub.statusCode, sub.body).toBe(201);
    const phoneNumberId: string = sub.json().data.id;

    // CreateCloudPBXSIPDevice(systemId, description, deviceTypeId, macAddress): the model id as a string.
    const dev = await sdk('POST', `${C}/devices`, {
      description: 'Desk phone',
      deviceTypeId: '1001',
      macAddress: '00-15-65-AA-BB-CC',
    });
    expect(dev.statusCode, dev.body).toBe(201);
    const deviceId: string = dev.json().data.id;
    expect(dev.json().data).toMatchObject({ deviceType: { id: 1001 }, macAddress: '00:15:65:aa:bb:cc' });

    expect((await sdk('GET', `${C}/devices/${deviceId}`)).json().data.id).toBe(deviceId);
    // updateCloudPBXSIPDevice sends description and macAddress.
    const upd = await sdk('PUT', `${C}/devices/${deviceId}`, {
      description: 'Desk phone, hall',
      macAddress: '00:15:65:aa:bb:cc',
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data.description).toBe('Desk phone, hall');
    // getAllCloudPBXSIPDevice(systemId, limit, offset, sortField, sortOrder, assigned): phoneNumberId undefined.
    const unassigned = await sdk(
      'GET',
      `${C}/devices?limit=100&offset=0&sortField=macAddress&sortOrder=1&assigned=false`,
    );
    expect(unassigned.statusCode, unassigned.body).toBe(200);
    expect(unassigned.json().data.map((d: { id: string }) => d.id)).toEqual([deviceId]);

    // The same call with its optional arguments left out: the SDK writes them `undefined`
    // (`offset + ""`), taken as absent where the parameter cannot take that text.
    const omitted = await sdk(
      'GET',
      `${C}/devices?limit=100&offset=undefined&sortField=undefined&sortOrder=1&assigned=undefined`,
    );
    expect(omitted.statusCode, omitted.body).toBe(200);
    expect(omitted.json()).toMatchObject({ offset: 0, total: 1 });

    // assignCloudPBXSIPDeviceToSubscriber sends {deviceId, macAddress}; macAddress undefined.
    const assigned = await sdk('POST', `${C}/subscribers/${phoneNumberId}/devices`, { deviceId });
    expect([200, 201]).toContain(assigned.statusCode);
    const ofSub = await sdk(
      'GET',
      `${C}/subscribers/${phoneNumberId}/devices?limit=100&offset=0&sortField=macAddress&sortOrder=1`,
    );
    expect(ofSub.statusCode, ofSub.body).toBe(200);
    expect(ofSub.json().data.map((d: { id: string }) => d.id)).toEqual([deviceId]);
    const regs = await sdk('GET', `${C}/subscribers/${phoneNumberId}/registrations`);
    expect(regs.statusCode, regs.body).toBe(200);
    const devRegs = await sdk('GET', `${C}/devices/${deviceId}/registrations`);
    expect(devRegs.statusCode, devRegs.body).toBe(200);

    // grantCloudPBXAccessToDebugSession sends {duration} as a string; revoke is a DELETE.
    const debug = await sdk('POST', `${C}/devices/${deviceId}/debug`, { duration: '3600' });
    expect(debug.statusCode, debug.body).toBe(200);
    expect((await sdk('DELETE', `${C}/devices/${deviceId}/debug`)).statusCode).toBe(200);
    // reboot and factory reset post {}.
    expect((await sdk('POST', `${C}/devices/${deviceId}/reboot`, {})).statusCode).toBe(200);

    // DDI numbers: create {number}, associate and set as default with {}, dissociate, delete.
    const ddi = await sdk('POST', `${C}/phone-numbers/ddi`, { number: '+33 1 99 00 00 01' });
    expect(ddi.statusCode, ddi.body).toBe(201);
    const ddiId: string = ddi.json().data.id;
    const assoc = await sdk('POST', `${C}/phone-numbers/ddi/${ddiId}/users/${user.id}`, {});
    expect(assoc.statusCode, assoc.body).toBe(200);
    expect((await sdk('POST', `${C}/phone-numbers/ddi/${ddiId}/default`, {})).statusCode).toBe(200);
    // listCloudPBXDDINumbersAssociated's own query but for its defect: it appends isAssigned under
    // the name `limit`, which comes twice and is refused (issue 9, point 4; docs/decisions.md).
    const ddis = await sdk(
      'GET',
      `${C}/phone-numbers/ddi?limit=100&offset=0&sortField=number&sortOrder=1&isAssignedToUser=true&isAssigned=true`,
    );
    expect(ddis.statusCode, ddis.body).toBe(200);
    expect(ddis.json().data.map((d: { id: string }) => d.id)).toEqual([ddiId]);
    expect((await sdk('DELETE', `${C}/phone-numbers/ddi/${ddiId}/users/${user.id}`)).statusCode).toBe(200);
    // getCloudPBXUnassignedInternalPhonenumbers: no query.
    const free = await sdk('GET', `${C}/phone-numbers/free`);
    expect(free.statusCode, free.body).toBe(200);
    expect(free.json().data).not.toContain('2001');

    // Unassign (removeCloudPBXAssociationSubscriberAndSIPdevice), reset, delete, then the subscriber.
    expect((await sdk('DELETE', `${C}/subscribers/${phoneNumberId}/devices/${deviceId}`)).statusCode).toBe(200);
    expect((await sdk('POST', `${C}/devices/${deviceId}/reset`, {})).statusCode).toBe(200);
    expect((await sdk('DELETE', `${C}/devices/${deviceId}`)).statusCode).toBe(200);
    expect((await sdk('DELETE', `${C}/phone-numbers/ddi/${ddiId}`)).statusCode).toBe(200);
    expect((await sdk('DELETE', `${C}/subscribers/${phoneNumberId}`)).statusCode).toBe(200);
  });

  it('issue 25, point 11: retrieveExternalSIPTrunkById and retrievelistExternalSIPTrunks on the external-trunks spelling', async () => {
    const trunkId = newId();
    await t.db.insert(externalTrunks).values({
      id: trunkId,
      name: 'SDK trunk',
      bpIds: [],
      vcpInstanceId: 'vcp-eu-1',
      trunkType: 'bp_trunk',
      status: 'active',
    });
    const one = await sdk('GET', `${V}/external-trunks/${trunkId}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().data).toMatchObject({ id: trunkId, name: 'SDK trunk', vcpInstanceId: 'vcp-eu-1' });
    const listed = await sdk('GET', `${V}/external-trunks?vcpInstanceId=vcp-eu-1&status=active&trunkType=bp_trunk`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((x: { id: string }) => x.id)).toContain(trunkId);
  });
});
