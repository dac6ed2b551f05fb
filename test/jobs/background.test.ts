// Issue 7: the background work an instance runs (what main.ts starts): the queue works jobs, the
// dispatcher delivers events after commit, the ports are there, and stopping it stops them.
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { emit } from '../../src/events/outbox.ts';
import { commandEnded } from '../../src/events/stanzas.ts';
import { outbox } from '../../src/events/outbox.tables.ts';

let t: TestApp;
before(async () => {
  t = await createTestApp({ background: true, config: { outboxPollMs: 50 } });
});
after(() => t.close());

async function until(check: () => Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('background of an instance', () => {
  it('works jobs, delivers events after commit and offers the ports', async () => {
    const bg = t.deps.background!;
    const done: string[] = [];
    await bg.queue.define<{ v: string }>('wiring.test', async (d) => void done.push(d.v), {
      pollingIntervalSeconds: 0.5,
    });
    await bg.queue.enqueue('wiring.test', { v: 'ran' });
    const [id] = await t.db.transaction((tx) => emit(tx, 'someone@localhost', commandEnded('wired')));
    await until(async () => done.length === 1);
    await until(
      async () => !!(await t.db.select({ d: outbox.deliveredAt }).from(outbox).where(eq(outbox.id, id)))[0]?.d,
    );
    expect(done).toEqual(['ran']);
    expect(bg.xmpp.kind).toBe('log');
    expect(await bg.ports.orders.applicantExists('none')).toBe(false);
  });
});
