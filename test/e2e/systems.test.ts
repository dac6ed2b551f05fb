// Issue 12, point 5: a telephone system's gateway as a real XMPP peer. A test gateway logs in to
// Prosody as the system's jid_pbxpcg (resource `gateway`) with the password the service generated,
// checks the structure of the iq of document 1 (elements, namespace, attributes, text children)
// and acknowledges, refuses, stays silent or answers late; the API's answers and the stored state
// follow. The gateway sends its presence to the service's component address when it logs in;
// the system's connectionHistory shows its logins and logouts (document 3). Needs Prosody
// (test/e2e/prosody.ts says how to start it).
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Element } from '@xmpp/xml';
import { client } from '@xmpp/client';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite } from '../support/factories.ts';
import { captureLog } from '../support/log-capture.ts';
import { createBackground, type Background } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';
import { systems } from '../../src/modules/systems/systems.tables.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import {
  PROSODY,
  loginClient,
  requireProsody,
  xml,
  type TestClient,
  holdProsody,
  serviceConfigOnProsody,
} from './prosody.ts';

const NS = 'urn:xmpp:pbxagent:config:1';
const TIMEOUT_MS = 1500;
// The service makes the system's accounts on Prosody itself.
const config = serviceConfigOnProsody({ accounts: 'prosodyctl', requestTimeoutMs: TIMEOUT_MS });
const SYSTEMS = '/api/svc/admin/v1.0/systems';

let t: TestApp;
let bg: Background;
let gateway: TestClient;
let system: Record<string, any>;
/** How the test gateway answers: ack, refuse, silent, or late (an acknowledgement after the timeout). */
let mode: 'ack' | 'refuse' | 'silent' | 'late' = 'ack';
const problems: string[] = [];

/** Document 1: iq type=set, config in its namespace, one user (action=update) or pbx (action=delete) with text children only. */
function checkStructure(iq: Element): void {
  const config = iq.getChild('config', NS);
  if (iq.attrs.type !== 'set' || !iq.attrs.id || !config)
    return void problems.push(`not an iq set with config: ${iq.toString()}`);
  const [child, ...more] = config.getChildElements();
  if (!child || more.length) return void problems.push(`config holds one element: ${iq.toString()}`);
  if (child.name === 'user') {
    const names = child.getChildElements().map((e: Element) => e.name);
    const expected = [
      'shortNumber',
      'internalNumber',
      'voiceMailNumber',
      'numberE164',
      'isMonitored',
      'userId',
      'jid_im',
      'jid_tel',
      'jid_password',
    ];
    if (child.attrs.action !== 'update' || names.join() !== expected.join()) problems.push(`user: ${child.toString()}`);
  } else if (child.name !== 'pbx' || child.attrs.action !== 'delete') problems.push(`unexpected ${child.toString()}`);
  for (const e of child.getChildElements())
    if (e.getChildElements().length) problems.push(`${e.name} is not a text element`);
}

let releaseProsody: (() => void) | undefined;

before(
  async () => {
    // One end-to-end file at a time on the shared Prosody (the hook waits meanwhile: its timeout).
    releaseProsody = await holdProsody();
    await requireProsody();
    t = await createTestApp({ config });
    bg = createBackground({
      database: t.deps.database,
      modules: MODULE_WORK,
      config,
      now: t.deps.now,
      log: captureLog().log,
      countersEverySeconds: 0,
    });
    t.deps.background = bg;
    await bg.start();
    for (const end = Date.now() + 15_000; !bg.xmpp.connected();) {
      if (Date.now() > end) throw new Error('the component did not connect to Prosody');
      await new Promise((r) => setTimeout(r, 50));
    }
    const site = await makeSite(t, await makeCompany(t));
    const res = await t.inject({
      method: 'POST',
      url: SYSTEMS,
      headers: bearer(t.superToken),
      payload: { siteId: site, name: 'E2E PBX' },
    });
    system = res.json().data;
    // The gateway logs in with the account the service made on Prosody, with its generated secret.
    const localpart = system.jid_pbxpcg.split('@')[0];
    expect(system.jid_pbxpcg).toBe(`${localpart}@${PROSODY.userDomain}`);
    gateway = await gatewayLogin();
  },
  { timeout: 20 * 60_000 },
);

/**
 * The test gateway logs in as the system's jid_pbxpcg (resource `gateway`) with the password the
 * service generated, and announces itself to the service's component address (docs/decisions.md,
 * "Connection history").
 */
async function gatewayLogin(): Promise<TestClient> {
  const c = await loginClient(system.jid_pbxpcg.split('@')[0], system.jid_pbxpcg_password, 'gateway', (iq, x) => {
    // The service's check of the session (XEP-0199 ping), which xmpp.js answers by itself.
    if (iq.getChild('ping', 'urn:xmpp:ping')) return;
    checkStructure(iq);
    const result = xml('iq', { type: 'result', to: iq.attrs.from, id: iq.attrs.id });
    if (mode === 'ack') void x.send(result);
    else if (mode === 'late') setTimeout(() => void x.send(result).catch(() => undefined), TIMEOUT_MS + 500);
    else if (mode === 'refuse')
      void x.send(
        xml(
          'iq',
          { type: 'error', to: iq.attrs.from, id: iq.attrs.id },
          xml('error', { type: 'cancel' }, xml('not-acceptable', { xmlns: 'urn:ietf:params:xml:ns:xmpp-stanzas' })),
        ),
      );
  });
  await c.xmpp.send(xml('presence', { to: PROSODY.componentDomain }));
  return c;
}

type HistoryEntry = { eventType: 'LOGIN' | 'LOGOUT'; eventDate: string };

/** The system's connectionHistory once it has `n` entries (the presence travels through Prosody). */
async function historyOf(n: number): Promise<{ history: HistoryEntry[]; status: string }> {
  for (const end = Date.now() + 10_000; ;) {
    const data = (
      await t.inject({
        method: 'GET',
        url: `${SYSTEMS}/${system.id}?connectionHistory=true`,
        headers: bearer(t.superToken),
      })
    ).json().data;
    if (data.connectionHistory.length >= n) return { history: data.connectionHistory, status: data.status };
    if (Date.now() > end)
      throw new Error(`connectionHistory has ${JSON.stringify(data.connectionHistory)}, not ${n} entries`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

after(async () => {
  await gateway?.stop();
  await bg?.stop();
  await t?.close();
  releaseProsody?.();
});

/** Whether Prosody refuses these credentials (a client that cannot log in). */
async function loginFails(localpart: string, password: string): Promise<boolean> {
  const c = client({
    service: `xmpp://${PROSODY.host}:${PROSODY.c2sPort}`,
    domain: PROSODY.userDomain,
    username: localpart,
    password,
    resource: 'probe',
  });
  c.on('error', () => undefined);
  c.reconnect.stop();
  try {
    await c.start();
    return false;
  } catch {
    return true;
  } finally {
    await c.stop().catch(() => undefined);
  }
}

const put = (id: string, payload: object) =>
  t.inject({
    method: 'PUT',
    url: `${SYSTEMS}/${system.id}/phone-numbers/${id}`,
    headers: bearer(t.superToken),
    payload,
  });
const stored = async (id: string) =>
  (await t.db.select().from(systemPhoneNumbers).where(eq(systemPhoneNumbers.id, id)))[0];

describe('issue 12, point 5: the gateway of a system over Prosody', () => {
  it('doc 3, connectionHistory: the test gateway logs in as jid_pbxpcg -> a LOGIN entry with its date; the created system is activated', async () => {
    // The clock of the service stands still in tests: the entry's date is the one it shows.
    const { history, status } = await historyOf(1);
    expect(history).toEqual([{ eventType: 'LOGIN', eventDate: t.clock.now().toISOString() }]);
    expect(status).toBe('activated');
  });

  it('issue 12, point 5: a phone number update reaches the gateway logged in as jid_pbxpcg as the iq of document 1; on its acknowledgement the change is stored and answered', async () => {
    const [n] = (
      await t.inject({
        method: 'POST',
        url: `${SYSTEMS}/${system.id}/phone-numbers`,
        headers: bearer(t.superToken),
        payload: { phoneNumbers: [{ shortNumber: '1001' }] },
      })
    ).json().data;
    mode = 'ack';
    const res = await put(n.id, { isMonitored: true, number: '01 42 68 53 00' });
    expect(res.statusCode).toBe(200);
    const iq = await gateway.waitFor(
      (el) => el.is('iq') && el.getChild('config', NS)?.getChild('user')?.getChildText('shortNumber') === '1001',
    );
    expect(iq.attrs).toMatchObject({ type: 'set', from: PROSODY.componentDomain });
    const user = iq.getChild('config', NS)!.getChild('user')!;
    expect(user.getChildElements().map((e: Element) => [e.name, e.getText()])).toEqual([
      ['shortNumber', '1001'],
      ['internalNumber', '1001'],
      ['voiceMailNumber', ''],
      ['numberE164', '+33142685300'],
      ['isMonitored', 'true'],
      ['userId', ''],
      ['jid_im', ''],
      ['jid_tel', ''],
      ['jid_password', ''],
    ]);
    expect(await stored(n.id)).toMatchObject({ isMonitored: true, numberE164: '+33142685300' });
    expect(problems).toEqual([]);
  });

  it('issue 12, point 5: a refusing gateway gives 502, a silent one 504, a late one 504; the number stays as it was', async () => {
    const [n] = (
      await t.inject({
        method: 'POST',
        url: `${SYSTEMS}/${system.id}/phone-numbers`,
        headers: bearer(t.superToken),
        payload: { phoneNumbers: [{ shortNumber: '1002' }] },
      })
    ).json().data;
    const before = await stored(n.id);
    mode = 'refuse';
    expect((await put(n.id, { firstName: 'Refused' })).json()).toMatchObject({
      errorCode: 502,
      errorDetailsCode: 502550,
      errorDetails: { condition: 'not-acceptable' },
    });
    mode = 'silent';
    expect((await put(n.id, { firstName: 'Silent' })).json()).toMatchObject({
      errorCode: 504,
      errorDetailsCode: 504550,
    });
    mode = 'late';
    expect((await put(n.id, { firstName: 'Late' })).json()).toMatchObject({ errorCode: 504, errorDetailsCode: 504550 });
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stored(n.id)).toEqual(before);
    expect(problems).toEqual([]);
  });

  it('issue 12, point 1: the PBX agent logs in with jid_pbxagent and its generated password; after a reset only the new one works', async () => {
    const agentLocal = system.jid_pbxagent.split('@')[0];
    const first = await loginClient(agentLocal, system.jid_pbxagent_password, 'agent');
    await first.stop();
    const reset = await t.inject({
      method: 'POST',
      url: `${SYSTEMS}/${system.id}/reset-password`,
      headers: bearer(t.superToken),
    });
    expect(reset.statusCode).toBe(200);
    const renewed = reset.json().data.jid_pbxagent_password;
    const second = await loginClient(agentLocal, renewed, 'agent');
    await second.stop();
    expect(await loginFails(agentLocal, system.jid_pbxagent_password)).toBe(true);
    system.jid_pbxagent_password = renewed;
  });

  it('doc 3, connectionHistory: the gateway logs out -> a LOGOUT entry with its date; a lost connection too (the server ends the session); logging in again is a new LOGIN', async () => {
    t.clock.advance(60_000);
    const logoutAt = t.clock.now().toISOString();
    await gateway.stop();
    expect((await historyOf(2)).history).toEqual([
      expect.objectContaining({ eventType: 'LOGIN' }),
      { eventType: 'LOGOUT', eventDate: logoutAt },
    ]);
    t.clock.advance(60_000);
    const loginAt = t.clock.now().toISOString();
    gateway = await gatewayLogin();
    expect((await historyOf(3)).history[2]).toEqual({ eventType: 'LOGIN', eventDate: loginAt });
    // The gateway's connection drops without a word (no unavailable presence, no end of stream):
    // Prosody ends the session and sends the unavailable presence on its behalf.
    t.clock.advance(60_000);
    const lostAt = t.clock.now().toISOString();
    gateway.xmpp.reconnect.stop();
    (gateway.xmpp as unknown as { socket: { destroy(): void } }).socket.destroy();
    expect((await historyOf(4)).history[3]).toEqual({ eventType: 'LOGOUT', eventDate: lostAt });
    await gateway.stop();
    gateway = await gatewayLogin();
    expect((await historyOf(5)).history.map((e) => e.eventType)).toEqual([
      'LOGIN',
      'LOGOUT',
      'LOGIN',
      'LOGOUT',
      'LOGIN',
    ]);
  });

  it("doc 3, connectionHistory: the service's connection to Prosody drops; a gateway still there stays logged in, one that left meanwhile gets its LOGOUT when the connection is back", async () => {
    const connected = async () => {
      for (const end = Date.now() + 15_000; !bg.xmpp.connected();) {
        if (Date.now() > end) throw new Error('the component did not reconnect');
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const before = (await historyOf(5)).history;
    expect(before.at(-1)!.eventType).toBe('LOGIN');
    // The gateway stays: once the connection is back the service checks it (a ping) and records nothing.
    await bg.xmpp.stop();
    await bg.xmpp.start();
    await connected();
    await gateway.waitFor((el) => el.is('iq') && !!el.getChild('ping', 'urn:xmpp:ping'));
    await new Promise((r) => setTimeout(r, 1000));
    expect((await historyOf(5)).history).toEqual(before);
    // The gateway leaves while the service is away: its unavailable presence reaches no one.
    await bg.xmpp.stop();
    await gateway.stop();
    t.clock.advance(60_000);
    const checkedAt = t.clock.now().toISOString();
    await bg.xmpp.start();
    await connected();
    expect((await historyOf(6)).history[5]).toEqual({ eventType: 'LOGOUT', eventDate: checkedAt });
    gateway = await gatewayLogin();
    expect((await historyOf(7)).history[6].eventType).toBe('LOGIN');
  });

  it('issue 12, point 5: deleting the system sends the gateway the iq with pbx action=delete; after its acknowledgement the system is gone', async () => {
    mode = 'ack';
    const res = await t.inject({ method: 'DELETE', url: `${SYSTEMS}/${system.id}`, headers: bearer(t.superToken) });
    expect(res.statusCode).toBe(200);
    const iq = await gateway.waitFor(
      (el) => el.is('iq') && el.getChild('config', NS)?.getChild('pbx')?.attrs.action === 'delete',
    );
    expect(iq.getChild('config', NS)!.getChild('pbx')!.getChildText('systemId')).toBe(system.id);
    expect((await t.db.select().from(systems).where(eq(systems.id, system.id))).length).toBe(0);
    // Its accounts are gone from Prosody.
    expect(await loginFails(system.jid_pbxagent.split('@')[0], system.jid_pbxagent_password)).toBe(true);
    expect(problems).toEqual([]);
  });
});
