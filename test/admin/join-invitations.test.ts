// Issue 3, points 1 and 2: join invitations (route table, +) carry the role the invited user
// receives; the first accepted administrator invitation makes an `initializing` company `active`
// (document 3, Company status). Decisions in docs/decisions.md, section Join.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { eq } from 'drizzle-orm';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { idempotencyKeys } from '../../src/http/idempotency.tables.ts';
import { joinInvitations } from '../../src/modules/admin/join/join.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { sha256hex } from '../../src/shared/ids.ts';

const A = '/api/svc/admin/v1.0';
const invitations = (c: string) => `${A}/companies/${c}/join-companies/invitations`;
const accept = (id: string) => `/api/svc/enduser/v1.0/join-companies/invitations/${id}/accept`;
const DAY = 24 * 3600 * 1000;

let t: TestApp;
let companyId: string;
let admin: MadeUser;
let n = 0;
const email = () => `invited${++n}@example.com`;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
});
afterAll(() => t.close());

interface Created {
  id: string;
  email: string;
  invitationToken: string;
  status: string;
}

async function invite(c: string, token: string, payload: object, expected = 201) {
  const res = await t.inject({ method: 'POST', url: invitations(c), headers: bearer(token), payload });
  expect(res.statusCode, res.body).toBe(expected);
  return res;
}
const created = async (c: string, token: string, payload: object) =>
  (await invite(c, token, payload)).json().data as Created;

const acceptWith = (id: string, token: string, password = PASSWORD) =>
  t.inject({ method: 'POST', url: accept(id), payload: { token, password, firstName: 'Invited', lastName: 'Person' } });

async function companyRow(id: string) {
  const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
  return row;
}

describe('join invitations: create, list, accept', () => {
  it('create: the token is returned once; only its SHA-256 is stored; the invitation lives 7 days', async () => {
    const e = email();
    const res = await invite(companyId, admin.token, { email: e, invitedToBeCompanyAdmin: true, junk: 1 });
    const data = res.json().data;
    expect(data).toMatchObject({
      email: e,
      companyId,
      invitedToBeCompanyAdmin: true,
      invitedToBeBpAdmin: false,
      invitedToBeBpFinance: false,
      status: 'pending',
      createdByAdminId: admin.id,
    });
    expect(data.invitationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(data.expirationDate).getTime() - t.clock.now().getTime()).toBe(7 * DAY);
    const [row] = await t.db.select().from(joinInvitations).where(eq(joinInvitations.id, data.id));
    expect(row.tokenHash).toBe(sha256hex(data.invitationToken));
    expect(JSON.stringify(row)).not.toContain(data.invitationToken);
    expect(res.body).not.toContain('junk');
  });

  it('create ignores Idempotency-Key: the token is never stored for a replay', async () => {
    const res = await t.inject({
      method: 'POST',
      url: invitations(companyId),
      headers: { ...bearer(admin.token), 'idempotency-key': 'inv-1' },
      payload: { email: email() },
    });
    expect(res.statusCode).toBe(201);
    const stored = await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'inv-1'));
    expect(stored).toEqual([]);
  });

  it('list: paged, filtered by status and email, never shows tokens', async () => {
    const c = await makeCompany(t);
    const a = await makeUser(t, c, ['company_admin']);
    const i1 = await created(c, a.token, { email: email() });
    const i2 = await created(c, a.token, { email: email() });
    expect((await acceptWith(i2.id, i2.invitationToken)).statusCode).toBe(201);
    const res = await t.inject({
      method: 'GET',
      url: `${invitations(c)}?limit=1&sortField=email&sortOrder=1`,
      headers: bearer(a.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, limit: 1, offset: 0, data: [{ id: i1.id }] });
    expect(res.body).not.toMatch(/token/i);
    const all = await t.inject({ method: 'GET', url: invitations(c), headers: bearer(a.token) });
    expect(all.body).not.toContain(i1.invitationToken);
    expect(all.body).not.toMatch(/token/i);
    const accepted = await t.inject({
      method: 'GET',
      url: `${invitations(c)}?status=accepted`,
      headers: bearer(a.token),
    });
    expect(accepted.json().data.map((i: { id: string }) => i.id)).toEqual([i2.id]);
    const byEmail = await t.inject({
      method: 'GET',
      url: `${invitations(c)}?email=${encodeURIComponent(i1.email.toUpperCase())}`,
      headers: bearer(a.token),
    });
    expect(byEmail.json().data.map((i: { id: string }) => i.id)).toEqual([i1.id]);
  });

  it('accept: creates the user in the company with login email = the invitation email and the invited roles; marks the invitation accepted', async () => {
    const inv = await created(companyId, admin.token, { email: email(), invitedToBeCompanyAdmin: true });
    const res = await acceptWith(inv.id, inv.invitationToken);
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json().data;
    expect(user).toMatchObject({ loginEmail: inv.email, companyId, firstName: 'Invited', lastName: 'Person' });
    expect(user.roles.sort()).toEqual(['company_admin', 'user']);
    const [row] = await t.db.select().from(joinInvitations).where(eq(joinInvitations.id, inv.id));
    expect(row).toMatchObject({ status: 'accepted', acceptedUserId: user.id, acceptedDate: t.clock.now() });
    await t.login(inv.email, PASSWORD);
  });

  it('accept: a plain invitation gives role user only', async () => {
    const inv = await created(companyId, admin.token, { email: email() });
    const res = await acceptWith(inv.id, inv.invitationToken);
    expect(res.json().data.roles).toEqual(['user']);
  });

  it('accept: a wrong token answers as an unknown invitation (404301), and creates nothing', async () => {
    const inv = await created(companyId, admin.token, { email: email() });
    const wrong = await acceptWith(inv.id, 'x'.repeat(43));
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().errorDetailsCode).toBe(404301);
    const unknown = await acceptWith('0123456789abcdef01234567', inv.invitationToken);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorDetailsCode).toBe(404301);
    expect(await t.db.select().from(users).where(eq(users.loginEmail, inv.email))).toEqual([]);
  });

  it('accept: a used invitation is refused (409300)', async () => {
    const inv = await created(companyId, admin.token, { email: email() });
    expect((await acceptWith(inv.id, inv.invitationToken)).statusCode).toBe(201);
    const again = await acceptWith(inv.id, inv.invitationToken);
    expect(again.statusCode).toBe(409);
    expect(again.json().errorDetailsCode).toBe(409300);
  });

  it('accept: an expired invitation is refused (403305), and appears as expired in the list', async () => {
    const inv = await created(companyId, admin.token, { email: email() });
    await t.db
      .update(joinInvitations)
      .set({ expirationDate: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(joinInvitations.id, inv.id));
    const res = await acceptWith(inv.id, inv.invitationToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().errorDetailsCode).toBe(403305);
    const list = await t.inject({
      method: 'GET',
      url: `${invitations(companyId)}?status=expired`,
      headers: bearer(admin.token),
    });
    expect(list.json().data.map((i: { id: string }) => i.id)).toContain(inv.id);
  });

  it('accept: the password policy of createUser applies; a refused acceptance leaves the invitation pending', async () => {
    const inv = await created(companyId, admin.token, { email: email() });
    const res = await acceptWith(inv.id, inv.invitationToken, 'weak');
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400002);
    const [row] = await t.db.select().from(joinInvitations).where(eq(joinInvitations.id, inv.id));
    expect(row.status).toBe('pending');
    const missing = await t.inject({ method: 'POST', url: accept(inv.id), payload: { password: PASSWORD } });
    expect(missing.statusCode).toBe(400);
  });

  it('concurrent acceptances of one invitation create one user', async () => {
    const inv = await created(companyId, admin.token, { email: email() });
    const results = await Promise.all([1, 2, 3].map(() => acceptWith(inv.id, inv.invitationToken)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(
      await t.db
        .select()
        .from(users)
        .where(eq(users.loginEmail, inv.email))
        .then((r) => r.length),
    ).toBe(1);
  });
});

describe('join invitations: who may give which role', () => {
  it('the inviter gives only roles he may assign (ASSIGNABLE_ROLES): a company_admin cannot invite a bp_admin (403002)', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const bpCompanyAdmin = await makeUser(t, bp, ['company_admin']);
    const res = await invite(bp, bpCompanyAdmin.token, { email: email(), invitedToBeBpAdmin: true }, 403);
    expect(res.json().errorDetailsCode).toBe(403002);
  });

  it('bp roles are only for BP companies (400301)', async () => {
    const res = await invite(companyId, t.superToken, { email: email(), invitedToBeBpFinance: true }, 400);
    expect(res.json().errorDetailsCode).toBe(400301);
  });

  it('an e-mail that already has an account cannot be invited (409301)', async () => {
    const res = await invite(companyId, admin.token, { email: admin.email.toUpperCase() }, 409);
    expect(res.json().errorDetailsCode).toBe(409301);
  });

  it('bad input is refused (400) and stores nothing', async () => {
    const before = (await t.db.select().from(joinInvitations)).length;
    for (const payload of [{}, { email: 'nope' }, { email: email(), invitedToBeCompanyAdmin: 'maybe' }])
      await invite(companyId, admin.token, payload, 400);
    expect((await t.db.select().from(joinInvitations)).length).toBe(before);
  });

  it('tenant isolation: invitations of another company are 404 (create and list)', async () => {
    const other = await makeCompany(t);
    await invite(other, admin.token, { email: email() }, 404);
    expect((await t.inject({ method: 'GET', url: invitations(other), headers: bearer(admin.token) })).statusCode).toBe(
      404,
    );
    const plain = await makeUser(t, companyId);
    await invite(companyId, plain.token, { email: email() }, 404);
  });
});

describe('doc 3, company status transitions through join invitations', () => {
  it('doc 3, company status: the first invited company_admin who joins makes an initializing End Customer active (statusUpdatedDate set); the next changes nothing', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const bpAdmin = await makeUser(t, bp, ['bp_admin']);
    const ec = await makeCompany(t, { bpId: bp, status: 'initializing' });
    // A plain user joining first does not activate it.
    const plain = await created(ec, bpAdmin.token, { email: email() });
    expect((await acceptWith(plain.id, plain.invitationToken)).statusCode).toBe(201);
    expect((await companyRow(ec)).status).toBe('initializing');
    const first = await created(ec, bpAdmin.token, { email: email(), invitedToBeCompanyAdmin: true });
    const second = await created(ec, bpAdmin.token, { email: email(), invitedToBeCompanyAdmin: true });
    t.clock.advance(60_000);
    expect((await acceptWith(first.id, first.invitationToken)).statusCode).toBe(201);
    const row = await companyRow(ec);
    expect(row.status).toBe('active');
    expect(row.statusUpdatedDate).toEqual(t.clock.now());
    t.clock.advance(60_000);
    expect((await acceptWith(second.id, second.invitationToken)).statusCode).toBe(201);
    expect((await companyRow(ec)).statusUpdatedDate).toEqual(row.statusUpdatedDate);
  });

  it('doc 3, company status: the first invited bp_admin who joins makes an initializing BP IR created by a BP VAD active', async () => {
    const vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
    const vadAdmin = await makeUser(t, vad, ['bp_admin']);
    const ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad, status: 'initializing' });
    const inv = await created(ir, vadAdmin.token, { email: email(), invitedToBeBpAdmin: true });
    const res = await acceptWith(inv.id, inv.invitationToken);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.roles.sort()).toEqual(['bp_admin', 'user']);
    const row = await companyRow(ir);
    expect(row.status).toBe('active');
    expect(row.statusUpdatedDate).toEqual(t.clock.now());
  });

  it('doc 3, company status: the first invited bp_finance who joins makes an initializing BP IR created by a BP VAD active', async () => {
    const vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
    const ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad, status: 'initializing' });
    const inv = await created(ir, t.superToken, { email: email(), invitedToBeBpFinance: true });
    expect((await acceptWith(inv.id, inv.invitationToken)).json().data.roles.sort()).toEqual(['bp_finance', 'user']);
    expect((await companyRow(ir)).status).toBe('active');
  });

  it('doc 3, company status: a company_admin joining a BP IR, or a bp_admin joining a BP not created by a VAD, leaves it initializing', async () => {
    const vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
    const ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad, status: 'initializing' });
    const ca = await created(ir, t.superToken, { email: email(), invitedToBeCompanyAdmin: true });
    expect((await acceptWith(ca.id, ca.invitationToken)).statusCode).toBe(201);
    expect((await companyRow(ir)).status).toBe('initializing');
    const dr = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const irOfDr = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: dr, status: 'initializing' });
    const ba = await created(irOfDr, t.superToken, { email: email(), invitedToBeBpAdmin: true });
    expect((await acceptWith(ba.id, ba.invitationToken)).statusCode).toBe(201);
    expect((await companyRow(irOfDr)).status).toBe('initializing');
  });

  it('doc 3, company status: an active company keeps its status and statusUpdatedDate', async () => {
    const ec = await makeCompany(t);
    const before = await companyRow(ec);
    const inv = await created(ec, t.superToken, { email: email(), invitedToBeCompanyAdmin: true });
    t.clock.advance(60_000);
    expect((await acceptWith(inv.id, inv.invitationToken)).statusCode).toBe(201);
    const after = await companyRow(ec);
    expect({ status: after.status, at: after.statusUpdatedDate }).toEqual({
      status: 'active',
      at: before.statusUpdatedDate,
    });
  });
});
