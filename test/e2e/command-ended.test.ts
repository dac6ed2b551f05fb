// Issue 27, point 5: "the command_ended XMPP message (document 1) goes through the outbox to the
// administrator when the work ends, tested end to end on Prosody". Document 1, Events, Command
// ended: "Stanza message, type = management, child command_ended (namespace
// jabber:iq:configuration) with attribute commandId." Triggered here by createReportForCommand
// (no import needed); Prosody is started by .ci/run (test/e2e/prosody.ts says how by hand).
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { captureLog } from '../support/log-capture.ts';
import { makeCompany, makeUser, PASSWORD } from '../support/factories.ts';
import { createBackground, type Background } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';
import {
  PROSODY,
  holdProsody,
  loginClient,
  registerAccount,
  requireProsody,
  serviceConfigOnProsody,
  type TestClient,
} from './prosody.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const M = '/api/svc/massprovisioning/v1.0';
const config = serviceConfigOnProsody({ accounts: 'none' });

let t: TestApp;
let bg: Background;
const clients: TestClient[] = [];
let releaseProsody: (() => void) | undefined;

async function waitConnected(b: Background, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!b.xmpp.connected()) {
    if (Date.now() > end) throw new Error('the component did not connect to Prosody');
    await new Promise((r) => setTimeout(r, 50));
  }
}

before(
  async () => {
    // The suite is skipped on the PostgreSQL pass: nothing to set up (nor the shared Prosody to hold).
    if (SKIP_ENGINE_FREE) return;
    releaseProsody = await holdProsody();
    await requireProsody();
    t = await createTestApp({ config });
    // With the application: the import job runs as the administrator who asked (imports.jobs.ts).
    bg = createBackground({
      app: t.deps,
      database: t.deps.database,
      modules: MODULE_WORK,
      config,
      now: t.deps.now,
      log: captureLog().log,
      countersEverySeconds: 0,
    });
    t.deps.background = bg;
    await bg.start();
    await waitConnected(bg);
  },
  { timeout: 20 * 60_000 },
);

after(async () => {
  for (const c of clients) await c.stop();
  await bg?.stop();
  await t?.close();
  releaseProsody?.();
});

describe('issue 27, point 5: command_ended end to end (Prosody)', { skip: SKIP_ENGINE_FREE }, () => {
  it('doc 1, Events, Command ended: createReportForCommand delivers <message type="management"><command_ended xmlns="jabber:iq:configuration" commandId=.../> to the administrator who asked, and to no one else', async () => {
    const companyId = await makeCompany(t);
    const admin = await makeUser(t, companyId, ['company_admin']);
    const colleague = await makeUser(t, companyId, ['company_admin']);
    // Their XMPP accounts under their JIDs (<user id>@localhost), signed in.
    for (const u of [admin, colleague]) {
      await registerAccount(u.id, PASSWORD);
      clients.push(await loginClient(u.id, PASSWORD));
    }
    const [adminClient, colleagueClient] = clients.slice(-2);

    const commandId = `e2e-${randomBytes(6).toString('hex')}`;
    const res = await t.inject({
      method: 'POST',
      url: `${M}/users/imports/synchronize/${commandId}/report`,
      headers: bearer(admin.token),
      payload: { details: 'nothing to import today', status: 'success' },
    });
    expect(res.statusCode).toBe(201);

    const isEnded = (el: { is: (n: string) => boolean; getChild: (n: string, ns?: string) => unknown }) =>
      el.is('message') && el.getChild('command_ended', 'jabber:iq:configuration') !== undefined;
    const msg = await adminClient.waitFor(isEnded);
    expect(msg.attrs).toMatchObject({ type: 'management', from: PROSODY.componentDomain });
    expect(msg.attrs.to).toMatch(new RegExp(`^${admin.id}@${PROSODY.userDomain}`));
    const child = msg.getChild('command_ended', 'jabber:iq:configuration')!;
    expect(child.attrs).toEqual({ xmlns: 'jabber:iq:configuration', commandId });
    expect(child.getChildElements()).toEqual([]);
    // Delivered through the outbox: the stanza id is the outbox row's id.
    expect(typeof msg.attrs.id).toBe('string');

    // A second report under the same commandId ends with a second message, in order.
    const again = await t.inject({
      method: 'POST',
      url: `${M}/users/imports/synchronize/${commandId}/report`,
      headers: bearer(admin.token),
      payload: { details: 'done by hand', status: 'failure' },
    });
    expect(again.statusCode).toBe(201);
    const second = await adminClient.waitFor((el) => isEnded(el) && el.attrs.id !== msg.attrs.id);
    expect(second.getChild('command_ended', 'jabber:iq:configuration')!.attrs.commandId).toBe(commandId);

    // The colleague, of the same company, is not told (the message goes to the administrator who asked).
    await new Promise((r) => setTimeout(r, 500));
    expect(colleagueClient.received.filter(isEnded)).toEqual([]);
  });

  it('issue 27, point 5: an import and a check started with commandId by a company_admin deliver command_ended to him when the work ends; getImportReportForCommand and getCheckReportForCommand then answer', async () => {
    const companyId = await makeCompany(t);
    const admin = await makeUser(t, companyId, ['company_admin']);
    await registerAccount(admin.id, PASSWORD);
    const client = await loginClient(admin.id, PASSWORD);
    clients.push(client);
    const endedFor = (commandId: string) => (el: TestClient['received'][number]) =>
      el.is('message') &&
      el.attrs.type === 'management' &&
      el.getChild('command_ended', 'jabber:iq:configuration')?.attrs.commandId === commandId;
    const post = (path: string, commandId: string, csv: string) =>
      t.inject({
        method: 'POST',
        url: `${M}${path}?commandId=${commandId}`,
        headers: { ...bearer(admin.token), 'content-type': 'text/csv' },
        payload: csv,
      });
    const tag = randomBytes(4).toString('hex');
    const csv = `loginEmail;firstName;lastName\nce-${tag}-1@e2e.example;Ann;One\nce-${tag}-2@e2e.example;Bob;Two\n`;

    // The check: its command_ended once its report is kept, then the report under the commandId.
    const checkId = `e2e-check-${tag}`;
    const noCheckYet = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/synchronize/check/${checkId}/report`,
      headers: bearer(admin.token),
    });
    expect(noCheckYet.statusCode).toBe(404);
    const checked = await post('/users/imports/check', checkId, csv);
    expect(checked.statusCode).toBe(200);
    const checkMsg = await client.waitFor(endedFor(checkId));
    expect(checkMsg.attrs.to).toMatch(new RegExp(`^${admin.id}@${PROSODY.userDomain}`));
    const checkReport = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/synchronize/check/${checkId}/report`,
      headers: bearer(admin.token),
    });
    expect(checkReport.statusCode).toBe(200);
    expect(checkReport.json()).toMatchObject({ status: 'success', report: { mode: 'user', total: 2, valid: 2 } });
    expect(checkReport.json().report.reqId).toBe(checked.json().data.reqId);

    // The import: command_ended when its job ends (not at its 202), then its summary under the commandId.
    const importId = `e2e-import-${tag}`;
    const started = await post('/users/imports', importId, csv);
    expect(started.statusCode).toBe(202);
    const reqId = started.json().data.reqId;
    const msg = await client.waitFor(endedFor(importId));
    expect(msg.attrs.from).toBe(PROSODY.componentDomain);
    expect(msg.getChild('command_ended', 'jabber:iq:configuration')!.attrs).toEqual({
      xmlns: 'jabber:iq:configuration',
      commandId: importId,
    });
    // When the message arrives, the work has ended: the summary is Terminated with every line counted.
    const answer = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/synchronize/${importId}/report`,
      headers: bearer(admin.token),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      status: 'success',
      report: {
        reqId,
        status: 'Terminated',
        companyId,
        userId: admin.id,
        counters: { succeeded: 2, failed: 0, warnings: 0, total: 2 },
      },
    });
    // One message per end: the import's commandId was not told twice.
    await new Promise((r) => setTimeout(r, 500));
    expect(client.received.filter(endedFor(importId)).length).toBe(1);
    expect(client.received.filter(endedFor(checkId)).length).toBe(1);
  });
});
