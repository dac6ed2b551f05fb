// Document 3, System.connectionHistory: the logins and logouts of a system's gateway, recorded
// from the presences the gateway's session sends the service's component (decisions in
// docs/decisions.md, "Connection history"). These tests hand presences to the modules the way the
// background does (handleModulePresence); test/e2e/systems.test.ts does it through Prosody.
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite } from '../support/factories.ts';
import { handleModulePresence } from '../../src/modules/index.ts';
import type { JobDeps } from '../../src/modules/module.ts';
import { CONNECTION_HISTORY_LIMIT } from '../../src/modules/systems/connections.service.ts';
import { systemConnectionEvents } from '../../src/modules/systems/systems.tables.ts';

const SYSTEMS = '/api/svc/admin/v1.0/systems';
let t: TestApp;
let site: string;
let deps: JobDeps;

before(async () => {
  t = await createTestApp();
  site = await makeSite(t, await makeCompany(t));
  // What the background hands each module's presence handler (src/background.ts).
  deps = { db: t.db, queue: undefined as never, ports: undefined as never, config: t.deps.config, now: t.clock.now };
});
after(() => t.close());

const createSystem = async (body: object = {}) => {
  const res = await t.inject({
    method: 'POST',
    url: SYSTEMS,
    headers: bearer(t.superToken),
    payload: { siteId: site, name: 'PBX', ...body },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as Record<string, any>;
};
const getSystem = async (id: string) =>
  (
    await t.inject({ method: 'GET', url: `${SYSTEMS}/${id}?connectionHistory=true`, headers: bearer(t.superToken) })
  ).json().data;
const presence = (from: string, available: boolean) => handleModulePresence({ from, available }, deps);

describe("doc 3, System.connectionHistory: the gateway's logins and logouts", () => {
  it("doc 3, connectionHistory: the gateway's presence (jid_pbxpcg/gateway) is a LOGIN with its date, its unavailable presence a LOGOUT; oldest first", async () => {
    const s = await createSystem();
    const loginAt = t.clock.now().toISOString();
    await presence(`${s.jid_pbxpcg}/gateway`, true);
    t.clock.advance(60_000);
    const logoutAt = t.clock.now().toISOString();
    await presence(`${s.jid_pbxpcg}/gateway`, false);
    expect((await getSystem(s.id)).connectionHistory).toEqual([
      { eventType: 'LOGIN', eventDate: loginAt },
      { eventType: 'LOGOUT', eventDate: logoutAt },
    ]);
  });

  it('doc 3, connectionHistory: a presence update of a connected gateway is no new LOGIN, a second unavailable no new LOGOUT', async () => {
    const s = await createSystem();
    await presence(`${s.jid_pbxpcg}/gateway`, true);
    await presence(`${s.jid_pbxpcg}/gateway`, true);
    await presence(`${s.jid_pbxpcg}/gateway`, false);
    await presence(`${s.jid_pbxpcg}/gateway`, false);
    await presence(`${s.jid_pbxpcg}/gateway`, true);
    expect((await getSystem(s.id)).connectionHistory.map((e: { eventType: string }) => e.eventType)).toEqual([
      'LOGIN',
      'LOGOUT',
      'LOGIN',
    ]);
  });

  it("doc 3, connectionHistory: presences of another resource, of the PBX agent account or of an unknown account are no gateway's and change nothing", async () => {
    const s = await createSystem();
    await presence(`${s.jid_pbxpcg}/other`, true);
    await presence(s.jid_pbxpcg, true);
    await presence(`${s.jid_pbxagent}/gateway`, true);
    await presence('someone@localhost/gateway', true);
    const got = await getSystem(s.id);
    expect(got.connectionHistory).toEqual([]);
    expect(got.status).toBe('created');
  });

  it(`doc 3, connectionHistory: bounded, only the last ${CONNECTION_HISTORY_LIMIT} events of a system are kept, in order`, async () => {
    const s = await createSystem();
    const total = CONNECTION_HISTORY_LIMIT + 7;
    const dates: string[] = [];
    for (let i = 0; i < total; i++) {
      t.clock.advance(1000);
      dates.push(t.clock.now().toISOString());
      await presence(`${s.jid_pbxpcg}/gateway`, i % 2 === 0);
    }
    const history = (await getSystem(s.id)).connectionHistory as { eventType: string; eventDate: string }[];
    expect(history).toHaveLength(CONNECTION_HISTORY_LIMIT);
    expect(history.map((e) => e.eventDate)).toEqual(dates.slice(-CONNECTION_HISTORY_LIMIT));
    expect(history.at(-1)).toEqual({ eventType: (total - 1) % 2 === 0 ? 'LOGIN' : 'LOGOUT', eventDate: dates.at(-1) });
    expect(
      (await t.db.select().from(systemConnectionEvents).where(eq(systemConnectionEvents.systemId, s.id))).length,
    ).toBe(CONNECTION_HISTORY_LIMIT);
  });

  it("doc 3, system status: the gateway's first login moves a created system to activated (statusUpdatedDate follows); a logout leaves it; a terminated system stays terminated", async () => {
    const s = await createSystem();
    expect(s.status).toBe('created');
    t.clock.advance(5000);
    await presence(`${s.jid_pbxpcg}/gateway`, true);
    const activated = await getSystem(s.id);
    expect(activated).toMatchObject({ status: 'activated', statusUpdatedDate: t.clock.now().toISOString() });
    t.clock.advance(5000);
    await presence(`${s.jid_pbxpcg}/gateway`, false);
    expect(await getSystem(s.id)).toMatchObject({
      status: 'activated',
      statusUpdatedDate: activated.statusUpdatedDate,
    });

    const ended = await createSystem();
    expect(
      (
        await t.inject({
          method: 'PUT',
          url: `${SYSTEMS}/${ended.id}`,
          headers: bearer(t.superToken),
          payload: { status: 'terminated' },
        })
      ).statusCode,
    ).toBe(200);
    await presence(`${ended.jid_pbxpcg}/gateway`, true);
    const after = await getSystem(ended.id);
    expect(after.status).toBe('terminated');
    expect(after.connectionHistory.map((e: { eventType: string }) => e.eventType)).toEqual(['LOGIN']);
  });

  it('doc 3, list systems: connectionHistory=true gives each system its own history; without it there is none', async () => {
    const a = await createSystem({ name: 'ListA' });
    const b = await createSystem({ name: 'ListB' });
    await presence(`${a.jid_pbxpcg}/gateway`, true);
    const list = (
      await t.inject({
        method: 'GET',
        url: `${SYSTEMS}?name=List&connectionHistory=true&format=full`,
        headers: bearer(t.superToken),
      })
    ).json().data as Record<string, any>[];
    const byId = new Map(list.map((s) => [s.id, s]));
    expect(byId.get(a.id)!.connectionHistory.map((e: { eventType: string }) => e.eventType)).toEqual(['LOGIN']);
    expect(byId.get(b.id)!.connectionHistory).toEqual([]);
    const plain = (
      await t.inject({ method: 'GET', url: `${SYSTEMS}?name=List&format=full`, headers: bearer(t.superToken) })
    ).json().data as Record<string, any>[];
    expect(plain.every((s) => s.connectionHistory === undefined)).toBe(true);
  });

  it('doc 3, delete system: its connection history goes with it', async () => {
    const s = await createSystem();
    await presence(`${s.jid_pbxpcg}/gateway`, true);
    expect(
      (await t.inject({ method: 'DELETE', url: `${SYSTEMS}/${s.id}`, headers: bearer(t.superToken) })).statusCode,
    ).toBe(200);
    expect(await t.db.select().from(systemConnectionEvents).where(eq(systemConnectionEvents.systemId, s.id))).toEqual(
      [],
    );
  });
});
