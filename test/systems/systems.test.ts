// Document 3, Systems and sites; document 1, Gateway notifications; routes.md, Systems.
// Decisions in docs/decisions.md, "Telephone systems".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser } from '../support/factories.ts';
import { captureLog } from '../support/log-capture.ts';
import { newId } from '../../src/shared/ids.ts';
import { prosodyctlAccounts } from '../../src/xmpp/accounts.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { systems } from '../../src/modules/systems/systems.tables.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { A, receivedIqs, setCentrex, SYSTEMS, systemsWorld, TIMEOUT_MS, type SystemsWorld } from './support.ts';

let w: SystemsWorld;
const appLog = captureLog();
beforeAll(async () => {
  w = await systemsWorld(appLog);
});
afterAll(() => w.t.close());

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  w.t.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
const create = async (token: string, body: object) => {
  const res = await req('POST', SYSTEMS, token, body);
  if (res.statusCode !== 201) throw new Error(`createSystem: ${res.statusCode} ${res.body}`);
  return res.json().data as Record<string, any>;
};
const row = async (id: string) => (await w.t.db.select().from(systems).where(eq(systems.id, id)))[0];

describe('doc 3, systems: create, get, list', () => {
  it('createSystem (+): a company admin creates a system at his site; it gets its XMPP accounts jid_pbxagent and jid_pbxpcg with generated secrets', async () => {
    const s = await create(w.ec1Admin.token, {
      siteId: w.site1,
      name: 'Main PBX',
      type: 'oxe',
      version: '12.4',
      unknown: 'dropped',
    });
    expect(s).toMatchObject({
      name: 'Main PBX',
      type: 'oxe',
      version: '12.4',
      status: 'created',
      siteId: [w.site1],
      companyId: w.ec1,
      bpId: w.bp,
      isCentrex: false,
      isShared: false,
    });
    expect(s.jid_pbxagent).toBe(`pbxagent_${s.id}@localhost`);
    expect(s.jid_pbxpcg).toBe(`pbxpcg_${s.id}@localhost`);
    expect(s.jid_pbxagent_password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.jid_pbxpcg_password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.jid_pbxagent_password).not.toBe(s.jid_pbxpcg_password);
    expect(s.unknown).toBeUndefined();
  });

  it('createSystem: a site_admin may not create a system (403); a site out of reach is 404', async () => {
    expect((await req('POST', SYSTEMS, w.siteAdmin.token, { siteId: w.site1, name: 'x' })).statusCode).toBe(403);
    expect((await req('POST', SYSTEMS, w.ec1Admin.token, { siteId: w.site2, name: 'x' })).statusCode).toBe(404);
  });

  it("doc 3, get system: connectionHistory only with connectionHistory=true; site_admin sees his site's system; another company's admin gets 404", async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'History PBX' });
    const plain = await req('GET', `${SYSTEMS}/${s.id}`, w.siteAdmin.token);
    expect(plain.statusCode).toBe(200);
    expect(plain.json().data.connectionHistory).toBeUndefined();
    expect(
      (await req('GET', `${SYSTEMS}/${s.id}?connectionHistory=true`, w.bpAdmin.token)).json().data.connectionHistory,
    ).toEqual([]);
    expect((await req('GET', `${SYSTEMS}/${s.id}`, w.ec2Admin.token)).statusCode).toBe(404);
  });

  it('doc 3, list systems: every filter (name, type, status, siteId, companyId, bpId, isShared, isCentrex, isSharedOrCentrex, isOxoManaged, creation dates)', async () => {
    const c = await makeCompany(w.t, { bpId: w.bp });
    const site = await makeSite(w.t, c);
    const admin = await makeUser(w.t, c, ['company_admin']);
    const a = await create(admin.token, {
      siteId: site,
      name: 'Alpha',
      type: 'oxo',
      isShared: true,
      isOxoManaged: true,
    });
    const b = await create(admin.token, { siteId: site, name: 'Beta', type: 'third_party' });
    await req('PUT', `${SYSTEMS}/${b.id}`, admin.token, { status: 'activated' });
    const ids = async (q: string) =>
      (await req('GET', `${SYSTEMS}?companyId=${c}&${q}`, admin.token))
        .json()
        .data.map((s: { id: string }) => s.id)
        .sort();
    expect(await ids('name=alp')).toEqual([a.id]);
    expect(await ids('type=third_party')).toEqual([b.id]);
    expect(await ids('status=activated')).toEqual([b.id]);
    expect(await ids(`siteId=${site}`)).toEqual([a.id, b.id].sort());
    expect(await ids(`bpId=${w.bp}`)).toEqual([a.id, b.id].sort());
    expect(await ids('isShared=true')).toEqual([a.id]);
    expect(await ids('isCentrex=false')).toEqual([a.id, b.id].sort());
    expect(await ids('isSharedOrCentrex=true')).toEqual([a.id]);
    expect(await ids('isSharedOrCentrex=false')).toEqual([b.id]);
    expect(await ids('isOxoManaged=true')).toEqual([a.id]);
    expect(await ids('fromCreationDate=2026-11-21T00:00:00Z&toCreationDate=2026-11-22T00:00:00Z')).toEqual(
      [a.id, b.id].sort(),
    );
    expect(await ids('fromCreationDate=2026-11-22T00:00:00Z')).toEqual([]);
    // Another company's admin sees none of them.
    expect((await req('GET', `${SYSTEMS}?companyId=${c}`, w.ec2Admin.token)).json().total).toBe(0);
    // The systems of a site.
    const ofSite = await req('GET', `${A}/sites/${site}/systems?sortField=name&sortOrder=-1`, admin.token);
    expect(ofSite.json().data.map((s: { name: string }) => s.name)).toEqual(['Beta', 'Alpha']);
  });
});

describe('doc 3, update system; reset of the PBX agent password', () => {
  it('doc 3, update a system: the gateway is notified (document 1: message with config and pbx action=update, to its jid_pbxpcg)', async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'To update' });
    const res = await req('PUT', `${SYSTEMS}/${s.id}`, w.ec1Admin.token, {
      name: 'Updated',
      serverPingTimeout: '90',
      pbxNumberingTranslator: [{ regexpMatch: '^0', regexpReplace: '+33' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Updated',
      serverPingTimeout: 90,
      pbxNumberingTranslator: [{ regexpMatch: '^0', regexpReplace: '+33' }],
    });
    const events = await w.t.db.select().from(outbox).where(eq(outbox.recipient, s.jid_pbxpcg));
    expect(events.length).toBe(1);
    expect(events[0].stanza).toContain('<config xmlns="urn:xmpp:pbxagent:config:1"><pbx action="update">');
    expect(events[0].stanza).toContain(`<systemId>${s.id}</systemId>`);
    expect(events[0].stanza).toMatch(/^<message type="management">/);
  });

  it('doc 3, System: isCentrex, set at creation, is read-only (400550); its current value is accepted', async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'Not centrex' });
    const res = await req('PUT', `${SYSTEMS}/${s.id}`, w.ec1Admin.token, { isCentrex: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400550);
    expect((await req('PUT', `${SYSTEMS}/${s.id}`, w.ec1Admin.token, { isCentrex: false })).statusCode).toBe(200);
  });

  it("doc 3, reset of the PBX agent password: a new jid_pbxagent_password, the gateway's unchanged; a site_admin may not (403)", async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'Reset' });
    expect((await req('POST', `${SYSTEMS}/${s.id}/reset-password`, w.siteAdmin.token)).statusCode).toBe(403);
    const res = await req('POST', `${SYSTEMS}/${s.id}/reset-password`, w.ec1Admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.jid_pbxagent_password).not.toBe(s.jid_pbxagent_password);
    expect(res.json().data.jid_pbxagent_password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.json().data.jid_pbxpcg_password).toBe(s.jid_pbxpcg_password);
  });

  it('issue 12, point 1: when the XMPP server refuses to make the accounts (XMPP_ACCOUNTS=prosodyctl), createSystem is 502 (502551) and no system is stored', async () => {
    const kept = w.bg.xmppAccounts;
    try {
      w.bg.xmppAccounts = prosodyctlAccounts('/nonexistent/prosody.cfg.lua');
      const res = await req('POST', SYSTEMS, w.ec1Admin.token, { siteId: w.site1, name: 'No accounts' });
      expect({ status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({ status: 502, code: 502551 });
    } finally {
      w.bg.xmppAccounts = kept;
    }
    expect((await w.t.db.select().from(systems).where(eq(systems.name, 'No accounts'))).length).toBe(0);
  });

  it('issue 12, point 1: the generated secrets never appear in a log (service log and XMPP log)', async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'Secret' });
    const reset = (await req('POST', `${SYSTEMS}/${s.id}/reset-password`, w.ec1Admin.token)).json().data;
    await req('GET', `${SYSTEMS}/${s.id}`, w.ec1Admin.token);
    await req('PUT', `${SYSTEMS}/${s.id}`, w.ec1Admin.token, { name: 'Secret 2' });
    await req('DELETE', `${SYSTEMS}/${s.id}`, w.ec1Admin.token);
    const text = JSON.stringify([...appLog.lines, ...w.gatewayLog.lines]);
    expect(appLog.lines.length).toBeGreaterThan(0);
    for (const secret of [s.jid_pbxagent_password, s.jid_pbxpcg_password, reset.jid_pbxagent_password])
      expect(text.includes(secret)).toBe(false);
  });
});

describe('doc 3, delete a system, after the gateway acknowledges', () => {
  const withNumber = async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'To delete' });
    const user = await makeUser(w.t, w.ec1, []);
    const [n] = (
      await req('POST', `${SYSTEMS}/${s.id}/phone-numbers`, w.ec1Admin.token, {
        phoneNumbers: [{ shortNumber: '4001' }],
      })
    ).json().data;
    expect(
      (await req('PUT', `${SYSTEMS}/${s.id}/phone-numbers/${n.id}`, w.ec1Admin.token, { userId: user.id })).statusCode,
    ).toBe(200);
    return { s, n, user };
  };

  it('doc 3, delete a system: the gateway gets the iq (config, pbx action=delete); on its acknowledgement the system and its phone numbers go, the linked user is unlinked and kept', async () => {
    const { s, n, user } = await withNumber();
    const res = await req('DELETE', `${SYSTEMS}/${s.id}`, w.ec1Admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: `System ${s.id} deleted`, data: [] });
    const iq = receivedIqs(w)
      .filter((x) => x.to === `${s.jid_pbxpcg}/gateway`)
      .at(-1)!;
    expect(iq.stanza).toMatch(
      /^<iq type="set" id="[^"]+"><config xmlns="urn:xmpp:pbxagent:config:1"><pbx action="delete"><systemId>/,
    );
    expect(await row(s.id)).toBeUndefined();
    expect((await w.t.db.select().from(systemPhoneNumbers).where(eq(systemPhoneNumbers.id, n.id))).length).toBe(0);
    expect((await w.t.db.select().from(users).where(eq(users.id, user.id))).length).toBe(1);
  });

  it('document 1, gateway notifications: a gateway that refuses the deletion gives 502, one that stays silent 504, and the system stays', async () => {
    const { s, n } = await withNumber();
    try {
      w.bg.gatewaySimulator.mode = 'refuse';
      const refused = await req('DELETE', `${SYSTEMS}/${s.id}`, w.ec1Admin.token);
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toMatchObject({ errorCode: 502, errorDetailsCode: 502550 });
      w.bg.gatewaySimulator.mode = 'silent';
      const silent = await req('DELETE', `${SYSTEMS}/${s.id}`, w.ec1Admin.token);
      expect(silent.statusCode).toBe(504);
      expect(silent.json()).toMatchObject({ errorCode: 504, errorDetailsCode: 504550 });
    } finally {
      w.bg.gatewaySimulator.mode = 'ack';
    }
    expect(await row(s.id)).toBeDefined();
    expect((await w.t.db.select().from(systemPhoneNumbers).where(eq(systemPhoneNumbers.id, n.id))).length).toBe(1);
  });
});

describe('doc 3, link and unlink systems and sites', () => {
  it('doc 3, link: linking an existing link raises no error; a system is shared by several sites', async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1, name: 'Linked twice' });
    const again = await req('POST', `${A}/sites/${w.site1}/systems`, w.ec1Admin.token, { systemId: s.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.siteId).toEqual([w.site1]);
    const second = await req('POST', `${A}/sites/${w.site1b}/systems`, w.ec1Admin.token, { systemId: s.id });
    expect(second.json().data.siteId).toEqual([w.site1, w.site1b]);
    const listed = (await req('GET', `${A}/sites/${w.site1b}/systems`, w.ec1Admin.token))
      .json()
      .data.map((x: { id: string }) => x.id);
    expect(listed).toContain(s.id);
  });

  it('doc 3, link and unlink: a site_admin is denied (403)', async () => {
    const s = await create(w.ec1Admin.token, { siteId: w.site1b, name: 'Not for site admins' });
    expect((await req('POST', `${A}/sites/${w.site1}/systems`, w.siteAdmin.token, { systemId: s.id })).statusCode).toBe(
      403,
    );
    expect((await req('DELETE', `${A}/sites/${w.site1}/systems/${s.id}`, w.siteAdmin.token)).statusCode).toBe(403);
  });

  it('decision: a system neither isShared nor isCentrex links only sites of its own company (409551); an isShared one links sites of other companies', async () => {
    const s = await create(w.bpAdmin.token, { siteId: w.site1, name: 'Own company only' });
    const res = await req('POST', `${A}/sites/${w.site2}/systems`, w.bpAdmin.token, { systemId: s.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409551);
    const shared = await create(w.bpAdmin.token, { siteId: w.site1, name: 'Shared', isShared: true });
    expect(
      (await req('POST', `${A}/sites/${w.site2}/systems`, w.bpAdmin.token, { systemId: shared.id })).json().data.siteId,
    ).toEqual([w.site1, w.site2]);
  });

  it('doc 3, link: a system the caller may not read is refused as a reference (400005)', async () => {
    const other = await create(w.ec2Admin.token, { siteId: w.site2, name: 'Not yours' });
    const res = await req('POST', `${A}/sites/${w.site1}/systems`, w.ec1Admin.token, { systemId: other.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400005);
  });

  it('doc 3, link, multi-tenant rules (43709): a CENTREX site links only a system with isCentrex true, and only one; an isCentrex system only CENTREX sites, several of them', async () => {
    const t1 = await makeCompany(w.t, { bpId: w.bp });
    const t2 = await makeCompany(w.t, { bpId: w.bp });
    await setCentrex(w.t, t1);
    await setCentrex(w.t, t2);
    const s1 = await makeSite(w.t, t1);
    const s2 = await makeSite(w.t, t2);
    const expect43709 = async (p: Promise<{ statusCode: number; json: () => any }>) => {
      const res = await p;
      expect({ status: res.statusCode, code: res.json().errorDetailsCode }).toEqual({ status: 409, code: 43709 });
    };
    // A system without isCentrex at a CENTREX site, and an isCentrex system at an ordinary site.
    await expect43709(req('POST', SYSTEMS, w.bpAdmin.token, { siteId: s1, name: 'Plain at centrex' }));
    await expect43709(
      req('POST', SYSTEMS, w.bpAdmin.token, { siteId: w.site1, name: 'Centrex at plain', isCentrex: true }),
    );
    const centrex = await create(w.bpAdmin.token, { siteId: s1, name: 'Centrex', isCentrex: true });
    // Shared by several CENTREX sites.
    expect(
      (await req('POST', `${A}/sites/${s2}/systems`, w.bpAdmin.token, { systemId: centrex.id })).json().data.siteId,
    ).toEqual([s1, s2]);
    // A second isCentrex system at the same CENTREX site.
    await expect43709(req('POST', SYSTEMS, w.bpAdmin.token, { siteId: s1, name: 'Second centrex', isCentrex: true }));
    const other = await create(w.bpAdmin.token, {
      siteId: await makeSite(w.t, t2),
      name: 'Other centrex',
      isCentrex: true,
    });
    await expect43709(req('POST', `${A}/sites/${s1}/systems`, w.bpAdmin.token, { systemId: other.id }));
    // An isCentrex system linked to an ordinary site.
    await expect43709(req('POST', `${A}/sites/${w.site1}/systems`, w.bpAdmin.token, { systemId: centrex.id }));
  });

  it('doc 3, unlink: the last site is detached only from an isShared or isCentrex system (409550); {status, data: []}', async () => {
    const plain = await create(w.ec1Admin.token, { siteId: w.site1, name: 'Plain' });
    await req('POST', `${A}/sites/${w.site1b}/systems`, w.ec1Admin.token, { systemId: plain.id });
    const first = await req('DELETE', `${A}/sites/${w.site1}/systems/${plain.id}`, w.ec1Admin.token);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual([]);
    expect((await row(plain.id)).siteIds).toEqual([w.site1b]);
    const last = await req('DELETE', `${A}/sites/${w.site1b}/systems/${plain.id}`, w.ec1Admin.token);
    expect(last.statusCode).toBe(409);
    expect(last.json().errorDetailsCode).toBe(409550);
    const shared = await create(w.ec1Admin.token, { siteId: w.site1, name: 'Shared last', isShared: true });
    expect((await req('DELETE', `${A}/sites/${w.site1}/systems/${shared.id}`, w.ec1Admin.token)).statusCode).toBe(200);
    expect((await row(shared.id)).siteIds).toEqual([]);
    // A system not linked to the site is none of its systems: 404.
    expect((await req('DELETE', `${A}/sites/${w.site1}/systems/${shared.id}`, w.ec1Admin.token)).statusCode).toBe(404);
    expect((await req('DELETE', `${A}/sites/${w.site1}/systems/${newId()}`, w.ec1Admin.token)).statusCode).toBe(404);
  });

  it('doc 3, delete site is forbidden while the site is linked to systems (409250); once unlinked it is deleted', async () => {
    const site = await makeSite(w.t, w.ec1);
    const s = await create(w.ec1Admin.token, { siteId: site, name: 'Holds the site', isShared: true });
    const refused = await req('DELETE', `${A}/sites/${site}`, w.ec1Admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errorDetailsCode).toBe(409250);
    await req('DELETE', `${A}/sites/${site}/systems/${s.id}`, w.ec1Admin.token);
    expect((await req('DELETE', `${A}/sites/${site}`, w.ec1Admin.token)).statusCode).toBe(200);
  });
});

export { TIMEOUT_MS };

describe("issue 12, point 6: the calls of the original interface's SDK", () => {
  it('issue 12, point 6: createSystem, getSystemData, getAllSystems, updateSystem, getAllSystemPhoneNumbers, getASystemPhoneNumber and deleteSystem as the SDK sends them', async () => {
    // createSystem: its optional fields, some of which this service does not keep (ignored).
    const s = await create(w.ec1Admin.token, {
      name: 'SDK PBX',
      pbxId: 'PBX-SDK-1',
      pbxLdapId: 'ldap',
      siteId: w.site1,
      type: 'oxo',
      country: 'FRA',
      version: '1',
      activationCode: 'x',
      bpId: w.bp,
      searchResultOrder: ['PBX', 'SVC'],
    });
    expect(s).toMatchObject({ pbxId: 'PBX-SDK-1', country: 'FRA', searchResultOrder: ['PBX', 'SVC'] });
    // getSystemData
    expect(
      (await req('GET', `${SYSTEMS}/${s.id}?connectionHistory=true`, w.ec1Admin.token)).json().data.connectionHistory,
    ).toEqual([]);
    // getAllSystems with its defaults
    const all = await req(
      'GET',
      `${SYSTEMS}?connectionHistory=false&format=small&limit=100&offset=0&sortField=pbxId&sortOrder=1&siteId=${w.site1}`,
      w.ec1Admin.token,
    );
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((x: { id: string }) => x.id)).toContain(s.id);
    // updateSystem: siteId and bpId are not changed by an update (unlink and link), one prefix as a string
    const up = await req('PUT', `${SYSTEMS}/${s.id}`, w.ec1Admin.token, {
      name: 'SDK PBX 2',
      siteId: w.site1b,
      serverPingTimeout: 100,
      pbxMainBundlePrefix: '0',
      bpId: 'other',
    });
    expect(up.statusCode).toBe(200);
    expect(up.json().data).toMatchObject({
      name: 'SDK PBX 2',
      siteId: [w.site1],
      serverPingTimeout: 100,
      pbxMainBundlePrefix: ['0'],
      bpId: w.bp,
    });
    const [n] = (
      await req('POST', `${SYSTEMS}/${s.id}/phone-numbers`, w.ec1Admin.token, {
        phoneNumbers: [{ shortNumber: '23031' }],
      })
    ).json().data;
    // getAllSystemPhoneNumbers with its defaults, getASystemPhoneNumber
    const numbers = await req(
      'GET',
      `${SYSTEMS}/${s.id}/phone-numbers?shortNumber=23031&format=small&limit=100&sortField=shortNumber&sortOrder=1`,
      w.ec1Admin.token,
    );
    expect(numbers.json().data.map((x: { id: string }) => x.id)).toEqual([n.id]);
    expect(
      (await req('GET', `${SYSTEMS}/${s.id}/phone-numbers/${n.id}`, w.ec1Admin.token)).json().data.shortNumber,
    ).toBe('23031');
    // deleteSystem
    expect((await req('DELETE', `${SYSTEMS}/${s.id}`, w.ec1Admin.token)).statusCode).toBe(200);
  });
});
