// Issue 27, point 5: the results kept per commandId (document 3: getCheckReportForCommand,
// getImportReportForCommand, createReportForCommand) and the command_ended event (document 1,
// Events, Command ended) written to the outbox. End to end on Prosody: test/e2e/command-ended.test.ts.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { SUPERADMIN, bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { importCommands, imports } from '../../src/modules/imports/imports.tables.ts';
import {
  checkCommandId,
  recordCheck,
  recordImport,
  type CheckReportValue,
} from '../../src/modules/imports/commands.service.ts';
import { AppError } from '../../src/errors/catalogue.ts';

const M = '/api/svc/massprovisioning/v1.0';
let t: TestApp;
let companyId: string;
let admin: MadeUser;
let otherCompany: string;
let otherAdmin: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  companyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
  otherCompany = await makeCompany(t);
  otherAdmin = await makeUser(t, otherCompany, ['company_admin']);
});
afterAll(() => t.close());

const newCommandId = () => `cmd-${randomBytes(6).toString('hex')}`;
const post = (commandId: string, payload: object, token = admin.token, query = '') =>
  t.inject({
    method: 'POST',
    url: `${M}/users/imports/synchronize/${commandId}/report${query}`,
    headers: bearer(token),
    payload,
  });
const getCheck = (commandId: string, token = admin.token) =>
  t.inject({ method: 'GET', url: `${M}/users/imports/synchronize/check/${commandId}/report`, headers: bearer(token) });
const getImport = (commandId: string, token = admin.token) =>
  t.inject({ method: 'GET', url: `${M}/users/imports/synchronize/${commandId}/report`, headers: bearer(token) });

async function jidOf(userId: string): Promise<string> {
  const [u] = await t.db.select({ jid: users.jidIm }).from(users).where(eq(users.id, userId));
  return u.jid!;
}
const eventsTo = (jid: string) => t.db.select().from(outbox).where(eq(outbox.recipient, jid)).orderBy(outbox.seq);

const REPORT: CheckReportValue = {
  reqId: 'abc123',
  mode: 'useranddevice',
  actions: { upsert: 2, sync: 0 },
  columns: 4,
  delimiter: ',',
  ignoredColumns: ['unknown'],
  profiles: [],
  total: 2,
  valid: 1,
  errors: [
    {
      line: 3,
      login: 'bob@example.com',
      error: { code: 1004, message: 'column country: not an ISO 3166-1 alpha-3 country code' },
    },
  ],
};

describe('issue 27, point 5: createReportForCommand', () => {
  it('records {details, status} under the commandId for the company, answers 201 {status, report: {details}} and writes command_ended to the caller', async () => {
    const commandId = newCommandId();
    const jid = await jidOf(admin.id);
    const before = (await eventsTo(jid)).length;
    const res = await post(commandId, { details: 'nothing to import', status: 'failure' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'failure', report: { details: 'nothing to import' } });
    const [row] = await t.db.select().from(importCommands).where(eq(importCommands.id, commandId));
    expect(row).toMatchObject({
      companyId,
      userId: admin.id,
      report: { details: 'nothing to import', status: 'failure' },
      checkReport: null,
      reqId: null,
    });
    const events = await eventsTo(jid);
    expect(events.length).toBe(before + 1);
    const ev = events.at(-1)!;
    expect(ev.kind).toBe('command_ended');
    expect(ev.stanza).toBe(
      `<message type="management"><command_ended xmlns="jabber:iq:configuration" commandId="${commandId}"/></message>`,
    );

    // The last one is kept, and each ends with its own command_ended.
    const again = await post(commandId, { details: 'done by hand', status: 'success' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ status: 'success', report: { details: 'done by hand' } });
    const [row2] = await t.db.select().from(importCommands).where(eq(importCommands.id, commandId));
    expect(row2.report).toEqual({ details: 'done by hand', status: 'success' });
    expect((await eventsTo(jid)).length).toBe(before + 2);
  });

  it('a superadmin records for the company named by companyId; the row is of that company and command_ended goes to the superadmin', async () => {
    const commandId = newCommandId();
    const res = await post(commandId, { details: 'x', status: 'success' }, t.superToken, `?companyId=${companyId}`);
    expect(res.statusCode).toBe(201);
    const [row] = await t.db.select().from(importCommands).where(eq(importCommands.id, commandId));
    expect(row.companyId).toBe(companyId);
    const [root] = await t.db.select().from(users).where(eq(users.loginEmail, SUPERADMIN.email));
    expect(row.userId).toBe(root.id);
    const ended = (await eventsTo(root.jidIm!)).filter((e) => e.stanza.includes(`commandId="${commandId}"`));
    expect(ended.length).toBe(1);
    expect((await eventsTo(await jidOf(admin.id))).some((e) => e.stanza.includes(commandId))).toBe(false);
    // The company_admin of that company reads what the superadmin recorded (404900: no check report, but not 404000).
    expect((await getCheck(commandId)).json().errorDetailsCode).toBe(404900);
  });

  it('a commandId already used by another company is 409 (409000) and its row is left as it was, with no event', async () => {
    const commandId = newCommandId();
    expect((await post(commandId, { details: 'mine', status: 'success' })).statusCode).toBe(201);
    const jid = await jidOf(otherAdmin.id);
    const before = (await eventsTo(jid)).length;
    const res = await post(commandId, { details: 'theirs', status: 'failure' }, otherAdmin.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().errorDetailsCode).toBe(409000);
    const [row] = await t.db.select().from(importCommands).where(eq(importCommands.id, commandId));
    expect(row).toMatchObject({ companyId, userId: admin.id, report: { details: 'mine', status: 'success' } });
    expect((await eventsTo(jid)).length).toBe(before);
  });

  it('bad bodies are 400 and record nothing: status other than success or failure, details missing or empty', async () => {
    for (const payload of [
      { details: 'x', status: 'done' },
      { status: 'success' },
      { details: '', status: 'success' },
    ]) {
      const commandId = newCommandId();
      expect((await post(commandId, payload)).statusCode).toBe(400);
      expect(await t.db.select().from(importCommands).where(eq(importCommands.id, commandId))).toEqual([]);
    }
  });

  it('issue 27, point 10: a plain user and an administrator of another company (companyId) are refused', async () => {
    const plain = await makeUser(t, companyId);
    expect((await post(newCommandId(), { details: 'x', status: 'success' }, plain.token)).statusCode).toBe(404);
    expect(
      (await post(newCommandId(), { details: 'x', status: 'success' }, otherAdmin.token, `?companyId=${companyId}`))
        .statusCode,
    ).toBe(404);
  });
});

describe('issue 27, point 5: getCheckReportForCommand', () => {
  it('answers {status: success, report} with the last check report recorded under the commandId', async () => {
    const commandId = newCommandId();
    await recordCheck(t.db, {
      commandId,
      companyId,
      userId: admin.id,
      report: { ...REPORT, total: 1 },
      now: new Date(),
    });
    await recordCheck(t.db, { commandId, companyId, userId: admin.id, report: REPORT, now: new Date() });
    const res = await getCheck(commandId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'success', report: REPORT });
  });

  it('404900 when the commandId has results but no check report; 404 (404000) for an unknown commandId', async () => {
    const commandId = newCommandId();
    await recordImport(t.db, { commandId, companyId, userId: admin.id, reqId: 'nope', now: new Date() });
    const res = await getCheck(commandId);
    expect(res.statusCode).toBe(404);
    expect(res.json().errorDetailsCode).toBe(404900);
    const unknown = await getCheck(newCommandId());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorDetailsCode).not.toBe(404900);
  });

  it("issue 27, point 10: another company's administrator gets 404, as for an unknown commandId", async () => {
    const commandId = newCommandId();
    await recordCheck(t.db, { commandId, companyId, userId: admin.id, report: REPORT, now: new Date() });
    const res = await getCheck(commandId, otherAdmin.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().errorDetailsCode).toBe(
      (await getCheck(newCommandId(), otherAdmin.token)).json().errorDetailsCode,
    );
    expect((await getCheck(commandId, t.superToken)).statusCode).toBe(200);
  });

  it('recordCheck, recordImport and checkCommandId refuse a commandId of another company (409000) and leave its row', async () => {
    const commandId = newCommandId();
    await recordCheck(t.db, { commandId, companyId, userId: admin.id, report: REPORT, now: new Date() });
    const refused = await recordCheck(t.db, {
      commandId,
      companyId: otherCompany,
      userId: otherAdmin.id,
      report: { ...REPORT, total: 9 },
      now: new Date(),
    }).catch((e: unknown) => e);
    expect(refused instanceof AppError && refused.key).toBe('CONFLICT');
    const refused2 = await recordImport(t.db, {
      commandId,
      companyId: otherCompany,
      userId: otherAdmin.id,
      reqId: 'x',
      now: new Date(),
    }).catch((e: unknown) => e);
    expect(refused2 instanceof AppError && refused2.key).toBe('CONFLICT');
    const refused3 = await checkCommandId(t.db, commandId, otherCompany).catch((e: unknown) => e);
    expect(refused3 instanceof AppError && refused3.key).toBe('CONFLICT');
    // Its own company, and an unused commandId, pass.
    await checkCommandId(t.db, commandId, companyId);
    await checkCommandId(t.db, newCommandId(), otherCompany);
    const [row] = await t.db.select().from(importCommands).where(eq(importCommands.id, commandId));
    expect(row).toMatchObject({ companyId, userId: admin.id, reqId: null, checkReport: REPORT });
  });
});

describe('issue 27, point 5: getImportReportForCommand', () => {
  async function anImport(reqId: string) {
    await t.db.insert(imports).values({
      id: reqId,
      companyId,
      userId: admin.id,
      displayName: 'First Last',
      label: 'April',
      route: 'sync',
      mode: 'useranddevice',
      status: 'Terminated',
      options: { delimiter: ',', comment: '%', noemails: false, nostrict: false },
      startTime: new Date('2026-11-21T08:00:00.000Z'),
      endTime: new Date('2026-11-21T08:00:05.000Z'),
      succeeded: 3,
      failed: 1,
      total: 4,
    });
  }

  it('answers {status: success, report: summary} of the last import started with the commandId; 404900 once its report is deleted', async () => {
    const commandId = newCommandId();
    const first = `req-${randomBytes(6).toString('hex')}`;
    const last = `req-${randomBytes(6).toString('hex')}`;
    await anImport(first);
    await anImport(last);
    await recordImport(t.db, { commandId, companyId, userId: admin.id, reqId: first, now: new Date() });
    await recordImport(t.db, { commandId, companyId, userId: admin.id, reqId: last, now: new Date() });
    const res = await getImport(commandId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'success',
      report: {
        reqId: last,
        status: 'Terminated',
        label: 'April',
        mode: 'useranddevice',
        displayName: 'First Last',
        userId: admin.id,
        companyId,
        startTime: '2026-11-21T08:00:00.000Z',
        endTime: '2026-11-21T08:00:05.000Z',
        counters: { succeeded: 3, failed: 1, warnings: 0, total: 4 },
      },
    });
    await t.db.delete(imports).where(eq(imports.id, last));
    const gone = await getImport(commandId);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().errorDetailsCode).toBe(404900);
  });

  it('404900 when only a check or a report was recorded under the commandId', async () => {
    const commandId = newCommandId();
    expect((await post(commandId, { details: 'x', status: 'success' })).statusCode).toBe(201);
    const res = await getImport(commandId);
    expect(res.statusCode).toBe(404);
    expect(res.json().errorDetailsCode).toBe(404900);
  });

  it("issue 27, point 10: another company's administrator gets 404", async () => {
    const commandId = newCommandId();
    const reqId = `req-${randomBytes(6).toString('hex')}`;
    await anImport(reqId);
    await recordImport(t.db, { commandId, companyId, userId: admin.id, reqId, now: new Date() });
    expect((await getImport(commandId, otherAdmin.token)).statusCode).toBe(404);
    expect((await getImport(commandId)).statusCode).toBe(200);
  });
});
