// Probe (docs/decisions.md, Commerce under load), not a test: statements per createSubscription POST (every query of
// node-postgres counted), N POSTs one at a time then C at once through app.inject on a fresh
// PostgreSQL database (TEST_DATABASE_URL), the process's CPU time per POST, and what the busy
// backends wait on (pg_stat_activity sampled every 10 ms). BG=1 also runs the jobs and reports
// when every subscription is active. Example:
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres N=300 C=10 node --experimental-strip-types scripts/probe-create.ts
import pg from 'pg';
import { postgresCpu, postgresCpuSince } from './service-process.ts';
const counts = { n: 0, texts: new Map<string, number>() };
const orig = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (this: unknown, ...args: any[]) {
  counts.n++;
  const t = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? args[0]?.name);
  const k = String(t).replace(/\s+/g, ' ').slice(0, 110);
  counts.texts.set(k, (counts.texts.get(k) ?? 0) + 1);
  return (orig as any).apply(this, args);
};
const { createTestApp } = await import('../test/support/harness.ts');
const { buildWorld, caller, S } = await import('../test/commerce/subscriptions.fixture.ts');
const { makeCompany } = await import('../test/support/factories.ts');
const N = Number(process.env.N ?? 200);
const C = Number(process.env.C ?? 10);
const bg = process.env.BG === '1';
const t = await createTestApp({ background: bg });
const w = await buildWorld(t);
const call = caller(t);
const ecs: string[] = [];
for (let i = 0; i < 50; i++) ecs.push(await makeCompany(t, { bpId: w.vad }));
const post = (i: number) =>
  call(
    'POST',
    `${S}/companies/${ecs[i % ecs.length]}/subscriptions`,
    { offerId: w.offers.nbUsers, maxNumberUsers: 5 },
    w.vadFinance.token,
  );
for (let i = 0; i < 20; i++) await post(i); // warm
// statements of one POST
counts.n = 0;
counts.texts.clear();
const r = await post(0);
if (r.statusCode !== 201) throw new Error(r.body);
console.log('statements in one POST:', counts.n);
for (const [k, v] of counts.texts) console.log(`  ${v} x ${k}`);
// sequential
let t0 = performance.now();
const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) await post(i);
let ms = performance.now() - t0;
const cpu1 = process.cpuUsage(c0);
console.log(
  `sequential: ${N} in ${ms.toFixed(0)} ms = ${((N / ms) * 1000).toFixed(1)}/s, cpu ${((cpu1.user + cpu1.system) / 1000 / N).toFixed(2)} ms/POST`,
);
// concurrent, with pg_stat_activity sampled
const adm = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await adm.connect();
const waits = new Map<string, number>();
let sampling = true;
const sampler = (async () => {
  while (sampling && process.env.WAITS === '1') {
    const r = await adm.query(
      "SELECT coalesce(wait_event_type,'-')||':'||coalesce(wait_event,'-')||' '||state||' '||left(regexp_replace(query,'[[:space:]]+',' ','g'),90) AS w FROM pg_stat_activity WHERE datname LIKE 'svc_test_%' AND pid <> pg_backend_pid() AND state <> 'idle'",
    );
    for (const x of r.rows) waits.set(x.w, (waits.get(x.w) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 10));
  }
})();
t0 = performance.now();
const c1 = process.cpuUsage();
counts.n = 0;
counts.texts.clear();
const pg0 = postgresCpu();
let next = 0;
await Promise.all(
  Array.from({ length: C }, async () => {
    while (next < N) {
      const i = next++;
      const x = await post(i);
      if (x.statusCode !== 201) throw new Error(x.body);
    }
  }),
);
ms = performance.now() - t0;
if (bg) {
  const { sql } = await import('drizzle-orm');
  const left = async () =>
    Number(
      (
        (await t.db.execute(
          sql`SELECT count(*)::int AS n FROM subscriptions WHERE status <> 'active' OR sync_ongoing`,
        )) as any
      ).rows[0].n,
    );
  let n = await left();
  while (n > 0 && performance.now() - t0 < 120_000) {
    await new Promise((r) => setTimeout(r, 50));
    n = await left();
  }
  const all = performance.now() - t0;
  const retried = (await t.db.execute(
    sql`SELECT retry_count, output::text AS output FROM pgboss.job WHERE name = 'commerce.subscription-sync' AND retry_count > 0 LIMIT 5`,
  )) as any;
  console.log('retried synchronisations:', retried.rows);
  console.log(
    `until active (background): ${N} POSTs, all active after ${all.toFixed(0)} ms = ${((N / all) * 1000).toFixed(1)}/s (left ${n})`,
  );
}
const cpu2 = process.cpuUsage(c1);
console.log(
  `postgres CPU per subscription: ${(postgresCpuSince(pg0) / N).toFixed(2)} ms (exited backends not counted)`,
);
console.log(
  `concurrent x${C}: ${N} in ${ms.toFixed(0)} ms = ${((N / ms) * 1000).toFixed(1)}/s, cpu ${((cpu2.user + cpu2.system) / 1000 / N).toFixed(2)} ms/POST`,
);
sampling = false;
await sampler;
await adm.end();
console.log(
  `statements per subscription (POST${bg ? ' and jobs' : ''}, sampler excluded): ${(counts.n / N).toFixed(1)}`,
);
for (const [k, v] of [...counts.texts].sort((a, b) => b[1] - a[1]).slice(0, 40))
  console.log(`  ${(v / N).toFixed(2)} x ${k}`);
if (process.env.WAITS === '1')
  console.log(
    'pg_stat_activity samples (non-idle backends):',
    [...waits].sort((a, b) => b[1] - a[1]),
  );
await t.close();
process.exit(0);
