// Issue 26, point 9: deep pages of the recordings start after the nearest anchor, the sort key and
// id of every thousandth row remembered per list and version (src/db/long-lists.ts). These
// tests hold such pages to the list itself: every page past the first thousand rows, in every
// order, ties included, equals the same slice of the whole list read from its start; a page read
// after a write (the anchors of the old version no longer exact) is the new list's; and the anchor
// a page starts after is the row just before its thousand.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { ANCHOR_STEP, listTotal, pageAnchor, rowsBound } from '../../src/db/long-lists.ts';
import { versionOf } from '../../src/db/list-count.ts';
import { createPbx, PBXS } from './fixtures.ts';

let t: TestApp;
let admin: MadeUser;
let pbx: Record<string, any>;
const ROWS = 2_600;

const listOf = async (query: string) => {
  const res = await t.inject({
    method: 'GET',
    url: `${PBXS}/${pbx.id}/recordings${query}`,
    headers: bearer(admin.token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { id: string }[]; total: number };
};
const idsOf = (body: { data: { id: string }[] }) => body.data.map((r) => r.id);

/** The whole list in one order, read from its start in pages of a thousand (no page past the first thousand rows has an anchor before its own start... but every page after the first does). */
async function wholeList(q: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = idsOf(await listOf(`${q}&limit=1000&offset=${offset}`));
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const ec = await makeCompany(t, { name: 'Deep pages EC' });
  admin = await makeUser(t, ec, ['company_admin']);
  pbx = await createPbx(t, ec);
  // Many ties: 13 dates, 7 durations, 5 names, 9 numbers, over 2,600 recordings.
  await t.db.execute(sql`INSERT INTO pbx_recordings (id, cloudpbx_id, date, direction, other_number, recorded_name,
      recorded_number, storage_key, media_type, size, duration)
    SELECT md5('deep' || g), ${pbx.id}, timestamptz '2026-11-01T09:00:00Z' + (g % 13) * interval '1 hour 0.5 second',
      'in', '+331' || (g % 9), 'Name ' || (g % 5), '2' || (g % 9), 'k/' || g, 'audio/wav', 10, (g % 7) * 1.5
    FROM generate_series(1, ${ROWS}) g`);
});

afterAll(async () => {
  await t?.close();
});

describe('issue 26, point 9: deep pages of the recordings', () => {
  it('every deep page, in every order and direction, is the slice of the whole list at its offset', async () => {
    const offsets = [999, 1000, 1001, 1500, 1999, 2000, 2001, 2580, 2599, 2600, 2700];
    for (const sortField of ['date', 'duration', 'recordedName', 'recordedNumber', 'otherNumber'])
      for (const sortOrder of [1, -1]) {
        const q = `?sortField=${sortField}&sortOrder=${sortOrder}&fromDate=2026-10-01T00:00:00Z`;
        const whole = await wholeList(q);
        expect(whole).toHaveLength(ROWS);
        expect(new Set(whole).size).toBe(ROWS);
        for (const offset of offsets) {
          const page = await listOf(`${q}&limit=7&offset=${offset}`);
          expect(idsOf(page), `${q} offset ${offset}`).toEqual(whole.slice(offset, offset + 7));
          expect(page.total).toBe(ROWS);
        }
      }
  });

  it('a deep page read after a write is the new list’s, not the old anchors’', async () => {
    const q = '?sortField=date&sortOrder=-1';
    const before = idsOf(await listOf(`${q}&limit=5&offset=1500`));
    // The newest recording of all: every row moves one place down the list.
    await t.db
      .execute(sql`INSERT INTO pbx_recordings (id, cloudpbx_id, date, direction, other_number, storage_key, media_type, size, duration)
      VALUES ('deep-newest', ${pbx.id}, timestamptz '2026-12-01T00:00:00Z', 'in', '+33100', 'k/newest', 'audio/wav', 1, 1)`);
    const afterWrite = await listOf(`${q}&limit=5&offset=1501`);
    expect(idsOf(afterWrite)).toEqual(before);
    expect(afterWrite.total).toBe(ROWS + 1);
    expect((await wholeList(q)).slice(1501, 1506)).toEqual(before);
    await t.db.execute(sql`DELETE FROM pbx_recordings WHERE id = 'deep-newest'`);
    expect(idsOf(await listOf(`${q}&limit=5&offset=1500`))).toEqual(before);
  });

  it('a page starts after the row just before its thousand; anchors and total are read once per list and version', async () => {
    const whole = await wholeList('?sortField=duration&sortOrder=1');
    const version = String(
      ((await t.db.execute(sql`SELECT ${versionOf('recordings')}::text AS v`)) as unknown as { rows: { v: string }[] })
        .rows[0].v,
    );
    let reads = 0;
    const list = () => {
      reads++;
      return {
        family: 'recordings' as const,
        from: sql`FROM pbx_recordings r WHERE r.cloudpbx_id = ${pbx.id}`,
        key: sql`r.duration`,
        id: sql`r.id`,
        keyType: 'float8' as const,
        descending: false,
        plan: 'generic' as const,
      };
    };
    const key = `test\u0000${pbx.id}`;
    expect(await pageAnchor(t.deps.database, key, version, ANCHOR_STEP - 1, list)).toBeUndefined();
    expect(await pageAnchor(t.deps.database, key, undefined, 2 * ANCHOR_STEP, list)).toBeUndefined();
    for (const offset of [ANCHOR_STEP, 1_700, 2 * ANCHOR_STEP, 2_599]) {
      const anchor = await pageAnchor(t.deps.database, key, version, offset, list);
      const skipped = Math.floor(offset / ANCHOR_STEP) * ANCHOR_STEP;
      expect(anchor).toMatchObject({ id: whole[skipped - 1], skipped, version });
    }
    expect(reads).toBe(1);
    expect(await listTotal(t.deps.database, key, version, list)).toEqual({ version, total: ROWS });
    expect(await listTotal(t.deps.database, key, version, list)).toEqual({ version, total: ROWS });
    expect(reads).toBe(2);
  });

  it('the bound a short skip gives the planner never cuts its page, and stays one of a few values', () => {
    const bounds = new Set<number>();
    for (let skip = 0; skip < ANCHOR_STEP; skip++)
      for (const limit of [1, 7, 20, 100, 999, 1000]) {
        const bound = rowsBound(skip, limit)!;
        expect(bound).toBeGreaterThanOrEqual(skip + limit);
        bounds.add(bound);
      }
    expect([...bounds].sort((a, b) => a - b)).toEqual([32, 64, 128, 256, 512, 1024, 2048]);
    expect(rowsBound(ANCHOR_STEP, 20)).toBeUndefined();
  });
});
