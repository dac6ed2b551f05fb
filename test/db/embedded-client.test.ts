// The embedded database runs PGlite in a thread of its own (src/db/embedded-client.ts and
// src/db/embedded-worker.ts). What crosses between the threads must behave as PGlite in the
// service's thread did: transactions isolated and exclusive, errors with PostgreSQL's fields,
// bytes as Buffers, notifications delivered, a dump that opens again. Embedded only: on a server
// there is no such thread.
import { after, before, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { EmbeddedClient, EmbeddedDatabaseError } from '../../src/db/embedded-client.ts';
import { startEmbeddedThread, takeEmbeddedThread } from '../../src/db/embedded-thread.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

let client: EmbeddedClient;
const embedded = !process.env.TEST_DATABASE_URL;

before(async () => {
  if (!embedded) return;
  client = new EmbeddedClient({ postgresqlconf: ['shared_buffers=16MB'] });
  await client.waitReady;
  await client.exec('CREATE TABLE t (id int PRIMARY KEY, name text, data bytea, at timestamptz)');
});
after(async () => {
  if (embedded) await client.close();
});

describe('the embedded database in its own thread', { skip: !embedded && 'embedded database only' }, () => {
  it("a failed statement gives PostgreSQL's fields (code, constraint), which the service turns into 409 and 400 answers", async () => {
    await client.query('INSERT INTO t (id) VALUES ($1)', [1]);
    const err = await client.query('INSERT INTO t (id) VALUES ($1)', [1]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddedDatabaseError);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey' });
  });

  it("a transaction's writes are seen by no call from outside it before its commit: such a call waits for the end, then sees them", async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await client.transaction(async (tx) => {
      await tx.query('INSERT INTO t (id, name) VALUES (2, $1)', ['in tx']);
      outside = client.query<{ name: string }>('SELECT name FROM t WHERE id = 2').then((r) => {
        order.push(`outside saw ${r.rows[0]?.name}`);
      });
      await new Promise((r) => setTimeout(r, 50));
      order.push('commit');
    });
    await outside;
    expect(order).toEqual(['commit', 'outside saw in tx']);
  });

  it('a transaction whose function throws is rolled back, and the database takes calls again', async () => {
    const err = await client
      .transaction(async (tx) => {
        await tx.query('INSERT INTO t (id) VALUES (3)');
        throw new Error('refused');
      })
      .catch((e: Error) => e);
    expect(err.message).toBe('refused');
    expect((await client.query('SELECT count(*)::int AS n FROM t WHERE id = 3')).rows).toEqual([{ n: 0 }]);
  });

  it('bytes go in and come back whole, NUL bytes included, as Buffers', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 0, 42]);
    await client.query('INSERT INTO t (id, data) VALUES (4, $1)', [bytes]);
    const [row] = (await client.query<{ data: Buffer }>('SELECT data FROM t WHERE id = 4')).rows;
    expect(Buffer.isBuffer(row.data)).toBe(true);
    expect(row.data.equals(bytes)).toBe(true);
    const [arr] = (await client.query<unknown[]>('SELECT data FROM t WHERE id = 4', [], { rowMode: 'array' })).rows;
    expect(Buffer.isBuffer(arr[0])).toBe(true);
  });

  it("types asked as text come as PostgreSQL's text (Drizzle's dates); a parser that would change a value is refused rather than ignored", async () => {
    await client.query("INSERT INTO t (id, at) VALUES (5, '2026-11-27T10:00:00Z')");
    const keep = (v: string) => v;
    const [row] = (
      await client.query<{ at: unknown }>('SELECT at FROM t WHERE id = 5', [], { parsers: { 1184: keep } })
    ).rows;
    expect(typeof row.at).toBe('string');
    const [parsed] = (await client.query<{ at: unknown }>('SELECT at FROM t WHERE id = 5')).rows;
    expect(parsed.at).toBeInstanceOf(Date);
    await expect(client.query('SELECT at FROM t', [], { parsers: { 1184: (v: string) => v.length } })).rejects.toThrow(
      /only parsers that keep the text/,
    );
  });

  it('a NOTIFY reaches the listeners of its channel (pg-boss wakes its workers by it)', async () => {
    const got: string[] = [];
    const stop = await client.listen('wake', (payload) => got.push(payload));
    await client.query("SELECT pg_notify('wake', 'job')");
    for (let i = 0; i < 50 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(got).toEqual(['job']);
    await stop();
  });

  it('a dump opens again as a database with the same rows', async () => {
    const copy = new EmbeddedClient({ fromDump: await client.dumpDataDir(), postgresqlconf: ['shared_buffers=16MB'] });
    try {
      expect((await copy.query('SELECT id FROM t ORDER BY id')).rows).toEqual([
        { id: 1 },
        { id: 2 },
        { id: 4 },
        { id: 5 },
      ]);
    } finally {
      await copy.close();
    }
  });

  it('after close, a call fails with a clear error instead of waiting forever', async () => {
    const other = new EmbeddedClient({ postgresqlconf: ['shared_buffers=16MB'] });
    await other.waitReady;
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow(/thread ended/);
  });
});

describe('the database thread started before the service loads (src/db/embedded-thread.ts)', () => {
  it('is handed to the first client only', () => {
    startEmbeddedThread(new URL('../../src/db/embedded-worker.ts', import.meta.url));
    const taken = takeEmbeddedThread();
    expect(taken).toBeDefined();
    expect(takeEmbeddedThread()).toBeUndefined();
    void taken!.terminate();
  });

  it('a thread that failed before a client took it ends neither the process nor a client: it is not handed over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-thread-'));
    try {
      const broken = join(dir, 'broken.mjs');
      writeFileSync(broken, "throw new Error('broken thread');\n");
      startEmbeddedThread(pathToFileURL(broken));
      for (let i = 0; i < 200; i++) {
        await new Promise((r) => setTimeout(r, 10));
        if (!takeEmbeddedThreadPeek()) break;
      }
      expect(takeEmbeddedThread()).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Whether a started thread is still held, without taking it. */
function takeEmbeddedThreadPeek(): boolean {
  return (globalThis as Record<symbol, unknown>)[Symbol.for('svc-admin.embedded-database-thread')] !== undefined;
}
