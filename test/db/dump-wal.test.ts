// src/db/dump-wal.ts: a dump of the embedded database keeps only the WAL from its checkpoint on.
// What this protects: the dump is small (one short segment instead of whole 16 MB ones), and a
// database opened from it has every row, takes writes across several new segments, and dumps and
// opens again with them (the first start's made database and every test file's come this way).
import { after as afterAll, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { dumpEmbedded, openDatabase, type Database } from '../../src/db/client.ts';
import { isWalSegment, tarEntries, withWalFrom } from '../../src/db/dump-wal.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const opened: Database[] = [];
afterAll(async () => {
  for (const d of opened) await d.close().catch(() => undefined);
});
const open = (fromDump?: Blob) => {
  const d = openDatabase(fromDump ? { fromDump } : {});
  opened.push(d);
  return d;
};
const rows = async (d: Database, q: string) =>
  (await d.db.execute(sql.raw(q))) as unknown as { rows: Record<string, unknown>[] };

/** The WAL files of a tarball, with their sizes. */
async function walFiles(dump: Blob): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const e of tarEntries(new Uint8Array(await dump.arrayBuffer())))
    if (isWalSegment(e.name)) out.set(e.name.split('/').at(-1)!, e.size);
  return out;
}

describe('a dump without spare WAL (src/db/dump-wal.ts)', { skip: SKIP_ENGINE_FREE }, () => {
  it('holds one WAL segment cut after its pages; opened, it has the rows, takes writes over new segments, and dumps and opens again', async () => {
    const made = open();
    await made.migrate();
    await rows(made, 'CREATE TABLE kept (n int)');
    await rows(made, 'INSERT INTO kept SELECT generate_series(1, 1000)');
    const dump = await dumpEmbedded(made);
    const wal = await walFiles(dump);
    expect(wal.size).toBe(1);
    expect([...wal.values()][0]).toBeLessThan(1024 * 1024);

    const again = open(dump);
    expect((await rows(again, 'SELECT count(*)::int AS c FROM kept')).rows).toEqual([{ c: 1000 }]);
    // Some 40 MB of WAL: past the cut segment's end and into new ones.
    await rows(again, 'CREATE TABLE big (x text)');
    await rows(again, 'INSERT INTO big SELECT repeat(md5(g::text), 20) FROM generate_series(1, 60000) g');
    await rows(again, 'CHECKPOINT');
    const third = open(await dumpEmbedded(again));
    expect(
      (await rows(third, 'SELECT (SELECT count(*) FROM kept)::int AS k, (SELECT count(*) FROM big)::int AS b')).rows,
    ).toEqual([{ k: 1000, b: 60000 }]);
  });

  it('a tarball without the named segment is kept whole (it would not open otherwise)', () => {
    const tar = new Uint8Array(2048);
    expect(withWalFrom(tar, '000000010000000000000009', 100)).toBe(tar);
  });
});
