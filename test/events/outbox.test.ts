// Issue 7, point 2: the transactional outbox. Events are written in the caller's transaction,
// delivered after commit, never for a rolled-back change, once per event across several
// dispatchers (instances), and per recipient in the order of the commits. Runs on PGlite and on
// PostgreSQL (TEST_DATABASE_URL). The transport here is the log transport (no XMPP settings); the
// real server, its outage and redelivery are in test/e2e/xmpp.test.ts.
import { describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import { captureLog } from '../support/log-capture.ts';
import { emit, emitAfter } from '../../src/events/outbox.ts';
import { commandEnded, subscriptionChange } from '../../src/events/stanzas.ts';
import { createDispatcher } from '../../src/events/dispatcher.ts';
import { createLogTransport } from '../../src/xmpp/log-transport.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const file = databaseForFile();

const sent = (lines: Array<Record<string, any>>) =>
  lines.filter((l) => l.xmpp?.stanza).map((l) => l.xmpp as { to: string; id: string; stanza: string });

function instance() {
  const captured = captureLog();
  const dispatcher = createDispatcher({
    database: file.database,
    transport: createLogTransport(captured.log),
    instanceId: `i-${newId()}`,
    pollMs: 20,
  });
  return { dispatcher, captured };
}

describe('outbox', () => {
  it('delivers after the commit an event written in the transaction of its change, and nothing for a rolled-back change', async () => {
    const { dispatcher, captured } = instance();
    const to = `${newId()}@localhost`;
    const companyId = newId();
    await file.database.db.transaction(async (tx) => {
      await tx.insert(companies).values({ id: companyId, name: `Outbox ${companyId}` });
      await emit(tx, to, commandEnded('cmd-1'));
      // Not delivered while the transaction is open. (The embedded file.database has one session: a
      // dispatcher there waits for the transaction to end, so this is asked of a server only.)
      if (file.database.kind === 'server') expect(await dispatcher.runOnce()).toBe(0);
    });
    const rolledBack = `${newId()}@localhost`;
    await file.database.db
      .transaction(async (tx) => {
        await tx.insert(companies).values({ id: newId(), name: 'never' });
        await emit(tx, rolledBack, commandEnded('cmd-2'));
        tx.rollback();
      })
      .catch(() => undefined);
    await dispatcher.runOnce();
    const out = sent(captured.lines);
    expect(out.filter((s) => s.to === to)).toHaveLength(1);
    expect(out[0].stanza).toBe(
      `<message type="management" to="${to}" id="${out[0].id}"><command_ended xmlns="jabber:iq:configuration" commandId="cmd-1"/></message>`,
    );
    expect(out.some((s) => s.to === rolledBack)).toBe(false);
    const rows = (await file.database.db.execute(
      sql`SELECT count(*)::int AS n FROM outbox WHERE recipient = ${rolledBack}`,
    )) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0].n).toBe(0);
    // Delivered once: another pass sends nothing again.
    expect(await dispatcher.runOnce()).toBe(0);
  });

  it('delivers each event once when two instances dispatch, each recipient in order', async () => {
    const a = instance();
    const b = instance();
    const recipients = [1, 2, 3].map(() => `${newId()}@localhost`);
    for (let i = 0; i < 10; i++) {
      await file.database.db.transaction(async (tx) => {
        for (const r of recipients)
          await emit(
            tx,
            r,
            subscriptionChange({
              action: 'update',
              subscriptionId: `s${i}`,
              companyId: 'c',
              details: {
                offerId: 'o',
                offerName: 'Offer',
                profileId: 'p',
                profileName: 'P',
                status: 'active',
                syncOngoing: true,
                maxNumberUsers: i,
              },
            }),
          );
      });
    }
    await Promise.all([a.dispatcher.runOnce(), b.dispatcher.runOnce(), a.dispatcher.runOnce(), b.dispatcher.runOnce()]);
    while ((await a.dispatcher.runOnce()) + (await b.dispatcher.runOnce()) > 0);
    const all = [...sent(a.captured.lines), ...sent(b.captured.lines)].filter((s) => recipients.includes(s.to));
    expect(all).toHaveLength(30);
    expect(new Set(all.map((s) => s.id)).size).toBe(30);
    for (const r of recipients) {
      // Per recipient, each instance's log is in its sending order; a recipient's queue is sent
      // by one instance at a time, in order, so concatenating both logs by seq must give s0..s9.
      const rows = (await file.database.db.execute(
        sql`SELECT id FROM outbox WHERE recipient = ${r} ORDER BY seq`,
      )) as unknown as { rows: { id: string }[] };
      const mine = [...sent(a.captured.lines), ...sent(b.captured.lines)].filter((s) => s.to === r);
      const byId = new Map(mine.map((s) => [s.id, s.stanza]));
      expect(rows.rows.map((row) => /subscriptionId="(s\d+)"/.exec(byId.get(row.id)!)![1])).toEqual([
        's0',
        's1',
        's2',
        's3',
        's4',
        's5',
        's6',
        's7',
        's8',
        's9',
      ]);
      for (const cap of [a, b]) {
        const order = sent(cap.captured.lines)
          .filter((s) => s.to === r)
          .map((s) => Number(/subscriptionId="s(\d+)"/.exec(s.stanza)![1]));
        expect(order).toEqual([...order].sort((x, y) => x - y));
      }
    }
  });

  it("numbers a recipient's events in the order their transactions commit", async () => {
    const { dispatcher, captured } = instance();
    const to = `${newId()}@localhost`;
    // The first transaction emits first and commits 300 ms later; the second emits meanwhile. Its
    // emit must wait for the first's commit: numbered at once, it would commit first with the
    // later number. The order is read from the emits' own returns: which promise a loaded machine
    // resolves first says nothing of the commits (the server releases the first's lock before
    // it answers its COMMIT, so the second can be answered first).
    let firstEmitted!: () => void;
    const emitted = new Promise<void>((r) => (firstEmitted = r));
    let firstEnds = 0;
    let secondEmittedAt = 0;
    const first = file.database.db.transaction(async (tx) => {
      await emit(tx, to, commandEnded('first'));
      firstEmitted();
      await new Promise((r) => setTimeout(r, 300));
      firstEnds = performance.now();
    });
    await emitted;
    const second = file.database.db.transaction(async (tx) => {
      await emit(tx, to, commandEnded('second'));
      secondEmittedAt = performance.now();
    });
    await Promise.all([first, second]);
    expect(secondEmittedAt, 'the second emit waited for the first transaction to end').toBeGreaterThanOrEqual(
      firstEnds,
    );
    await dispatcher.runOnce();
    const delivered = sent(captured.lines)
      .filter((s) => s.to === to)
      .map((s) => /commandId="(\w+)"/.exec(s.stanza)![1]);
    expect(delivered).toEqual(['first', 'second']);
  });

  it('keeps undelivered events while the transport is away and delivers them when it is back', async () => {
    const captured = captureLog();
    let up = false;
    const log = createLogTransport(captured.log);
    const transport = { ...log, connected: () => up };
    const dispatcher = createDispatcher({ database: file.database, transport, instanceId: 'i-away', pollMs: 20 });
    const to = `${newId()}@localhost`;
    await file.database.db.transaction((tx) => emit(tx, to, commandEnded('while-away')));
    expect(await dispatcher.runOnce()).toBe(0);
    up = true;
    expect(await dispatcher.runOnce()).toBeGreaterThanOrEqual(1);
    expect(sent(captured.lines).filter((s) => s.to === to)).toHaveLength(1);
  });

  it('leaves a recipient to the instance holding his lease, and takes him over when the lease of a crashed instance expires', async () => {
    const { dispatcher, captured } = instance();
    const to = `${newId()}@localhost`;
    await file.database.db.transaction((tx) => emit(tx, to, commandEnded('leased')));
    // Another instance is delivering this recipient (its lease runs 30 s more).
    await file.database.db.execute(
      sql`UPDATE outbox_recipients SET lease_owner = 'i-other', lease_until = now() + interval '30 seconds' WHERE recipient = ${to}`,
    );
    await dispatcher.runOnce();
    expect(sent(captured.lines).filter((s) => s.to === to)).toHaveLength(0);
    // That instance died: its lease ran out, and this one delivers.
    await file.database.db.execute(
      sql`UPDATE outbox_recipients SET lease_until = now() - interval '1 second' WHERE recipient = ${to}`,
    );
    await dispatcher.runOnce();
    expect(sent(captured.lines).filter((s) => s.to === to)).toHaveLength(1);
  });
  it('emitAfter: a change and its event in one statement; no event when the change touched no row; the change alone when nobody is to be told', async () => {
    const { dispatcher, captured } = instance();
    const to = `${newId()}@localhost`;
    const companyId = newId();
    await file.database.db.insert(companies).values({ id: companyId, name: 'Before' });
    const rename = emitAfter<'id' | 'name'>(
      sql`UPDATE companies SET name = ${sql.placeholder('name')}::text WHERE id = ${sql.placeholder('id')} RETURNING 1`,
    );
    const name = async () =>
      (
        (await file.database.db.execute(sql`SELECT name FROM companies WHERE id = ${companyId}`)) as unknown as {
          rows: { name: string }[];
        }
      ).rows[0].name;
    expect(await rename(file.database.db, { id: companyId, name: 'After' }, [to], commandEnded('renamed'))).toBe(true);
    expect(await name()).toBe('After');
    expect(await rename(file.database.db, { id: newId(), name: 'Nobody' }, [to], commandEnded('no-row'))).toBe(false);
    expect(await rename(file.database.db, { id: companyId, name: 'Quietly' }, [], commandEnded('nobody'))).toBe(true);
    expect(await name()).toBe('Quietly');
    await dispatcher.runOnce();
    const out = sent(captured.lines).filter((x) => x.to === to);
    expect(out).toHaveLength(1);
    expect(out[0].stanza).toContain('commandId="renamed"');
    // Numbered after the events written by emit for the same recipient.
    await file.database.db.transaction(async (tx) => void (await emit(tx, to, commandEnded('next'))));
    const seqs = (await file.database.db.execute(
      sql`SELECT seq FROM outbox WHERE recipient = ${to} ORDER BY seq`,
    )) as unknown as { rows: { seq: string }[] };
    expect(seqs.rows.map((r) => Number(r.seq))).toEqual([1, 2]);
  });
});
