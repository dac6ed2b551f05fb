// Document 2, "Phone number (DDI) of a CloudPBX" and "Phone numbers (DDI)"; routes.md, CloudPBX
// (listDdis ... unassignDdiFromUser); issue 25, point 3. Decisions in docs/decisions.md,
// "CloudPBX: DDI numbers".
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { groups } from '../../src/modules/pbx/groups.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { createPbx, PBXS, seedSubscriber } from './fixtures.ts';

let t: TestApp;
let ec1: string;
let site1: string;
let bpAdmin: MadeUser;
let ec1Admin: MadeUser;
let siteAdmin: MadeUser;
let support: MadeUser;
let otherAdmin: MadeUser;
let sub1: MadeUser;
let sub2: MadeUser;
let notSub: MadeUser;
let outsider: MadeUser;
let pbx1: Record<string, any>;
let pbx2: Record<string, any>;
let D1: string;
let D2: string;

type Method = 'GET' | 'POST' | 'DELETE';
const req = (method: Method, url: string, token: string, payload?: unknown) =>
  t.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

let seq = 0;
/** A French number new to the platform (02 xx xx xx xx). */
const freshNumber = () => `02${String(100_000_000 + ++seq).slice(1)}`;
const e164Of = (national: string) => `+33${national.slice(1)}`;

async function create(url: string, number: string, token = t.superToken) {
  const res = await req('POST', url, token, { number });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** The stanzas the PBX's gateway was sent about DDIs, oldest first. */
async function ddiStanzas(pbx: Record<string, any>): Promise<string[]> {
  const rows = await t.db.select().from(outbox).where(eq(outbox.recipient, pbx.jid_pbxpcg));
  return rows
    .sort((a, b) => a.seq - b.seq)
    .map((r) => r.stanza)
    .filter((s) => s.includes('<ddi '));
}

beforeAll(async () => {
  t = await createTestApp();
  const bp = await makeCompany(t, { name: 'DDI BP', isBP: true, bpType: 'DR' });
  ec1 = await makeCompany(t, { name: 'DDI EC', bpId: bp });
  const ec2 = await makeCompany(t, { name: 'DDI other EC' });
  site1 = await makeSite(t, ec1);
  bpAdmin = await makeUser(t, bp, ['bp_admin']);
  ec1Admin = await makeUser(t, ec1, ['company_admin']);
  siteAdmin = await makeUser(t, ec1, ['site_admin'], { siteId: site1 });
  support = await makeUser(t, bp, ['support']);
  otherAdmin = await makeUser(t, ec2, ['company_admin']);
  sub1 = await makeUser(t, ec1);
  sub2 = await makeUser(t, ec1);
  notSub = await makeUser(t, ec1);
  outsider = await makeUser(t, ec2);
  pbx1 = await createPbx(t, ec1, { siteId: site1 });
  pbx2 = await createPbx(t, ec2);
  await seedSubscriber(t, pbx1.id, sub1.id, '201');
  await seedSubscriber(t, pbx1.id, sub2.id, '202');
  await seedSubscriber(t, pbx2.id, outsider.id, '201');
  D1 = `${PBXS}/${pbx1.id}/phone-numbers/ddi`;
  D2 = `${PBXS}/${pbx2.id}/phone-numbers/ddi`;
});
afterAll(() => t.close());

describe('doc 2, create a DDI', () => {
  it('doc 2, create a DDI: normalised to E.164 from the company country; every field of the DDI; the first one is the default', async () => {
    const res = await req('POST', D1, ec1Admin.token, { number: '01 23 45 67 89' });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json().data;
    expect(d).toEqual({
      id: d.id,
      systemId: pbx1.id,
      pbxId: pbx1.pbxId,
      externalTrunkId: null,
      userId: null,
      number: '01 23 45 67 89',
      numberE164: '+33123456789',
      country: 'FRA',
      deviceName: null,
      firstName: null,
      lastName: null,
      userDisplayName: null,
      welcomeName: null,
      names: [],
      type: 'work',
      deviceType: 'landline',
      isFromSystem: false,
      isMonitored: false,
      isVisibleByOthers: true,
      isCloudPbxDefault: true,
      isCloudPbxDDI: true,
      creationDate: d.creationDate,
      jid_im: null,
      jid_tel: null,
      jid_password: null,
      vcpGroupId: null,
      vcpIVRId: null,
      vcpAutoAttendantId: null,
    });
    expect(typeof d.id).toBe('string');
    expect(Number.isNaN(Date.parse(d.creationDate))).toBe(false);
    const second = await create(D1, freshNumber());
    expect(second.isCloudPbxDefault).toBe(false);
    const stanzas = await ddiStanzas(pbx1);
    expect(stanzas.some((s) => s.includes('<ddi action="create">') && s.includes('<numberE164>+33123456789<'))).toBe(
      true,
    );
  });

  it("doc 2, create a DDI: the company's country decides the E.164 form (a German company's national number)", async () => {
    const de = await makeCompany(t, { name: 'DDI German company' });
    await t.db.update(companies).set({ country: 'DEU' }).where(eq(companies.id, de));
    const pbx = await createPbx(t, de);
    const d = await create(`${PBXS}/${pbx.id}/phone-numbers/ddi`, '030 1234567');
    expect(d.numberE164).toBe('+49301234567');
    expect(d.country).toBe('DEU');
  });

  it('doc 2, create a DDI: an invalid number is 400 naming number; a missing number is 400', async () => {
    const res = await req('POST', D1, ec1Admin.token, { number: '12' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400810);
    expect(res.json().errorDetails.field).toBe('number');
    const none = await req('POST', D1, ec1Admin.token, {});
    expect(none.statusCode, none.body).toBe(400);
  });

  it('doc 2, create a DDI: unique across the platform whatever its spelling (409810), in this PBX or another', async () => {
    const n = freshNumber();
    await create(D1, n);
    const spelled = `+33 ${n.slice(1, 2)} ${n.slice(2, 4)} ${n.slice(4, 6)} ${n.slice(6, 8)} ${n.slice(8)}`;
    for (const [url, number] of [
      [D1, n],
      [D1, spelled],
      [D2, e164Of(n)],
    ]) {
      const res = await req('POST', url, t.superToken, { number });
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().errorDetailsCode).toBe(409810);
    }
    const rows = await t.db
      .select()
      .from(ddis)
      .where(eq(ddis.numberE164, e164Of(n)));
    expect(rows.length).toBe(1);
  });

  it('doc 2, create a DDI: two creations of one number at once, in two PBXs: one is made, the other 409810', async () => {
    const n = freshNumber();
    const [a, b] = await Promise.all([
      req('POST', D1, t.superToken, { number: n }),
      req('POST', D2, t.superToken, { number: e164Of(n) }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(loser.json().errorDetailsCode).toBe(409810);
    expect(
      (
        await t.db
          .select()
          .from(ddis)
          .where(eq(ddis.numberE164, e164Of(n)))
      ).length,
    ).toBe(1);
  });
});

describe('doc 2, list the DDIs', () => {
  let pbx: Record<string, any>;
  let L: string;
  let u: MadeUser;
  const numbers = ['0299000003', '0299000001', '0299000004', '0299000002'];

  beforeAll(async () => {
    const c = await makeCompany(t, { name: 'DDI list company' });
    pbx = await createPbx(t, c);
    L = `${PBXS}/${pbx.id}/phone-numbers/ddi`;
    u = await makeUser(t, c);
    await seedSubscriber(t, pbx.id, u.id, '201');
    const made = [];
    for (const n of numbers) made.push(await create(L, n));
    const assigned = made.find((d) => d.number === '0299000004');
    const res = await req('POST', `${L}/${assigned.id}/users/${u.id}`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    // A group's DDI: a group inserted and the DDI assigned to it in the table.
    const groupId = newId();
    await t.db.insert(groups).values({ id: groupId, cloudPbxId: pbx.id, name: 'DDI group', type: 'hunting_group' });
    await t.db
      .update(ddis)
      .set({ vcpGroupId: groupId })
      .where(and(eq(ddis.cloudPbxId, pbx.id), eq(ddis.number, '0299000002')));
  });

  it('doc 2, list DDIs: sorted by number by default; limit, offset and total; {data, limit, offset, total}', async () => {
    const all = await req('GET', L, t.superToken);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.map((d: { number: string }) => d.number)).toEqual([...numbers].sort());
    expect(all.json()).toMatchObject({ total: 4, limit: 100, offset: 0 });
    const page = await req('GET', `${L}?limit=2&offset=1&sortOrder=-1`, t.superToken);
    expect(page.json().data.map((d: { number: string }) => d.number)).toEqual(['0299000003', '0299000002']);
    expect(page.json()).toMatchObject({ total: 4, limit: 2, offset: 1 });
    const past = await req('GET', `${L}?offset=10`, t.superToken);
    expect(past.json()).toMatchObject({ data: [], total: 4, offset: 10 });
  });

  it('issue 25, point 12: pages of one, put together, are the whole list in every order (creation dates tie: the id breaks them)', async () => {
    // A page's ids are read first and its rows after (ddis.repo.ts): the pages keep the list's order.
    for (const sortField of ['number', 'numberE164', 'creationDate'])
      for (const sortOrder of [1, -1]) {
        const q = `${L}?sortField=${sortField}&sortOrder=${sortOrder}`;
        const whole = (await req('GET', q, t.superToken)).json().data.map((d: { id: string }) => d.id);
        const pages: string[] = [];
        for (let offset = 0; offset < whole.length; offset++)
          pages.push((await req('GET', `${q}&limit=1&offset=${offset}`, t.superToken)).json().data[0].id);
        expect(pages).toEqual(whole);
        expect(whole).toHaveLength(4);
      }
  });

  it('doc 2, list DDIs: the assigned user’s names in each DDI', async () => {
    const all = (await req('GET', L, t.superToken)).json().data;
    const d = all.find((x: { number: string }) => x.number === '0299000004');
    const [row] = await t.db.select().from(users).where(eq(users.id, u.id));
    expect(d).toMatchObject({
      userId: u.id,
      firstName: row.firstName,
      lastName: row.lastName,
      userDisplayName: `${row.firstName} ${row.lastName}`,
      names: [`${row.firstName} ${row.lastName}`],
    });
  });

  it('doc 2, list DDIs: the filters isAssignedToUser, isAssignedToGroup, isAssignedToIVR, isAssignedToAutoAttendant, isAssigned (true/false as text)', async () => {
    const numbersOf = async (q: string) =>
      (await req('GET', `${L}?${q}`, t.superToken)).json().data.map((d: { number: string }) => d.number);
    expect(await numbersOf('isAssignedToUser=true')).toEqual(['0299000004']);
    expect(await numbersOf('isAssignedToUser=false')).toEqual(['0299000001', '0299000002', '0299000003']);
    expect(await numbersOf('isAssignedToGroup=true')).toEqual(['0299000002']);
    expect(await numbersOf('isAssignedToIVR=true')).toEqual([]);
    expect(await numbersOf('isAssignedToAutoAttendant=false')).toEqual([...numbers].sort());
    expect(await numbersOf('isAssigned=true')).toEqual(['0299000002', '0299000004']);
    expect(await numbersOf('isAssigned=false')).toEqual(['0299000001', '0299000003']);
    const total = (await req('GET', `${L}?isAssigned=false&limit=1`, t.superToken)).json().total;
    expect(total).toBe(2);
    const bad = await req('GET', `${L}?isAssigned=maybe`, t.superToken);
    expect(bad.statusCode, bad.body).toBe(400);
  });
});

describe('doc 2, default DDI and delete', () => {
  let pbx: Record<string, any>;
  let L: string;

  beforeAll(async () => {
    const c = await makeCompany(t, { name: 'DDI default company' });
    pbx = await createPbx(t, c);
    L = `${PBXS}/${pbx.id}/phone-numbers/ddi`;
  });

  it('doc 2, set the default DDI: the one default moves; the gateway is told of both', async () => {
    const a = await create(L, freshNumber());
    const b = await create(L, freshNumber());
    expect(a.isCloudPbxDefault).toBe(true);
    const res = await req('POST', `${L}/${b.id}/default`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: b.id, isCloudPbxDefault: true });
    const defaults = await t.db
      .select()
      .from(ddis)
      .where(and(eq(ddis.cloudPbxId, pbx.id), eq(ddis.isCloudPbxDefault, true)));
    expect(defaults.map((d) => d.id)).toEqual([b.id]);
    const stanzas = await ddiStanzas(pbx);
    expect(stanzas.at(-2)).toContain(`<id>${a.id}</id>`);
    expect(stanzas.at(-2)).toContain('<isCloudPbxDefault>false</isCloudPbxDefault>');
    expect(stanzas.at(-1)).toContain(`<id>${b.id}</id>`);
    expect(stanzas.at(-1)).toContain('<isCloudPbxDefault>true</isCloudPbxDefault>');
    // Again: nothing moves.
    const again = await req('POST', `${L}/${b.id}/default`, t.superToken);
    expect(again.json().data.isCloudPbxDefault).toBe(true);
  });

  it('doc 2, delete a DDI: the default one only when it is the last (409811); others go; the last default goes', async () => {
    const list = (await req('GET', L, t.superToken)).json().data;
    const def = list.find((d: { isCloudPbxDefault: boolean }) => d.isCloudPbxDefault);
    const other = list.find((d: { isCloudPbxDefault: boolean }) => !d.isCloudPbxDefault);
    const refused = await req('DELETE', `${L}/${def.id}`, t.superToken);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errorDetailsCode).toBe(409811);
    const ok = await req('DELETE', `${L}/${other.id}`, t.superToken);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().status).toContain(other.id);
    expect((await ddiStanzas(pbx)).at(-1)).toContain('<ddi action="delete">');
    const last = await req('DELETE', `${L}/${def.id}`, t.superToken);
    expect(last.statusCode, last.body).toBe(200);
    expect((await req('GET', L, t.superToken)).json().total).toBe(0);
    const gone = await req('DELETE', `${L}/${def.id}`, t.superToken);
    expect(gone.statusCode).toBe(404);
  });

  it('doc 2, delete a DDI: an assigned DDI is unassigned first (the gateway is told), then deleted', async () => {
    const c = await makeCompany(t, { name: 'DDI delete assigned' });
    const p = await createPbx(t, c);
    const P = `${PBXS}/${p.id}/phone-numbers/ddi`;
    const u = await makeUser(t, c);
    await seedSubscriber(t, p.id, u.id, '201');
    await create(P, freshNumber());
    const d = await create(P, freshNumber());
    expect((await req('POST', `${P}/${d.id}/users/${u.id}`, t.superToken)).statusCode).toBe(200);
    const res = await req('DELETE', `${P}/${d.id}`, t.superToken);
    expect(res.statusCode, res.body).toBe(200);
    const stanzas = await ddiStanzas(p);
    expect(stanzas.at(-2)).toContain('<ddi action="update">');
    expect(stanzas.at(-2)).toContain('<userId/>');
    expect(stanzas.at(-1)).toContain('<ddi action="delete">');
    expect((await t.db.select().from(ddis).where(eq(ddis.id, d.id))).length).toBe(0);
  });
});

describe('doc 2, associate a DDI to a user', () => {
  let d: Record<string, any>;

  beforeAll(async () => {
    d = await create(D1, freshNumber());
  });

  it('doc 2, associate: the user must be a subscriber of this CloudPBX (409812)', async () => {
    const res = await req('POST', `${D1}/${d.id}/users/${notSub.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409812);
    // A subscriber of another PBX is not one of this PBX.
    const other = await req('POST', `${D1}/${d.id}/users/${outsider.id}`, t.superToken);
    expect(other.json().errorDetailsCode).toBe(409812);
  });

  it("doc 2, associate: userId, the user's names and jid_im, jid_tel and jid_password set; the gateway is told", async () => {
    const res = await req('POST', `${D1}/${d.id}/users/${sub1.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const [u] = await t.db.select().from(users).where(eq(users.id, sub1.id));
    const got = res.json().data;
    expect(got).toMatchObject({
      id: d.id,
      userId: sub1.id,
      firstName: u.firstName,
      lastName: u.lastName,
      userDisplayName: `${u.firstName} ${u.lastName}`,
      jid_im: u.jidIm,
      jid_tel: `tel_${sub1.id}@${t.deps.config.xmpp.userDomain}`,
    });
    expect(u.jidIm).toBeTruthy();
    expect(typeof got.jid_password).toBe('string');
    expect(got.jid_password.length).toBeGreaterThan(20);
    const last = (await ddiStanzas(pbx1)).at(-1)!;
    expect(last).toContain('<ddi action="update">');
    expect(last).toContain(`<userId>${sub1.id}</userId>`);
    expect(last).not.toContain(got.jid_password);
    // The same user again: unchanged.
    const again = await req('POST', `${D1}/${d.id}/users/${sub1.id}`, ec1Admin.token);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.jid_password).toBe(got.jid_password);
  });

  it('doc 2, associate: a DDI assigned to another user is 409813', async () => {
    const res = await req('POST', `${D1}/${d.id}/users/${sub2.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409813);
  });

  it('doc 2, dissociate: a DDI assigned to another user than the path’s is 409814', async () => {
    const res = await req('DELETE', `${D1}/${d.id}/users/${sub2.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409814);
  });

  it('doc 2, dissociate: accepted with content-type application/json and no body; userId and the jids cleared', async () => {
    const res = await t.inject({
      method: 'DELETE',
      url: `${D1}/${d.id}/users/${sub1.id}`,
      headers: { ...bearer(ec1Admin.token), 'content-type': 'application/json', accept: 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      userId: null,
      firstName: null,
      jid_im: null,
      jid_tel: null,
      jid_password: null,
      names: [],
    });
    expect((await ddiStanzas(pbx1)).at(-1)).toContain('<userId/>');
    // Unassigned already: answered as it is.
    const again = await req('DELETE', `${D1}/${d.id}/users/${sub1.id}`, ec1Admin.token);
    expect(again.statusCode, again.body).toBe(200);
  });

  it('doc 2, associate: the user of the path must be one the caller may read (404)', async () => {
    const res = await req('POST', `${D1}/${d.id}/users/${outsider.id}`, ec1Admin.token);
    expect(res.statusCode, res.body).toBe(404);
    const unknown = await req('POST', `${D1}/${d.id}/users/${newId()}`, ec1Admin.token);
    expect(unknown.statusCode, unknown.body).toBe(404);
  });

  it('doc 2, States: the first association of a user with no other DDI makes it the default when the PBX has none', async () => {
    const c = await makeCompany(t, { name: 'DDI first association' });
    const p = await createPbx(t, c);
    const P = `${PBXS}/${p.id}/phone-numbers/ddi`;
    const u = await makeUser(t, c);
    await seedSubscriber(t, p.id, u.id, '201');
    // DDIs with no default (as the voice platform's would be brought): set in the table.
    const ids = [newId(), newId()];
    for (const [i, id] of ids.entries())
      await t.db
        .insert(ddis)
        .values({ id, cloudPbxId: p.id, number: `+3329800000${i}`, numberE164: `+3329800000${i}` });
    const first = await req('POST', `${P}/${ids[0]}/users/${u.id}`, t.superToken);
    expect(first.json().data.isCloudPbxDefault).toBe(true);
    const second = await req('POST', `${P}/${ids[1]}/users/${u.id}`, t.superToken);
    expect(second.json().data.isCloudPbxDefault).toBe(false);
  });
});

describe('doc 2, DDI numbers: ddiReadOnly of an IR company', () => {
  let ir: string;
  let irAdmin: MadeUser;
  let ecIrAdmin: MadeUser;
  let L: string;

  beforeAll(async () => {
    const vad = await makeCompany(t, { name: 'DDI VAD', isBP: true, bpType: 'VAD' });
    ir = await makeCompany(t, { name: 'DDI IR', isBP: true, bpType: 'IR', bpId: vad });
    await t.db.update(companies).set({ ddiReadOnly: true }).where(eq(companies.id, ir));
    const ecIr = await makeCompany(t, { name: 'DDI EC of IR', bpId: ir });
    irAdmin = await makeUser(t, ir, ['bp_admin']);
    ecIrAdmin = await makeUser(t, ecIr, ['company_admin']);
    const pbx = await createPbx(t, ecIr);
    L = `${PBXS}/${pbx.id}/phone-numbers/ddi`;
  });

  it('doc 2, create and delete DDI: the bp_admin of an IR company whose ddiReadOnly is true gets 403810; the company admin and superadmin may', async () => {
    const refused = await req('POST', L, irAdmin.token, { number: freshNumber() });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().errorDetailsCode).toBe(403810);
    const a = await create(L, freshNumber(), ecIrAdmin.token);
    const b = await create(L, freshNumber(), t.superToken);
    const del = await req('DELETE', `${L}/${b.id}`, irAdmin.token);
    expect(del.statusCode, del.body).toBe(403);
    expect(del.json().errorDetailsCode).toBe(403810);
    // He still reads them, and sets the default (ddiReadOnly names create and delete).
    expect((await req('GET', L, irAdmin.token)).json().total).toBe(2);
    expect((await req('POST', `${L}/${b.id}/default`, irAdmin.token)).statusCode).toBe(200);
    expect((await req('DELETE', `${L}/${a.id}`, ecIrAdmin.token)).statusCode).toBe(200);
  });

  it('doc 2, create DDI: with ddiReadOnly false the bp_admin of the IR company may', async () => {
    await t.db.update(companies).set({ ddiReadOnly: false }).where(eq(companies.id, ir));
    try {
      const res = await req('POST', L, irAdmin.token, { number: freshNumber() });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await t.db.update(companies).set({ ddiReadOnly: true }).where(eq(companies.id, ir));
    }
  });
});

describe('doc 2, DDI numbers: who may', () => {
  it('doc 2, roles: site_admin and support read; the BP admin writes', async () => {
    expect((await req('GET', D1, siteAdmin.token)).statusCode).toBe(200);
    expect((await req('GET', D1, support.token)).statusCode).toBe(200);
    expect((await req('POST', D1, bpAdmin.token, { number: freshNumber() })).statusCode).toBe(201);
  });

  it('doc 2, roles: support and site_admin get 403 on create; an admin of another company 404', async () => {
    for (const u of [support, siteAdmin]) {
      const res = await req('POST', D1, u.token, { number: freshNumber() });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await req('GET', D1, otherAdmin.token)).statusCode).toBe(404);
    expect((await req('POST', D1, otherAdmin.token, { number: freshNumber() })).statusCode).toBe(404);
  });

  it("doc 2, DDI of another CloudPBX under this CloudPBX's path: 404", async () => {
    const foreign = await create(D2, freshNumber());
    for (const [method, url] of [
      ['DELETE', `${D1}/${foreign.id}`],
      ['POST', `${D1}/${foreign.id}/default`],
      ['POST', `${D1}/${foreign.id}/users/${sub1.id}`],
      ['DELETE', `${D1}/${foreign.id}/users/${sub1.id}`],
    ] as const) {
      const res = await req(method, url, t.superToken);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    expect((await t.db.select().from(ddis).where(eq(ddis.id, foreign.id))).length).toBe(1);
  });
});
