// Issue 27, point 6: "an export of the company's users in the same format re-imports with `sync`
// and changes nothing: tested." The users are made with every field of the template, exported
// (exportUsersCsv), the CSV is sent back to syncCsv as the SDK sends it (raw text/csv, every
// parameter in the query), and once its report says Terminated every user row, every user's
// customisation and every PBX extension is as it was: not one field, not even lastUpdateDate
// (the clock has moved between the two).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { systems } from '../../src/modules/systems/systems.tables.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { BUILT_IN_TEMPLATES } from '../../src/modules/admin/customisation/customisation.keys.ts';
import { newId } from '../../src/shared/ids.ts';

const M = '/api/svc/massprovisioning/v1.0';
const A = '/api/svc/admin/v1.0';
const CHAT_ONLY = BUILT_IN_TEMPLATES.find((x) => x.name === 'Chat only')!;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ background: true });
});
afterAll(() => t.close());

/** A company with its administrator and users carrying every field of the template, in every form the CSV must keep. */
async function populatedCompany(): Promise<{ companyId: string; admin: MadeUser; ids: string[] }> {
  const companyId = await makeCompany(t);
  const admin = await makeUser(t, companyId, ['company_admin']);
  const people = [
    {
      loginEmail: `alice-${companyId}@example.com`,
      firstName: 'Alice',
      lastName: 'Martin',
      nickName: 'Ali',
      title: 'Dr',
      jobTitle: 'Engineer',
      department: 'R&D',
      country: 'FRA',
      language: 'fr',
      timezone: 'Europe/Paris',
      emails: [{ email: 'alice@example.com', type: 'work' }],
      phoneNumbers: [
        { number: '+33 1 23 45 67 89', type: 'work', deviceType: 'landline' },
        { number: '+33 6 11 22 33 44', type: 'work', deviceType: 'mobile' },
      ],
    },
    {
      // The values the CSV must quote: a delimiter, a quote, the comment character, spaces around, a line break.
      loginEmail: `bob-${companyId}@example.com`,
      firstName: 'Bob; "the builder"',
      lastName: 'O,Neil',
      nickName: '%bob',
      title: 'Mr',
      jobTitle: ' Lead ',
      department: 'Sales\nNorth',
      country: 'DEU',
      language: 'en-US',
      timezone: 'America/New_York',
      emails: [{ email: 'bob@example.com', type: 'work' }],
      phoneNumbers: [{ number: '+1 (212) 555-0100', type: 'work', deviceType: 'mobile' }],
    },
    // The optional fields absent.
    { loginEmail: `carol-${companyId}@example.com`, firstName: 'Carol', lastName: 'Smith' },
  ];
  const ids: string[] = [admin.id];
  for (const p of people) {
    const res = await t.inject({
      method: 'POST',
      url: `${A}/users`,
      headers: bearer(admin.token),
      payload: { ...p, password: 'User-pass-1', companyId },
    });
    expect(res.statusCode).toBe(201);
    ids.push(res.json().data.id);
  }
  const applied = await t.inject({
    method: 'POST',
    url: `${A}/customisations/templates/apply`,
    headers: bearer(admin.token),
    payload: { templateId: CHAT_ONLY.id, userId: ids[1] },
  });
  expect(applied.statusCode).toBe(200);
  return { companyId, admin, ids };
}

/** Everything of the company's users that a synchronisation could change. */
async function snapshot(companyId: string, ids: string[]) {
  const rows = await t.db.select().from(users).where(eq(users.companyId, companyId)).orderBy(users.id);
  const extensions = await t.db
    .select()
    .from(systemPhoneNumbers)
    .where(inArray(systemPhoneNumbers.userId, ids))
    .orderBy(systemPhoneNumbers.id);
  return { rows, extensions };
}

async function syncBack(admin: MadeUser, companyId: string, csv: string) {
  const started = await t.inject({
    method: 'POST',
    url: `${M}/users/imports/synchronize?companyId=${companyId}&label=round-trip`,
    headers: { ...bearer(admin.token), 'content-type': 'text/csv; charset=utf-8' },
    payload: csv,
  });
  expect(started.statusCode).toBe(202);
  const { reqId } = started.json().data;
  const end = Date.now() + 60_000;
  for (;;) {
    const res = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/${reqId}/details?format=small`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode).toBe(200);
    const summary = res.json().data;
    if (summary.status === 'Terminated') return summary;
    if (Date.now() > end) throw new Error(`the synchronisation did not end within 60 s: ${res.body}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('issue 27, point 6: the round trip (export, then syncCsv of it)', () => {
  it('issue 27, point 6: user mode: the export synchronised back succeeds on every line and changes nothing', async () => {
    const { companyId, admin, ids } = await populatedCompany();
    const before = await snapshot(companyId, ids);
    const exported = await t.inject({
      method: 'GET',
      url: `${M}/companies/${companyId}/users/export`,
      headers: { ...bearer(admin.token), accept: 'text/csv' },
    });
    expect(exported.statusCode).toBe(200);
    t.clock.advance(60_000);
    const summary = await syncBack(admin, companyId, exported.body);
    expect(summary.mode).toBe('user');
    expect(summary.counters).toMatchObject({ succeeded: ids.length, failed: 0, total: ids.length });
    expect(await snapshot(companyId, ids)).toEqual(before);
  });

  it('issue 27, point 6: useranddevice mode: the users and their PBX extensions synchronised back change nothing', async () => {
    const { companyId, admin, ids } = await populatedCompany();
    const systemId = newId();
    await t.db.insert(systems).values({
      id: systemId,
      name: 'PBX',
      pbxId: `PBX${systemId}`,
      companyId,
      jidPbxagent: `pbxagent_${systemId}@localhost`,
      jidPbxagentPassword: 'secret',
      jidPbxpcg: `pbxpcg_${systemId}@localhost`,
      jidPbxpcgPassword: 'secret',
    });
    await t.db.insert(systemPhoneNumbers).values([
      { id: newId(), systemId, pbxId: `PBX${systemId}`, shortNumber: '2001', internalNumber: '2001', userId: ids[1] },
      { id: newId(), systemId, pbxId: `PBX${systemId}`, shortNumber: '2002', internalNumber: '2002', userId: null },
    ]);
    const before = await snapshot(companyId, ids);
    expect(before.extensions.length).toBe(1);
    const exported = await t.inject({
      method: 'GET',
      url: `${M}/companies/${companyId}/users/export?mode=useranddevice`,
      headers: { ...bearer(admin.token), accept: 'text/csv' },
    });
    expect(exported.statusCode).toBe(200);
    t.clock.advance(60_000);
    const summary = await syncBack(admin, companyId, exported.body);
    expect(summary.mode).toBe('useranddevice');
    expect(summary.counters).toMatchObject({ failed: 0, total: ids.length });
    expect(await snapshot(companyId, ids)).toEqual(before);
  });
});
