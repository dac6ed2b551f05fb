// Issue 7, point 6: superadmin lists jobs and outbox events by state, with paging, and the
// counters of background work appear in the logs.
import { after, before, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeUser } from '../support/factories.ts';
import { captureLog } from '../support/log-capture.ts';
import { createJobQueue, type JobQueue } from '../../src/jobs/queue.ts';
import { emit } from '../../src/events/outbox.ts';
import { commandEnded } from '../../src/events/stanzas.ts';
import { createDispatcher } from '../../src/events/dispatcher.ts';
import { createLogTransport } from '../../src/xmpp/log-transport.ts';
import { createBackground } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';
import { newId } from '../../src/shared/ids.ts';

const B = '/api/svc/admin/v1.0/background';
let t: TestApp;
let queue: JobQueue;

before(async () => {
  t = await createTestApp();
  queue = createJobQueue(t.deps.database);
  await queue.start();
});
after(async () => {
  await queue.stop();
  await t.close();
});

async function until(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('background work listings', () => {
  it('lists jobs by state, with the failure of a failed job, paged', async () => {
    await queue.define('admin.ok', async () => undefined, { pollingIntervalSeconds: 0.5 });
    await queue.define(
      'admin.broken',
      async () => {
        throw new Error('the billing system said no');
      },
      { retryLimit: 0, pollingIntervalSeconds: 0.5 },
    );
    const ok = await Promise.all([1, 2, 3].map((n) => queue.enqueue('admin.ok', { n })));
    const broken = await queue.enqueue('admin.broken', {});
    const waiting = await queue.enqueue('admin.ok', { later: true }, { delaySeconds: 3600 });
    await until(
      async () =>
        (await queue.state('admin.broken', broken))?.state === 'failed' &&
        (await Promise.all(ok.map((id) => queue.state('admin.ok', id)))).every((s) => s?.state === 'completed'),
    );

    const failed = await t.inject({ method: 'GET', url: `${B}/jobs?state=failed`, headers: bearer(t.superToken) });
    expect(failed.statusCode).toBe(200);
    expect(failed.json().data).toEqual([
      expect.objectContaining({
        id: broken,
        name: 'admin.broken',
        state: 'failed',
        error: 'the billing system said no',
        retryCount: 0,
        retryLimit: 0,
      }),
    ]);

    const created = (
      await t.inject({ method: 'GET', url: `${B}/jobs?state=created`, headers: bearer(t.superToken) })
    ).json();
    expect(created.data.map((j: { id: string }) => j.id)).toEqual([waiting]);

    const page1 = (
      await t.inject({
        method: 'GET',
        url: `${B}/jobs?state=completed&name=admin.ok&limit=2&offset=0`,
        headers: bearer(t.superToken),
      })
    ).json();
    const page2 = (
      await t.inject({
        method: 'GET',
        url: `${B}/jobs?state=completed&name=admin.ok&limit=2&offset=2`,
        headers: bearer(t.superToken),
      })
    ).json();
    expect(page1).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(page2).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect([...page1.data, ...page2.data].map((j: { id: string }) => j.id).sort()).toEqual([...ok].sort());
  });

  it('lists outbox events by state, paged, and counts both', async () => {
    const captured = captureLog();
    const dispatcher = createDispatcher({
      database: t.deps.database,
      transport: createLogTransport(captured.log),
      instanceId: 'i-admin',
      pollMs: 50,
    });
    const to = `${newId()}@localhost`;
    for (const c of ['a', 'b']) await t.db.transaction((tx) => emit(tx, to, commandEnded(c)));
    await dispatcher.runOnce();
    const [pending] = await t.db.transaction((tx) => emit(tx, to, commandEnded('c')));

    const delivered = (
      await t.inject({
        method: 'GET',
        url: `${B}/outbox?state=delivered&recipient=${encodeURIComponent(to)}&limit=1`,
        headers: bearer(t.superToken),
      })
    ).json();
    expect(delivered).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(delivered.data[0]).toMatchObject({
      recipient: to,
      kind: 'command_ended',
      state: 'delivered',
      attempts: 1,
      seq: 2,
    });
    const waiting = (
      await t.inject({
        method: 'GET',
        url: `${B}/outbox?state=pending,retrying&recipient=${encodeURIComponent(to)}`,
        headers: bearer(t.superToken),
      })
    ).json();
    expect(waiting.data).toEqual([
      expect.objectContaining({ id: pending, state: 'pending', attempts: 0, seq: 3, deliveredAt: null }),
    ]);

    const summary = (await t.inject({ method: 'GET', url: B, headers: bearer(t.superToken) })).json();
    expect(summary.data.outbox).toMatchObject({ delivered: 2, pending: 1 });
    expect(summary.data.jobs.failed).toBeGreaterThanOrEqual(1);
  });

  it('is refused to other administrators', async () => {
    const admin = await makeUser(t, t.defaultCompanyId, ['company_admin']);
    for (const url of [B, `${B}/jobs`, `${B}/outbox`])
      expect((await t.inject({ method: 'GET', url, headers: bearer(admin.token) })).statusCode).toBe(403);
  });

  it('writes the counters of background work in the logs', async () => {
    const captured = captureLog();
    const bg = createBackground({
      database: t.deps.database,
      modules: MODULE_WORK,
      config: t.deps.config,
      now: t.deps.now,
      log: captured.log,
      countersEverySeconds: 1,
    });
    await bg.start();
    try {
      await until(async () => captured.lines.some((l) => l.msg === 'background counters'), 10_000);
      const line = captured.lines.find((l) => l.msg === 'background counters')!;
      expect(line.background.jobs.failed).toBeGreaterThanOrEqual(1);
      expect(line.background.outbox).toBeDefined();
      expect(line.background.instance).toMatchObject({ xmppConnected: true });
    } finally {
      await bg.stop();
    }
  });
});
