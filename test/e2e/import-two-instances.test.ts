// Issue 27, point 7: "The same company imported twice at once from two instances does not create a
// user twice." Two processes of the service (src/main.ts as `npm start` runs it) on one PostgreSQL
// database; two CSVs of the same company sharing most of their logins, one posted to each at the
// same moment. The job queue is the database's: either instance may run either import; the test
// checks that both run at the same time. A login made by the other import meanwhile is met by the
// unique index and the line judged again (imports.jobs.ts): it updates the user the other made.
// PostgreSQL only: the embedded database is one process's.
import { after, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { rowsOf } from '../../src/db/raw.ts';
import { clientOf, freshStore, sleep, startService, type Child, type FreshStore } from './service-process.ts';

const M = '/api/svc/massprovisioning/v1.0';
/** Lines of each CSV; they share SHARED logins. */
const LINES = 6_000;
const SHARED = 5_000;
const SKIP = process.env.TEST_DATABASE_URL
  ? false
  : 'two processes on one database need PostgreSQL (TEST_DATABASE_URL; the PostgreSQL pass of .ci/run)';

let store: FreshStore | undefined;
const services: Child[] = [];
after(async () => {
  for (const s of services) await s.stop();
  await store?.drop();
});

/**
 * The SHARED logins 1..SHARED first, upwards in one CSV and downwards in the other (the two imports
 * cross in the middle, both creating users of the same logins at the same moment), then
 * LINES - SHARED logins of its own from `own`; the first name tells which CSV wrote the user.
 */
function csvOf(own: number, who: string, down: boolean): string {
  const out = ['loginEmail;firstName;lastName'];
  const line = (i: number) => out.push(`twin-${i}@twins.example;${who}${i};Last${i}`);
  for (let k = 1; k <= SHARED; k++) line(down ? SHARED + 1 - k : k);
  for (let i = own; i < own + LINES - SHARED; i++) line(i);
  return `${out.join('\n')}\n`;
}

describe('issue 27, point 7: the same company imported at once from two instances', { skip: SKIP }, () => {
  it(
    'issue 27, point 7: two instances import two CSVs sharing most logins at once: no login created twice, every line succeeded, counters exact',
    { timeout: 120_000 },
    async (t) => {
      store = await freshStore();
      const env = { ...store.env, IMPORT_BATCH_LINES: '25' };
      // The first start migrates; the second instance then starts on the migrated database.
      services.push(await startService(env));
      services.push(await startService(env));
      const [a, b] = await Promise.all(services.map((s) => clientOf(s)));
      const company = await a('POST', '/api/svc/admin/v1.0/companies', { name: 'Two instances import' });
      expect(company.status).toBe(201);
      const companyId: string = company.body.data.id;
      // CSV A: logins 1..5000 then 5001..6000; CSV B: logins 5000..1 then 6001..7000.
      const [ra, rb] = await Promise.all([
        a('POST', `${M}/users/imports?companyId=${companyId}`, csvOf(SHARED + 1, 'A', false), 'text/csv'),
        b('POST', `${M}/users/imports?companyId=${companyId}`, csvOf(LINES + 1, 'B', true), 'text/csv'),
      ]);
      expect([ra.status, rb.status]).toEqual([202, 202]);
      const ids: string[] = [ra.body.data.reqId, rb.body.data.reqId];

      // Both run at once: each is seen Pending with lines done while the other is too.
      let overlapped = false;
      const reports: Record<string, { status: string; _user: string }>[] = [];
      for (const end = Date.now() + 90_000; ;) {
        const small = await Promise.all(
          ids.map(async (id, k) => (await [a, b][k]('GET', `${M}/users/imports/${id}/details?format=small`)).body.data),
        );
        if (small.every((s) => s.status === 'Pending' && s.counters.total > 0 && s.counters.total < LINES))
          overlapped = true;
        if (small.every((s) => s.status === 'Terminated')) break;
        if (Date.now() > end) throw new Error(`not ended: ${JSON.stringify(small)}`);
        await sleep(50);
      }
      expect(overlapped).toBe(true);
      for (const [k, id] of ids.entries()) {
        const full = await [b, a][k]('GET', `${M}/users/imports/${id}/details`); // read from the other instance
        expect(full.status).toBe(200);
        // The failed entries first: their errors say why, where the counters would only count them.
        const entries = Object.values(full.body.data.report as Record<string, { status: string; _user: string }>);
        expect(entries.filter((e) => e.status !== 'succeeded')).toEqual([]);
        expect(full.body.data.counters).toEqual({ succeeded: LINES, failed: 0, warnings: 0, total: LINES });
        expect(entries.length).toBe(LINES);
        reports.push(full.body.data.report);
      }
      // A shared login was created by exactly one of the two imports and updated by the other.
      let creations = 0;
      for (let i = 1; i <= SHARED; i++) {
        const login = `twin-${i}@twins.example`;
        const users = reports.map((r) => r[login]._user).sort();
        if (users.join() !== 'create,update') throw new Error(`${login}: ${JSON.stringify(users)}`);
        creations++;
      }
      expect(creations).toBe(SHARED);
      // How the shared logins were split (both > 0: the two imports met on the same logins at once).
      const byA = Array.from({ length: SHARED }, (_, i) => reports[0][`twin-${i + 1}@twins.example`]._user).filter(
        (u) => u === 'create',
      ).length;
      t.diagnostic(`shared logins created by A: ${byA}, by B: ${SHARED - byA}`);
      expect(byA).toBeGreaterThan(0);
      expect(SHARED - byA).toBeGreaterThan(0);

      const database = store.open();
      try {
        const [row] = rowsOf<{ n: number; logins: number; inCompany: number; mixed: number }>(
          await database.db.execute(sql`
            SELECT count(*)::int AS n, count(DISTINCT lower(login_email))::int AS logins,
                   count(*) FILTER (WHERE company_id = ${companyId})::int AS "inCompany",
                   count(*) FILTER (WHERE first_name NOT LIKE 'A%' AND first_name NOT LIKE 'B%')::int AS mixed
            FROM users WHERE login_email LIKE 'twin-%@twins.example'`),
        );
        const union = 2 * LINES - SHARED;
        expect(row).toEqual({ n: union, logins: union, inCompany: union, mixed: 0 });
      } finally {
        await database.close();
      }
    },
  );
});
