// The billing run benchmark (target: under 60 s; README, Benchmark): a run over 10,000 End Customers with 3 monthly
// subscriptions each (per user, per service, flat fee), spread over 10 BPs (5 DR, 5 VAD), on a
// fresh database of each engine; target under 60 s. Called by scripts/bench.ts after its cases,
// or alone: `node --experimental-strip-types scripts/bench-billing.ts` (BENCH_BILLING_ECS sets the
// number of End Customers, BENCH_ONLY=server|embedded one engine, BENCH_PG_URL the server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client.ts';
import { loadConfig } from '../src/config.ts';
import { ensureSystemCompanies } from '../src/bootstrap.ts';
import { createPorts } from '../src/ports/ports.ts';
import { periodOf, runBilling, type RunSummary } from '../src/modules/billing/billing-runs.service.ts';

export const BILLING_TARGET_S = 60;
const BPS = 10;

export interface BillingBenchResult {
  engine: 'postgresql' | 'embedded';
  endCustomers: number;
  seconds: number;
  summary: RunSummary;
}

async function withDatabase<T>(
  engine: 'postgresql' | 'embedded',
  pgAdminUrl: string,
  fn: (d: Database) => Promise<T>,
): Promise<T> {
  if (engine === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-billing-'));
    const database = openDatabase({ dataDir: dir });
    try {
      return await fn(database);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const name = `svc_bench_billing_${randomBytes(5).toString('hex')}`;
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: pgAdminUrl });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ url: url.toString(), poolSize: 5 });
  try {
    return await fn(database);
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** Loads the BPs, their End Customers and 3 subscriptions each (created last month), then times one run of this month. */
export async function billingRunBench(
  engine: 'postgresql' | 'embedded',
  endCustomers: number,
  pgAdminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
): Promise<BillingBenchResult> {
  return withDatabase(engine, pgAdminUrl, async (database) => {
    await database.migrate();
    await ensureSystemCompanies(database.db);
    const db = database.db;
    const now = new Date();
    const created = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)).toISOString();
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country, currency, is_bp, bp_type, city)
      SELECT 'bill-bp-' || b, 'Billing BP ' || b, 'active', 'FRA', 'EUR', true, CASE WHEN b % 2 = 0 THEN 'DR' ELSE 'VAD' END, 'Paris'
      FROM generate_series(1, ${BPS}::int) AS b`);
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country, bp_id)
      SELECT 'bill-ec-' || e, 'Billing customer ' || e, 'active', 'FRA', 'bill-bp-' || (e % ${BPS}::int + 1)
      FROM generate_series(1, ${endCustomers}::int) AS e`);
    await db.execute(sql`
      INSERT INTO offers (id, name, can_be_sold, business_model, billing_product_rate_plan_id, billing_product_rate_plan_charge_id, prices) VALUES
        ('bill-users', 'Business', true, 'nb_users', 'rp-users', 'rpc-users', '[{"currency":"EUR","amount":"5.00"}]'::jsonb),
        ('bill-services', 'Voice services', true, 'nb_services', 'rp-services', 'rpc-services', '[{"currency":"EUR","amount":"3.25"}]'::jsonb),
        ('bill-flat', 'Conference room', true, 'flat_fee', 'rp-flat', 'rpc-flat', '[{"currency":"EUR","amount":"29.99"}]'::jsonb)`);
    await db.execute(sql`
      INSERT INTO subscriptions (id, company_id, offer_id, status, max_number_users, creation_date)
      SELECT 'bill-sub-' || e || '-' || o.id, 'bill-ec-' || e, o.id, 'active', CASE WHEN o.id = 'bill-flat' THEN NULL ELSE 1 + e % 50 END, ${created}::timestamptz
      FROM generate_series(1, ${endCustomers}::int) AS e CROSS JOIN (VALUES ('bill-users'), ('bill-services'), ('bill-flat')) AS o(id)`);
    for (const table of ['companies', 'subscriptions', 'offers']) await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
    const config = loadConfig({});
    const ports = createPorts({ database, config, now: () => new Date() });
    const started = performance.now();
    const summary = await runBilling({ db, ports, config, now: () => new Date() }, periodOf(now), 'bench');
    const seconds = (performance.now() - started) / 1000;
    if (summary.items !== endCustomers * 3)
      throw new Error(`the run wrote ${summary.items} items, expected ${endCustomers * 3}`);
    return { engine, endCustomers, seconds, summary };
  });
}

export function billingBenchLine(r: BillingBenchResult): string {
  const total = r.summary.totals.map((t) => `${t.amount} ${t.currency}`).join(', ');
  return `billing run (${r.engine}): ${r.endCustomers.toLocaleString('en')} End Customers x 3 subscriptions, ${r.summary.invoices} invoices, ${r.summary.items.toLocaleString('en')} items, ${r.summary.files} files, total ${total}: ${r.seconds.toFixed(1)} s (target < ${BILLING_TARGET_S} s, met: ${r.seconds < BILLING_TARGET_S ? 'yes' : 'no'})`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const n = Number(process.env.BENCH_BILLING_ECS ?? 10_000);
  const only = process.env.BENCH_ONLY;
  const engines = (['postgresql', 'embedded'] as const).filter(
    (e) => !only || (only === 'server' ? e === 'postgresql' : e === 'embedded'),
  );
  for (const e of engines) console.log(billingBenchLine(await billingRunBench(e, n)));
}
