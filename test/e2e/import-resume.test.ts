// Issue 27, point 4: "the work runs as a job on the queue: a service killed in the middle resumes
// after restart and finishes without losing or doubling a line". On the real process (src/main.ts
// as `npm start` runs it, scripts/bench.ts startService) and the engine of this pass (PostgreSQL, a
// fresh database, when TEST_DATABASE_URL is set; else the embedded database in a fresh DATA_DIR):
// an import of LINES user lines, written IMPORT_BATCH_LINES at a time so that it lasts seconds, is
// killed (SIGKILL) once its counters show it in the middle; the service started again on the same
// database takes the import up by itself (imports.jobs.ts, resumePending) and ends it.
import { after, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { rowsOf } from '../../src/db/raw.ts';
import { clientOf, freshStore, sleep, startService, type Child, type FreshStore } from './service-process.ts';

const M = '/api/svc/massprovisioning/v1.0';
const LINES = 30_000;
const BATCH = process.env.TEST_DATABASE_URL ? '40' : '300';

let store: FreshStore | undefined;
let service: Child | undefined;
after(async () => {
  await service?.stop();
  await store?.drop();
});

function csvOf(n: number, prefix: string): string {
  const out = ['loginEmail;firstName;lastName;department'];
  for (let i = 1; i <= n; i++) out.push(`${prefix}-${i}@resume.example;First${i};Last${i};Dept ${i % 20}`);
  return `${out.join('\n')}\n`;
}

describe('issue 27, point 4: an import killed in the middle resumes after restart', () => {
  it(
    'issue 27, point 4: SIGKILL in the middle of an import, the service started again: every line once in the report, each login one user, counters exact',
    { timeout: 120_000 },
    async (t) => {
      const t0 = Date.now();
      store = await freshStore();
      const env = { ...store.env, IMPORT_BATCH_LINES: BATCH };
      service = await startService(env);
      let call = await clientOf(service);
      const company = await call('POST', '/api/svc/admin/v1.0/companies', { name: 'Resume import company' });
      expect(company.status).toBe(201);
      const companyId: string = company.body.data.id;
      const csv = csvOf(LINES, 'resume');
      const started = await call('POST', `${M}/users/imports?companyId=${companyId}`, csv, 'text/csv');
      expect(started.status).toBe(202);
      const reqId: string = started.body.data.reqId;
      const small = () => call('GET', `${M}/users/imports/${reqId}/details?format=small`);

      // Killed once a tenth is done (the counters are read while it runs), well before its end.
      let atKill = 0;
      for (const end = Date.now() + 30_000; ;) {
        const r = await small();
        expect(r.status).toBe(200);
        atKill = r.body.data.counters.total;
        if (atKill >= LINES / 10) break;
        expect(r.body.data.status).toBe('Pending');
        if (Date.now() > end) throw new Error(`the import did not advance: ${JSON.stringify(r.body.data)}`);
        await sleep(20);
      }
      service.proc.kill('SIGKILL');
      await service.stop();
      expect(atKill).toBeLessThan(LINES * 0.8); // in the middle: the kill interrupted it

      const killedAt = Date.now();
      service = await startService(env);
      call = await clientOf(service);
      let summary;
      for (const end = Date.now() + 60_000; ;) {
        const r = await small();
        summary = r.body.data;
        if (summary.status === 'Terminated') break;
        if (Date.now() > end) throw new Error(`not resumed to its end: ${JSON.stringify(summary)}`);
        await sleep(100);
      }
      t.diagnostic(
        `${store.engine}: killed at ${atKill} lines done after ${killedAt - t0} ms; restarted, ended ${Date.now() - killedAt} ms later`,
      );
      expect(summary.counters).toEqual({ succeeded: LINES, failed: 0, warnings: 0, total: LINES });
      const full = await call('GET', `${M}/users/imports/${reqId}/details`);
      expect(full.status).toBe(200);
      const report: Record<string, { status: string }> = full.body.data.report;
      expect(Object.keys(report).length).toBe(LINES);
      for (let i = 1; i <= LINES; i++) {
        const entry = report[`resume-${i}@resume.example`];
        if (entry?.status !== 'succeeded') throw new Error(`line ${i + 1}: ${JSON.stringify(entry)}`);
      }
      expect(full.body.data.failingLines ?? []).toEqual([]);

      await service.stop();
      service = undefined;
      const database = store.open();
      try {
        const q = async (s: ReturnType<typeof sql>) => rowsOf<Record<string, number>>(await database.db.execute(s))[0];
        // Each line reported once (lines 2 .. LINES + 1), each login one user of the company.
        expect(
          await q(sql`SELECT count(*)::int AS n, count(DISTINCT line)::int AS lines, min(line)::int AS first,
                     max(line)::int AS last FROM import_lines WHERE req_id = ${reqId}`),
        ).toEqual({ n: LINES, lines: LINES, first: 2, last: LINES + 1 });
        expect(
          await q(sql`SELECT count(*)::int AS n, count(DISTINCT lower(login_email))::int AS logins FROM users
                     WHERE login_email LIKE 'resume-%@resume.example'`),
        ).toEqual({ n: LINES, logins: LINES });
        expect(
          await q(sql`SELECT count(*)::int AS n FROM users WHERE company_id = ${companyId}
                     AND login_email LIKE 'resume-%@resume.example'`),
        ).toEqual({ n: LINES });
      } finally {
        await database.close();
      }
    },
  );
});
