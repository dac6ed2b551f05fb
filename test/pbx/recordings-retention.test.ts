// Retention of call recordings (document 2, recording rules: "recordings are kept two months then
// deleted; a recording shorter than 3 seconds is deleted; processed recordings are checked at most
// every hour"; issue 26, point 5): the run at the service's clock (the harness's injected clock),
// POST V/recordings/retention-runs, and the hourly job.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, inArray, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { recordings } from '../../src/modules/pbx/recordings.tables.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { newId } from '../../src/shared/ids.ts';
import { RECORDING_RETENTION_JOB } from '../../src/modules/pbx/recordings.jobs.ts';
import { createPbx, V } from './fixtures.ts';

const RUNS = `${V}/recordings/retention-runs`;
const MINUTE = 60_000;

let t: TestApp;
let pbx: Record<string, any>;
let admin: MadeUser;

/** A recording inserted directly, dated `date`, with its audio behind the files port. */
async function insertRecording(app: TestApp, p: Record<string, any>, date: Date, duration: number) {
  const id = newId();
  const storageKey = `pbx/${p.companyId}/${p.id}/recordings/${id}`;
  await portsOf(app.deps).files.put(storageKey, Buffer.from(`audio ${id}`), 'audio/wav');
  await app.db.insert(recordings).values({
    id,
    cloudPbxId: p.id,
    date,
    direction: 'in',
    otherNumber: '+33100000000',
    storageKey,
    mediaType: 'audio/wav',
    size: 10,
    duration,
  });
  return { id, storageKey };
}

async function stored(app: TestApp, rec: { id: string; storageKey: string }) {
  const rows = await app.db.select().from(recordings).where(eq(recordings.id, rec.id));
  const file = await portsOf(app.deps).files.get(rec.storageKey);
  return { row: rows.length === 1, audio: file !== undefined };
}

beforeAll(async () => {
  t = await createTestApp();
  const ec = await makeCompany(t, { name: 'Retention EC' });
  admin = await makeUser(t, ec, ['company_admin']);
  pbx = await createPbx(t, ec);
});

afterAll(async () => {
  await t?.close();
});

describe('issue 26, point 5: retention of recordings', () => {
  it('issue 26, point 5: a recording is kept two months from its date, one shorter than 3 seconds is deleted; audio and row both go', async () => {
    const now = t.clock.now(); // 2026-11-21T08:00:00Z
    const twoMonthsAgo = new Date('2026-09-21T08:00:00Z');
    const expired = await insertRecording(t, pbx, new Date(twoMonthsAgo.getTime() - MINUTE), 60);
    const young = await insertRecording(t, pbx, new Date(twoMonthsAgo.getTime() + MINUTE), 60);
    const short = await insertRecording(t, pbx, new Date(now.getTime() - 5 * MINUTE), 2.9);
    const threeSeconds = await insertRecording(t, pbx, new Date(now.getTime() - 5 * MINUTE), 3);
    const oldAndShort = await insertRecording(t, pbx, new Date('2026-01-01T00:00:00Z'), 1);

    const res = await t.inject({ method: 'POST', url: RUNS, headers: bearer(t.superToken) });
    expect(res.statusCode, res.body).toBe(200);
    // A recording both old and short counts as expired.
    expect(res.json().data).toEqual({ checked: 5, deletedExpired: 2, deletedShort: 1 });
    expect(await stored(t, expired)).toEqual({ row: false, audio: false });
    expect(await stored(t, oldAndShort)).toEqual({ row: false, audio: false });
    expect(await stored(t, short)).toEqual({ row: false, audio: false });
    expect(await stored(t, young)).toEqual({ row: true, audio: true });
    expect(await stored(t, threeSeconds)).toEqual({ row: true, audio: true });

    // Two minutes later at the service's clock, the young one has passed its two months.
    t.clock.advance(2 * MINUTE);
    const again = await t.inject({ method: 'POST', url: RUNS, headers: bearer(t.superToken) });
    expect(again.json().data).toEqual({ checked: 2, deletedExpired: 1, deletedShort: 0 });
    expect(await stored(t, young)).toEqual({ row: false, audio: false });
    expect(await stored(t, threeSeconds)).toEqual({ row: true, audio: true });
  });

  it('issue 26, point 5: two months are calendar months (a recording of 31 March expires after 31 May at the same time)', async () => {
    const app = await createTestApp();
    try {
      const ec = await makeCompany(app, { name: 'Retention months EC' });
      const p = await createPbx(app, ec);
      const rec = await insertRecording(app, p, new Date('2026-03-31T12:00:00Z'), 30);
      app.clock.advance(new Date('2026-05-31T11:59:00Z').getTime() - app.clock.now().getTime());
      const run = () => app.inject({ method: 'POST', url: RUNS, headers: bearer(app.superToken) });
      expect((await run()).json().data).toEqual({ checked: 1, deletedExpired: 0, deletedShort: 0 });
      app.clock.advance(2 * MINUTE);
      expect((await run()).json().data).toEqual({ checked: 1, deletedExpired: 1, deletedShort: 0 });
      expect(await stored(app, rec)).toEqual({ row: false, audio: false });
    } finally {
      await app.close();
    }
  });

  it('issue 26, point 5: only a superadmin runs the retention now (403 for a company_admin)', async () => {
    const res = await t.inject({ method: 'POST', url: RUNS, headers: bearer(admin.token) });
    expect(res.statusCode).toBe(403);
  });
});

describe('issue 26, point 5: the hourly job', () => {
  it('issue 26, point 5: a scheduled job applies the retention every hour, at the service’s clock', async () => {
    const bg = await createTestApp({ background: true });
    try {
      const { rows } = (await bg.db.execute(
        sql`SELECT name, cron FROM pgboss.schedule WHERE name = ${RECORDING_RETENTION_JOB}`,
      )) as unknown as { rows: { name: string; cron: string }[] };
      expect(rows).toEqual([{ name: RECORDING_RETENTION_JOB, cron: '7 * * * *' }]);
      const ec = await makeCompany(bg, { name: 'Retention job EC' });
      const p = await createPbx(bg, ec);
      const old = await insertRecording(bg, p, new Date('2026-09-01T00:00:00Z'), 30);
      const kept = await insertRecording(bg, p, new Date('2026-11-01T00:00:00Z'), 30);
      const queue = bg.deps.background!.queue;
      const id = await queue.enqueue(RECORDING_RETENTION_JOB, {});
      const end = Date.now() + 30_000;
      for (;;) {
        const s = await queue.state(RECORDING_RETENTION_JOB, id);
        if (s?.state === 'completed') break;
        if (s?.state === 'failed' || Date.now() > end) throw new Error(`retention job: ${JSON.stringify(s)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await stored(bg, old)).toEqual({ row: false, audio: false });
      expect(await stored(bg, kept)).toEqual({ row: true, audio: true });
      const left = await bg.db
        .select()
        .from(recordings)
        .where(inArray(recordings.id, [old.id, kept.id]));
      expect(left.map((r) => r.id)).toEqual([kept.id]);
    } finally {
      await bg.close();
    }
  });
});
