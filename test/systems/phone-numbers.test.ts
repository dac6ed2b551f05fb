// Document 3, Phone numbers of a system; document 1, Gateway notifications (phone number update).
// Decisions in docs/decisions.md, "Telephone systems".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser } from '../support/factories.ts';
import { newId } from '../../src/shared/ids.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { receivedIqs, setCentrex, SYSTEMS, systemsWorld, TIMEOUT_MS, type SystemsWorld } from './support.ts';

let w: SystemsWorld;
let system: Record<string, any>;
beforeAll(async () => {
  w = await systemsWorld();
  system = await createSystem(w.ec1Admin.token, { siteId: w.site1, name: 'Numbers PBX' });
});
afterAll(() => w.t.close());

const req = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  w.t.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
async function createSystem(token: string, body: object) {
  const res = await req('POST', SYSTEMS, token, body);
  if (res.statusCode !== 201) throw new Error(`createSystem: ${res.statusCode} ${res.body}`);
  return res.json().data as Record<string, any>;
}
async function report(systemId: string, numbers: object[]) {
  const res = await req('POST', `${SYSTEMS}/${systemId}/phone-numbers`, w.t.superToken, { phoneNumbers: numbers });
  if (res.statusCode !== 201) throw new Error(`createSystemPhoneNumbers: ${res.statusCode} ${res.body}`);
  return res.json().data as Record<string, any>[];
}
const stored = async (id: string) =>
  (await w.t.db.select().from(systemPhoneNumbers).where(eq(systemPhoneNumbers.id, id)))[0];
const one = (systemId: string, id: string, spelling = 'phone-numbers') => `${SYSTEMS}/${systemId}/${spelling}/${id}`;

describe('doc 3, phone numbers of a system: create (+), list, get', () => {
  it('createSystemPhoneNumbers (+): the numbers a system reports; internalNumber defaults to the short number; a known shortNumber is updated', async () => {
    const s = await createSystem(w.ec1Admin.token, { siteId: w.site1, name: 'Reporting' });
    const [n] = await report(s.id, [{ shortNumber: '5001', firstName: 'Ada', number: '01 42 68 53 00' }]);
    expect(n).toMatchObject({
      systemId: s.id,
      pbxId: s.pbxId,
      shortNumber: '5001',
      internalNumber: '5001',
      numberE164: '+33142685300',
      type: 'work',
      deviceType: 'landline',
      isFromSystem: true,
      userId: null,
    });
    const [again] = await report(s.id, [{ shortNumber: '5001', firstName: 'Grace' }]);
    expect(again.id).toBe(n.id);
    expect(again.firstName).toBe('Grace');
  });

  it('doc 3, list phone numbers: prefix filters (shortNumber, internalNumber), pbxUserId, name prefix on first or last name, deviceName, isMonitored, isAssignedToUser, companyPrefix; both path spellings', async () => {
    const s = await createSystem(w.ec1Admin.token, { siteId: w.site1, name: 'Listing' });
    const [a, b, c] = await report(s.id, [
      {
        shortNumber: '6001',
        internalNumber: '86001',
        pbxUserId: 'u1',
        firstName: 'Alan',
        lastName: 'Turing',
        deviceName: 'Desk',
        companyPrefix: '111',
      },
      {
        shortNumber: '6002',
        internalNumber: '96002',
        pbxUserId: 'u2',
        firstName: 'Barbara',
        lastName: 'Liskov',
        companyPrefix: '222',
      },
      { shortNumber: '7003', pbxUserId: 'u3', firstName: 'Tony', lastName: 'Hoare' },
    ]);
    const user = await makeUser(w.t, w.ec1, []);
    await req('PUT', one(s.id, c.id), w.ec1Admin.token, { userId: user.id, isMonitored: true });
    const ids = async (q: string, spelling = 'phone-numbers') => {
      const res = await req('GET', `${SYSTEMS}/${s.id}/${spelling}?${q}`, w.ec1Admin.token);
      expect(res.statusCode).toBe(200);
      return res.json().data.map((n: { id: string }) => n.id);
    };
    expect(await ids('shortNumber=60')).toEqual([a.id, b.id]);
    expect(await ids('internalNumber=8')).toEqual([a.id]);
    expect(await ids('pbxUserId=u2')).toEqual([b.id]);
    expect(await ids('pbxUserId=u')).toEqual([]);
    expect(await ids('name=tu')).toEqual([a.id]);
    expect(await ids('name=to')).toEqual([c.id]);
    expect(await ids('deviceName=Desk')).toEqual([a.id]);
    expect(await ids('isMonitored=true')).toEqual([c.id]);
    expect(await ids('isAssignedToUser=true')).toEqual([c.id]);
    expect(await ids('isAssignedToUser=false')).toEqual([a.id, b.id]);
    expect(await ids('companyPrefix=222', 'phoneNumbers')).toEqual([b.id]);
    expect(await ids('sortField=shortNumber&sortOrder=-1&limit=2', 'phoneNumbers')).toEqual([c.id, b.id]);
  });

  it("doc 3, get phone number: both path spellings; a number of another system is 404 (parent binding); another company's admin gets 404", async () => {
    const [n] = await report(system.id, [{ shortNumber: '1234' }]);
    for (const spelling of ['phone-numbers', 'phoneNumbers']) {
      const res = await req('GET', one(system.id, n.id, spelling), w.siteAdmin.token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.id).toBe(n.id);
    }
    const other = await createSystem(w.ec1Admin.token, { siteId: w.site1, name: 'Other' });
    expect((await req('GET', one(other.id, n.id), w.t.superToken)).statusCode).toBe(404);
    expect((await req('GET', one(system.id, n.id), w.ec2Admin.token)).statusCode).toBe(404);
  });

  it("doc 3, get phone number of a multi-tenant system: a company admin or site admin sees it only when his company's tenant call number matches companyPrefix, else 404; the bp_admin sees all", async () => {
    const tenant = await makeCompany(w.t, { bpId: w.bp });
    await setCentrex(w.t, tenant, '333');
    const site = await makeSite(w.t, tenant);
    const admin = await makeUser(w.t, tenant, ['company_admin']);
    const siteAdmin = await makeUser(w.t, tenant, ['site_admin'], { siteId: site });
    const s = await createSystem(w.bpAdmin.token, { siteId: site, name: 'Centrex', isCentrex: true });
    const [mine, theirs] = await report(s.id, [
      { shortNumber: '100', companyPrefix: '333' },
      { shortNumber: '200', companyPrefix: '444' },
    ]);
    for (const caller of [admin, siteAdmin]) {
      expect((await req('GET', one(s.id, mine.id), caller.token)).statusCode).toBe(200);
      expect((await req('GET', one(s.id, theirs.id), caller.token)).statusCode).toBe(404);
      expect(
        (await req('GET', `${SYSTEMS}/${s.id}/phone-numbers`, caller.token))
          .json()
          .data.map((n: { id: string }) => n.id),
      ).toEqual([mine.id]);
    }
    expect((await req('GET', one(s.id, theirs.id), w.bpAdmin.token)).statusCode).toBe(200);
  });
});

describe('doc 3, update a phone number', () => {
  it('doc 3, update phone number: pbxId, systemId, shortNumber and pbxUserId cannot change (400551); their current values are accepted', async () => {
    const [n] = await report(system.id, [{ shortNumber: '2001', pbxUserId: 'p1' }]);
    for (const body of [{ shortNumber: '2002' }, { pbxId: 'other' }, { systemId: newId() }, { pbxUserId: 'p2' }]) {
      const res = await req('PUT', one(system.id, n.id), w.ec1Admin.token, body);
      expect({ body, status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({
        body,
        status: 400,
        code: 400551,
      });
    }
    expect(
      (
        await req('PUT', one(system.id, n.id), w.ec1Admin.token, {
          shortNumber: '2001',
          pbxUserId: 'p1',
          deviceName: 'Phone',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('doc 3, update phone number: internalNumber is read-only on multi-tenant systems (409553), writable otherwise', async () => {
    const tenant = await makeCompany(w.t, { bpId: w.bp });
    await setCentrex(w.t, tenant, '555');
    const s = await createSystem(w.bpAdmin.token, {
      siteId: await makeSite(w.t, tenant),
      name: 'Centrex internal',
      isCentrex: true,
    });
    const [n] = await report(s.id, [{ shortNumber: '300', companyPrefix: '555' }]);
    const res = await req('PUT', one(s.id, n.id), w.bpAdmin.token, { internalNumber: '9300' });
    expect({ status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({ status: 409, code: 409553 });
    const [m] = await report(system.id, [{ shortNumber: '301' }]);
    expect(
      (await req('PUT', one(system.id, m.id), w.ec1Admin.token, { internalNumber: '9301' })).json().data.internalNumber,
    ).toBe('9301');
  });

  it("doc 3, update phone number: E.164 is computed from the number and the company's country (libphonenumber-js); an uncomputable one gives 400 (400552) and nothing changes", async () => {
    const [n] = await report(system.id, [{ shortNumber: '2101' }]);
    const ok = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { number: '01 42 68 53 00' });
    expect(ok.json().data).toMatchObject({ number: '01 42 68 53 00', numberE164: '+33142685300' });
    const bad = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { number: '12', firstName: 'Changed' });
    expect({ status: bad.statusCode, code: bad.json().errorDetailsCode }).toEqual({ status: 400, code: 400552 });
    expect(await stored(n.id)).toMatchObject({ numberE164: '+33142685300', firstName: null });
  });

  it('doc 3, update phone number: setting userId fills jid_im, jid_tel, jid_password and svcNumber from the user; null unlinks; an unknown user is 400005', async () => {
    const [n] = await report(system.id, [{ shortNumber: '2201' }]);
    const user = await makeUser(w.t, w.ec1, []);
    const [u] = await w.t.db.select().from(users).where(eq(users.id, user.id));
    const res = await req('PUT', one(system.id, n.id, 'phoneNumbers'), w.ec1Admin.token, { userId: user.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      userId: user.id,
      jid_im: u.jidIm,
      jid_tel: `tel_${user.id}@localhost`,
      svcNumber: '2201',
    });
    expect(res.json().data.jid_password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const unlinked = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { userId: null });
    expect(unlinked.json().data).toMatchObject({
      userId: null,
      jid_im: null,
      jid_tel: null,
      jid_password: null,
      svcNumber: null,
    });
    const unknown = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { userId: newId() });
    expect({ status: unknown.statusCode, code: unknown.json().errorDetailsCode }).toEqual({
      status: 400,
      code: 400005,
    });
  });

  it("doc 3, update phone number roles: superadmin, the bp_admin of the End Customer, the company admin and the site admin of its system; another company's admin 404", async () => {
    const [n] = await report(system.id, [{ shortNumber: '2301' }]);
    for (const token of [w.t.superToken, w.bpAdmin.token, w.ec1Admin.token, w.siteAdmin.token])
      expect((await req('PUT', one(system.id, n.id), token, { deviceName: 'Desk' })).statusCode).toBe(200);
    expect((await req('PUT', one(system.id, n.id), w.ec2Admin.token, { deviceName: 'Desk' })).statusCode).toBe(404);
  });
});

describe('document 1, gateway notifications: a phone number update waits for the gateway', () => {
  it('document 1: the iq to jid_pbxpcg holds config (urn:xmpp:pbxagent:config:1) with user action=update and the text children of the number as it will be; after the acknowledgement it is stored and answered', async () => {
    const [n] = await report(system.id, [{ shortNumber: '2401', voiceMailNumber: '8888' }]);
    const user = await makeUser(w.t, w.ec1, []);
    const res = await req('PUT', one(system.id, n.id), w.ec1Admin.token, {
      isMonitored: true,
      number: '01 42 68 53 01',
      userId: user.id,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    const iq = w.sent.filter((x) => x.to === `${system.jid_pbxpcg}/gateway`).at(-1)!;
    expect(iq.stanza).toMatch(/^<iq type="set"><config xmlns="urn:xmpp:pbxagent:config:1"><user action="update">/);
    expect(iq.stanza).toContain(
      `<shortNumber>2401</shortNumber><internalNumber>2401</internalNumber><voiceMailNumber>8888</voiceMailNumber><numberE164>+33142685301</numberE164><isMonitored>true</isMonitored><userId>${user.id}</userId><jid_im>${data.jid_im}</jid_im><jid_tel>${data.jid_tel}</jid_tel><jid_password>${data.jid_password}</jid_password></user></config></iq>`,
    );
    expect(await stored(n.id)).toMatchObject({ isMonitored: true, numberE164: '+33142685301', userId: user.id });
    // The simulator's log shows the same iq with the secret masked.
    const logged = receivedIqs(w)
      .filter((x) => x.to === `${system.jid_pbxpcg}/gateway`)
      .at(-1)!;
    expect(logged.stanza).toMatch(
      /^<iq type="set" id="[^"]+"><config xmlns="urn:xmpp:pbxagent:config:1"><user action="update">/,
    );
    expect(logged.stanza).toContain('<jid_password>***</jid_password>');
    expect(JSON.stringify(w.gatewayLog.lines).includes(data.jid_password)).toBe(false);
  });

  it('issue 12, point 4: a refusing gateway gives 502 and a silent one 504 (after XMPP_REQUEST_TIMEOUT_MS), in the error shape; nothing changes', async () => {
    const [n] = await report(system.id, [{ shortNumber: '2501' }]);
    const before = await stored(n.id);
    try {
      w.bg.gatewaySimulator.mode = 'refuse';
      const refused = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { firstName: 'Refused' });
      expect(refused.json()).toEqual({
        errorCode: 502,
        errorMsg: expect.stringContaining('Bad Gateway'),
        errorDetails: { gateway: system.jid_pbxpcg, condition: 'not-acceptable' },
        errorDetailsCode: 502550,
      });
      w.bg.gatewaySimulator.mode = 'silent';
      const started = Date.now();
      const silent = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { firstName: 'Silent' });
      expect(silent.json()).toMatchObject({ errorCode: 504, errorDetailsCode: 504550 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 10);
    } finally {
      w.bg.gatewaySimulator.mode = 'ack';
    }
    expect(await stored(n.id)).toEqual(before);
  });

  it('issue 12, point 4: a gateway that answers after the timeout changes nothing either', async () => {
    const [n] = await report(system.id, [{ shortNumber: '2601' }]);
    const before = await stored(n.id);
    try {
      w.bg.gatewaySimulator.delayMs = TIMEOUT_MS * 2;
      const late = await req('PUT', one(system.id, n.id), w.ec1Admin.token, { firstName: 'Late' });
      expect(late.statusCode).toBe(504);
      // Past the late acknowledgement.
      await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
      expect(w.gatewayLog.lines.some((l) => l.msg === 'xmpp (gateway simulator): late answer, ignored')).toBe(true);
    } finally {
      w.bg.gatewaySimulator.delayMs = 0;
    }
    expect(await stored(n.id)).toEqual(before);
  });
});
