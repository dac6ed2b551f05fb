// Issue 12, point 5: "With two instances of the service, the reply reaches the instance that
// asked." Two instances of the service (each its application and its background, with its own
// component connection) on one database and one Prosody. Prosody lets one connection hold the
// component address; the other stands by, and its requests go through the database
// (src/xmpp/component.ts, docs/decisions.md "Requests across instances go through the database").
// A phone number update sent to either instance is acknowledged by the gateway and answered 200 by
// that instance with the change stored; a refusal is 502 at the instance that asked.
import { after, before, describe, it } from 'node:test';
import { desc, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite } from '../support/factories.ts';
import { captureLog } from '../support/log-capture.ts';
import { createBackground, type Background } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { xmppRequests } from '../../src/xmpp/xmpp.tables.ts';
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
const config = serviceConfigOnProsody({ accounts: 'prosodyctl' });
const SYSTEMS = '/api/svc/admin/v1.0/systems';

/** One instance of the service: its application and its background. */
interface Instance {
  name: string;
  t: TestApp;
  bg: Background;
}

let a: Instance;
let b: Instance;
let gateway: TestClient;
let system: Record<string, any>;
let refuse = false;

async function startInstance(name: string, t: TestApp): Promise<Instance> {
  const bg = createBackground({
    database: t.deps.database,
    modules: MODULE_WORK,
    config,
    now: t.deps.now,
    log: captureLog().log,
    countersEverySeconds: 0,
  });
  t.deps.background = bg;
  await bg.start();
  return { name, t, bg };
}

let releaseProsody: (() => void) | undefined;

before(
  async () => {
    // One end-to-end file at a time on the shared Prosody (the hook waits meanwhile: its timeout).
    releaseProsody = await holdProsody();
    await requireProsody();
    a = await startInstance('A', await createTestApp({ config }));
    for (const end = Date.now() + 15_000; !a.bg.xmpp.connected();) {
      if (Date.now() > end)
        throw new Error('instance A did not connect to Prosody (another process may hold the component address)');
      await new Promise((r) => setTimeout(r, 50));
    }
    // Instance B: the same database, its own application and background; Prosody refuses it the
    // component address while A holds it, so B stands by.
    b = await startInstance('B', await createTestApp({ config, database: a.t.deps.database }));
    await new Promise((r) => setTimeout(r, 1500));
    const site = await makeSite(a.t, await makeCompany(a.t));
    const res = await b.t.inject({
      method: 'POST',
      url: SYSTEMS,
      headers: bearer(b.t.superToken),
      payload: { siteId: site, name: 'Two-instance PBX' },
    });
    expect(res.statusCode).toBe(201);
    system = res.json().data;
    gateway = await loginClient(system.jid_pbxpcg.split('@')[0], system.jid_pbxpcg_password, 'gateway', (iq, x) => {
      if (refuse)
        void x.send(
          xml(
            'iq',
            { type: 'error', to: iq.attrs.from, id: iq.attrs.id },
            xml('error', { type: 'cancel' }, xml('not-acceptable', { xmlns: 'urn:ietf:params:xml:ns:xmpp-stanzas' })),
          ),
        );
      else void x.send(xml('iq', { type: 'result', to: iq.attrs.from, id: iq.attrs.id }));
    });
    await gateway.xmpp.send(xml('presence', { to: PROSODY.componentDomain }));
  },
  { timeout: 20 * 60_000 },
);

after(async () => {
  await gateway?.stop();
  if (b) {
    // B shares A's database: its application and background stop, A closes the database.
    await b.t.app.close();
    await b.bg.stop();
  }
  await a?.t.close();
  releaseProsody?.();
});

const put = (i: Instance, id: string, payload: object) =>
  i.t.inject({
    method: 'PUT',
    url: `${SYSTEMS}/${system.id}/phone-numbers/${id}`,
    headers: bearer(i.t.superToken),
    payload,
  });
const stored = async (id: string) =>
  (await a.t.db.select().from(systemPhoneNumbers).where(eq(systemPhoneNumbers.id, id)))[0];
/** The last request sent to the gateway: who asked it, who sent it, how it ended. */
async function lastRequest(): Promise<{ askedBy: string; sentBy: string | null; state: string }> {
  const [row] = await a.t.db
    .select()
    .from(xmppRequests)
    .where(eq(xmppRequests.recipient, `${system.jid_pbxpcg}/gateway`))
    .orderBy(desc(xmppRequests.createdAt))
    .limit(1);
  return row;
}

describe('issue 12, point 5: two instances of the service, one Prosody', () => {
  it('issue 12, point 5: one instance holds the component address, the other stands by', () => {
    expect([a.bg.xmpp.connected(), b.bg.xmpp.connected()]).toEqual([true, false]);
  });

  it('issue 12, point 5: an update sent to the standby instance B reaches the gateway through A; B answers 200 and the change is stored', async () => {
    const [n] = (
      await b.t.inject({
        method: 'POST',
        url: `${SYSTEMS}/${system.id}/phone-numbers`,
        headers: bearer(b.t.superToken),
        payload: { phoneNumbers: [{ shortNumber: '3001' }] },
      })
    ).json().data;
    refuse = false;
    const res = await put(b, n.id, { firstName: 'ViaB', isMonitored: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ firstName: 'ViaB', isMonitored: true });
    expect(await stored(n.id)).toMatchObject({ firstName: 'ViaB', isMonitored: true });
    await gateway.waitFor(
      (el) => el.is('iq') && el.getChild('config', NS)?.getChild('user')?.getChildText('shortNumber') === '3001',
    );
    // B asked, A (connected) sent it and received the acknowledgement, B read it.
    expect(await lastRequest()).toMatchObject({ askedBy: b.bg.instanceId, sentBy: a.bg.instanceId, state: 'result' });
  });

  it('issue 12, point 5: the same through the connected instance A', async () => {
    const [n] = (
      await a.t.inject({
        method: 'POST',
        url: `${SYSTEMS}/${system.id}/phone-numbers`,
        headers: bearer(a.t.superToken),
        payload: { phoneNumbers: [{ shortNumber: '3002' }] },
      })
    ).json().data;
    refuse = false;
    const res = await put(a, n.id, { firstName: 'ViaA' });
    expect(res.statusCode).toBe(200);
    expect(await stored(n.id)).toMatchObject({ firstName: 'ViaA' });
    expect(await lastRequest()).toMatchObject({ askedBy: a.bg.instanceId, sentBy: a.bg.instanceId, state: 'result' });
  });

  it('issue 12, point 5: updates sent to both instances at once each get their own answer', async () => {
    const numbers = (
      await a.t.inject({
        method: 'POST',
        url: `${SYSTEMS}/${system.id}/phone-numbers`,
        headers: bearer(a.t.superToken),
        payload: {
          phoneNumbers: [
            { shortNumber: '3011' },
            { shortNumber: '3012' },
            { shortNumber: '3013' },
            { shortNumber: '3014' },
          ],
        },
      })
    ).json().data as { id: string }[];
    refuse = false;
    const via = [b, a, b, a];
    const answers = await Promise.all(numbers.map((n, i) => put(via[i], n.id, { lastName: `Both${i}` })));
    expect(answers.map((r) => [r.statusCode, r.json().data.lastName])).toEqual([
      [200, 'Both0'],
      [200, 'Both1'],
      [200, 'Both2'],
      [200, 'Both3'],
    ]);
    for (const [i, n] of numbers.entries()) expect((await stored(n.id)).lastName).toBe(`Both${i}`);
  });

  it('issue 12, point 5: a refusal of the gateway is 502 at the instance that asked, A or B; nothing changes', async () => {
    const [n] = (
      await a.t.inject({
        method: 'POST',
        url: `${SYSTEMS}/${system.id}/phone-numbers`,
        headers: bearer(a.t.superToken),
        payload: { phoneNumbers: [{ shortNumber: '3003' }] },
      })
    ).json().data;
    const before = await stored(n.id);
    refuse = true;
    for (const i of [b, a]) {
      const res = await put(i, n.id, { firstName: `Refused${i.name}` });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({
        errorCode: 502,
        errorDetailsCode: 502550,
        errorDetails: { condition: 'not-acceptable' },
      });
      expect((await lastRequest()).askedBy).toBe(i.bg.instanceId);
    }
    expect(await stored(n.id)).toEqual(before);
  });

  it("doc 3, connectionHistory: the gateway's login, received by the connected instance, shows through either instance", async () => {
    for (const i of [a, b]) {
      for (const end = Date.now() + 10_000; ;) {
        const data = (
          await i.t.inject({
            method: 'GET',
            url: `${SYSTEMS}/${system.id}?connectionHistory=true`,
            headers: bearer(i.t.superToken),
          })
        ).json().data;
        if (data.connectionHistory.length > 0) {
          expect(data.connectionHistory.map((e: { eventType: string }) => e.eventType)).toEqual(['LOGIN']);
          break;
        }
        if (Date.now() > end) throw new Error(`instance ${i.name} shows no login`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  });
});
