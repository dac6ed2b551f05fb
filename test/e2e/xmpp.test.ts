// Issue 7, points 3 and 5: events and requests over a real XMPP server (Prosody, started by
// .ci/run with .ci/prosody/prosody.cfg.lua). The service connects as a XEP-0114 component; test
// users log in as clients. Without Prosody these tests fail, saying how to start it.
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { captureLog } from '../support/log-capture.ts';
import { createBackground, type Background } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';
import { emit } from '../../src/events/outbox.ts';
import { subscriptionChange } from '../../src/events/stanzas.ts';
import { XmppRequestFailed } from '../../src/xmpp/transport.ts';
import type { Element } from '@xmpp/xml';
import {
  PROSODY,
  loginClient,
  registerAccount,
  requireProsody,
  startProsody,
  stopProsody,
  xml,
  type TestClient,
  holdProsody,
  serviceConfigOnProsody,
} from './prosody.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const PASSWORD = 'Passw0rd!';
const config = serviceConfigOnProsody({ accounts: 'none' });

let t: TestApp;
let bg: Background;
const clients: TestClient[] = [];
const extra: Background[] = [];

async function waitConnected(b: Background, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!b.xmpp.connected()) {
    if (Date.now() > end) throw new Error('the component did not connect to Prosody');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A Prosody account unique to this run (CI runs the suite twice against one Prosody). */
async function account(prefix: string): Promise<string> {
  const localpart = `${prefix}-${randomBytes(5).toString('hex')}`;
  await registerAccount(localpart, PASSWORD);
  return localpart;
}

let releaseProsody: (() => void) | undefined;

before(
  async () => {
    // The suite is skipped on the PostgreSQL pass: nothing to set up (nor the shared Prosody to hold).
    if (SKIP_ENGINE_FREE) return;
    // One end-to-end file at a time on the shared Prosody (the hook waits meanwhile: its timeout).
    releaseProsody = await holdProsody();
    await requireProsody();
    t = await createTestApp({ config });
    const captured = captureLog();
    bg = createBackground({
      database: t.deps.database,
      modules: MODULE_WORK,
      config,
      now: t.deps.now,
      log: captured.log,
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
  for (const b of extra) await b.stop();
  await bg?.stop();
  await t?.close();
  releaseProsody?.();
});

describe('XMPP end to end (Prosody)', { skip: SKIP_ENGINE_FREE }, () => {
  it('gives a created user a jid_im on the user domain, and delivers him a management message as document 1 gives it', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/svc/admin/v1.0/users',
      headers: bearer(t.superToken),
      payload: { loginEmail: `e2e-${randomBytes(4).toString('hex')}@example.com`, password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().data;
    expect(user.jid_im).toBe(`${user.id}@${PROSODY.userDomain}`);
    await registerAccount(user.id, PASSWORD);
    const c = await loginClient(user.id, PASSWORD);
    clients.push(c);

    const [id] = await t.db.transaction((tx) =>
      emit(
        tx,
        user.jid_im,
        subscriptionChange({
          action: 'create',
          subscriptionId: 'sub-1',
          companyId: user.companyId,
          details: {
            offerId: 'off-1',
            offerName: 'Business',
            profileId: 'prof-1',
            profileName: 'Business profile',
            status: 'creating',
            syncOngoing: true,
            maxNumberUsers: 10,
          },
        }),
      ),
    );
    const msg = await c.waitFor((el) => el.is('message') && el.attrs.id === id);
    expect(msg.attrs).toMatchObject({ type: 'management', from: PROSODY.componentDomain, id });
    expect(msg.attrs.to).toMatch(new RegExp(`^${user.id}@${PROSODY.userDomain}`));
    const child = msg.getChild('companysubscription', 'jabber:iq:configuration')!;
    expect(child).toBeDefined();
    expect(child.attrs).toMatchObject({
      xmlns: 'jabber:iq:configuration',
      subscriptionId: 'sub-1',
      companyId: user.companyId,
      action: 'create',
    });
    expect(child.getChildElements().map((e: Element) => [e.name, e.getText()])).toEqual([
      ['offerId', 'off-1'],
      ['offerName', 'Business'],
      ['profileId', 'prof-1'],
      ['profileName', 'Business profile'],
      ['status', 'creating'],
      ['syncOngoing', 'true'],
      ['maxNumberUsers', '10'],
    ]);
    // A delete message has no children.
    const [del] = await t.db.transaction((tx) =>
      emit(
        tx,
        user.jid_im,
        subscriptionChange({ action: 'delete', subscriptionId: 'sub-1', companyId: user.companyId }),
      ),
    );
    const gone = await c.waitFor((el) => el.is('message') && el.attrs.id === del);
    expect(gone.getChild('companysubscription', 'jabber:iq:configuration')!.getChildElements()).toHaveLength(0);
  });

  it('sends an iq to a gateway and returns its result; an error reply and a missing reply are typed failures', async () => {
    const gw = await account('pcg');
    const c = await loginClient(gw, PASSWORD, 'gateway', (iq, x) => {
      const action = iq.getChild('config', 'urn:xmpp:pbxagent:config:1')?.getChild('user')?.attrs.action;
      if (action === 'update')
        void x.send(
          xml(
            'iq',
            { type: 'result', to: iq.attrs.from, id: iq.attrs.id },
            xml('ack', { xmlns: 'urn:xmpp:pbxagent:config:1', status: 'ok' }),
          ),
        );
      else if (action === 'refuse')
        void x.send(
          xml(
            'iq',
            { type: 'error', to: iq.attrs.from, id: iq.attrs.id },
            xml('error', { type: 'cancel' }, xml('item-not-found', { xmlns: 'urn:ietf:params:xml:ns:xmpp-stanzas' })),
          ),
        );
      // action "ignore": no answer at all.
    });
    clients.push(c);
    const to = `${gw}@${PROSODY.userDomain}/gateway`;
    const ask = (action: string, timeoutMs?: number) =>
      bg.xmpp.request(
        to,
        xml(
          'iq',
          { type: 'set' },
          xml(
            'config',
            { xmlns: 'urn:xmpp:pbxagent:config:1' },
            xml('user', { action }, xml('shortNumber', {}, '1001')),
          ),
        ),
        { timeoutMs },
      );

    const reply = await ask('update');
    expect(reply.attrs.type).toBe('result');
    expect(reply.getChild('ack', 'urn:xmpp:pbxagent:config:1')?.attrs.status).toBe('ok');
    // What the gateway received is the stanza of document 1.
    const got = await c.waitFor(
      (el) =>
        el.is('iq') && el.getChild('config', 'urn:xmpp:pbxagent:config:1')?.getChild('user')?.attrs.action === 'update',
    );
    expect(got.attrs).toMatchObject({ type: 'set', from: PROSODY.componentDomain });
    expect(got.getChild('config', 'urn:xmpp:pbxagent:config:1')!.getChild('user')!.getChildText('shortNumber')).toBe(
      '1001',
    );

    const refused = await ask('refuse').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(XmppRequestFailed);
    expect(refused).toMatchObject({ reason: 'error', condition: 'item-not-found' });

    const started = Date.now();
    const silent = await ask('ignore', 800).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(XmppRequestFailed);
    expect(silent).toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
  });

  it('gets each reply to the instance that asked when two instances share the component', async () => {
    // A second instance on the same database and component address: Prosody lets one connection
    // hold the address, so this one stands by (and would take over if the first dropped).
    const second = createBackground({
      database: t.deps.database,
      modules: MODULE_WORK,
      config,
      now: t.deps.now,
      countersEverySeconds: 0,
    });
    extra.push(second);
    await second.start();
    await new Promise((r) => setTimeout(r, 500));
    expect([bg.xmpp.connected(), second.xmpp.connected()].filter(Boolean)).toHaveLength(1);
    const gw = await account('pcg2');
    const c = await loginClient(gw, PASSWORD, 'gateway', (iq, x) => {
      const n = iq.getChild('config', 'urn:xmpp:pbxagent:config:1')?.getChild('user')?.getChildText('shortNumber');
      void x.send(
        xml(
          'iq',
          { type: 'result', to: iq.attrs.from, id: iq.attrs.id },
          xml('ack', { xmlns: 'urn:xmpp:pbxagent:config:1', shortNumber: n }),
        ),
      );
    });
    clients.push(c);
    const to = `${gw}@${PROSODY.userDomain}/gateway`;
    const ask = (b: Background, n: string) =>
      b.xmpp.request(
        to,
        xml(
          'iq',
          { type: 'set' },
          xml(
            'config',
            { xmlns: 'urn:xmpp:pbxagent:config:1' },
            xml('user', { action: 'update' }, xml('shortNumber', {}, n)),
          ),
        ),
      );
    const replies = await Promise.all([ask(bg, '2001'), ask(second, '2002'), ask(second, '2003'), ask(bg, '2004')]);
    expect(replies.map((r) => r.getChild('ack', 'urn:xmpp:pbxagent:config:1')?.attrs.shortNumber)).toEqual([
      '2001',
      '2002',
      '2003',
      '2004',
    ]);
    await second.stop();
  });

  it('loses no event while Prosody is down: every event arrives, in commit order, after it is back', async () => {
    const user = await account('outage');
    const jid = `${user}@${PROSODY.userDomain}`;
    const c = await loginClient(user, PASSWORD);
    clients.push(c);
    await stopProsody();
    try {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const [id] = await t.db.transaction((tx) =>
          emit(
            tx,
            jid,
            subscriptionChange({
              action: 'update',
              subscriptionId: `out-${i}`,
              companyId: 'c',
              details: {
                offerId: 'o',
                offerName: 'O',
                profileId: 'p',
                profileName: 'P',
                status: 'active',
                syncOngoing: true,
                maxNumberUsers: i,
              },
            }),
          ),
        );
        ids.push(id);
      }
      await new Promise((r) => setTimeout(r, 500));
      expect(bg.xmpp.connected()).toBe(false);
      await startProsody();
      await waitConnected(bg);
      await c.waitFor((el) => el.is('message') && el.attrs.id === ids[4], 20_000);
      // Each event once (a redelivery would carry the same id) and in the order of the commits.
      const seen = c.received.filter((el) => el.is('message') && ids.includes(el.attrs.id!)).map((el) => el.attrs.id);
      expect([...new Set(seen)]).toEqual(ids);
    } finally {
      await startProsody();
    }
  });

  it('connects an instance started while Prosody is down once it is up, and a standby instance takes over from one that stops', async () => {
    await stopProsody();
    const late = createBackground({
      database: t.deps.database,
      modules: MODULE_WORK,
      config,
      now: t.deps.now,
      countersEverySeconds: 0,
    });
    extra.push(late);
    await late.start();
    await new Promise((r) => setTimeout(r, 1500));
    expect(late.xmpp.connected()).toBe(false);
    await startProsody();
    const end = Date.now() + 15_000;
    while (!bg.xmpp.connected() && !late.xmpp.connected() && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    expect([bg.xmpp.connected(), late.xmpp.connected()].filter(Boolean)).toHaveLength(1);
    // The one holding the address stops: the other takes it over by itself.
    const [holder, standby] = late.xmpp.connected() ? [late, bg] : [bg, late];
    await holder.xmpp.stop();
    await waitConnected(standby);
    if (holder === bg) await bg.xmpp.start();
  });
});
