// `npm run bench`: throughput, tail latency, cold start and memory of the service, not a test.
//
// It loads two databases alike, a fresh PostgreSQL database with a random name and a fresh
// embedded PGlite DATA_DIR: 101,100 companies (1,000 with 100 users each, 100 BPs and 100,000 End
// Customers of those BPs, one in ten on hold), 100,000 users and 10,000 sites. Then, for each, it
// measures the cold start of the real service (src/main.ts with the environment and flags of
// `npm start`; spawn to first answer, median of three) and its resident memory after 10,000
// mixed requests, and leaves it running. Beside them a bare Fastify + pg server
// (scripts/bench-ceiling.ts) verifies the same JWT and answers the very body the service answered,
// read by path from a table of the PostgreSQL database: the strict ceiling of this stack for the
// single-resource GETs and listUsers. Each case of
// CASES is then measured with autocannon on every server in turn, in slices of two seconds, so
// that other work on the machine weighs on each alike and the ratios (to the ceiling, embedded to
// PostgreSQL) hold. It prints the table and writes docs/benchmarks.md.
//
// Commerce (docs/decisions.md, Commerce under load): the first BENCH_COMMERCE_COMPANIES End Customers (default
// 10,000) hold two subscriptions each besides their default one, with a few licences, and the
// default catalog holds 100 offers; the BPs sell (resell model, known applicant numbers) and the
// first ten have a bp_finance. Cases `listCompanyOffers` and `getSubscription` (its ratio to
// getCompany of the same run is printed) are GETs like the others; `createSubscription until
// active` (PostgreSQL only) posts BENCH_CREATE_SUBSCRIPTIONS subscriptions (default 3,000) as the
// bp_finances and counts the subscriptions per second from the first request until every one
// is `active` (jobs included).
//
// Image work (case `getSite during 8 banner uploads`): 8 banners at the upload limits (8192 x 8192
// pixels, just under 8 MB) are posted at once, BENCH_UPLOAD_ROUNDS times (default 3), while one
// client reads a site every 20 ms; the latency of those reads (p50, p99, slowest) is the figure,
// beside the same reads on the idle service just before.
//
// Settings (environment): BENCH_PG_URL (an admin URL of the PostgreSQL server, default
// postgres://postgres@127.0.0.1:5432/postgres), BENCH_CONNECTIONS (default 20), BENCH_DURATION
// (seconds per case and server, in slices of 2 s, default 6), BENCH_WARMUP (seconds, default 2),
// BENCH_WARMUP_CEILING (seconds, default 10, the cases measured against the ceiling). For profiling: BENCH_ONLY
// (server|embedded), BENCH_CASES (comma-separated case names), BENCH_SERVICE_NODE_ARGS and BENCH_CEILING_NODE_ARGS (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_KEEP_DB=1 (the PostgreSQL database and the embedded
// data folder are kept and named, to measure them again by hand); only a full run writes docs/benchmarks.md, and not
// with BENCH_NO_DOC=1.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, availableParallelism, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.ts';
import { hashPassword } from '../src/shared/passwords.ts';

import { billingBenchLine, billingRunBench } from './bench-billing.ts';
import { importBench, importBenchLines } from './bench-import.ts';
import { busyText, QUIET_BELOW, QUIET_WAIT_S, waitForQuiet } from './machine-load.ts';
import { bannerAtLimits } from './banner-at-limits.ts';
import {
  cleanup,
  cleanups,
  createPgDatabase,
  login,
  startChild,
  startService,
  SUPERADMIN_EMAIL,
  SUPERADMIN_PASSWORD,
  type Child,
  postgresCpu,
  postgresCpuSince,
} from './service-process.ts';

export { cleanup, createPgDatabase, login, startService, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD, type Child };
import { BIG_ADMIN_EMAIL, BIG_EC, loadPbx, PBX_CASES, PBX_LIST_CASES, PBX_SMALL, pbxRequests } from './bench-pbx.ts';

/** End Customers (3 monthly subscriptions each) of the billing run case. */
const BILLING_END_CUSTOMERS = Number(process.env.BENCH_BILLING_ECS ?? 10_000);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const USERS = 100_000;
const COMPANIES = 1_000;
const EC_COMPANIES = 100_000;
const BP_COUNT = 100;
const SITES = 10_000;
/** BP companies that get a bp_admin for the scoped listCompanies case. */
const BP_ADMINS = 10;
const PAGE_LIMIT = 20;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 6);
/** Length of one interleaved slice of a case (seconds). */
const SLICE = 2;
/** Cold starts measured per database; the median is reported. */
const COLD_STARTS = 3;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
/**
 * Warm-up of the cases measured against the ceiling (seconds). The service's code reaches its
 * steady speed after some 10 s of one case's load (many functions for V8 to optimise,
 * docs/decisions.md), the ceiling's few functions in about one:
 * after 2 s the ratio compared a warming service with a warm ceiling (docs/decisions.md,
 * Performance, "Both servers warm before a ratio").
 */
const WARMUP_CEILING = Number(process.env.BENCH_WARMUP_CEILING ?? 10);
/** Distinct ids (and companies) each autocannon connection cycles through. */
const ROTATION = 1_000;
const ONLY = process.env.BENCH_ONLY as 'server' | 'embedded' | undefined;
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USER_PASSWORD = 'Bench-password-1!';
/** Requests of the memory phase (the target is the resident memory after 10,000 requests). */
const MEMORY_REQUESTS = 10_000;

// Targets (README, Benchmark; 2-core machine, PostgreSQL over 100,000 companies).
const GET_TARGET_RATIO = 0.7;
const GET_TARGET_P99_MS = 20;
const LIST_TARGET_RPS = 2_000;
const LIST_TARGET_P99_MS = 50;
// Quotations per second on PostgreSQL.
const QUOTATION_TARGET_RPS = 2_000;
const QUOTATION_TARGET_P99_MS = 50;
/** The priced offer of the default catalog the quotation case quotes. */
const QUOTED_OFFER_ID = 'bench-quoted-offer';
const EMBEDDED_SHARE = 1 / 3;
const COLD_START_TARGET_MS = 2_000;
const RSS_TARGET_MB = { embedded: 300, postgresql: 200 } as const;

// Commerce (docs/decisions.md, Commerce under load).
const COMMERCE_COMPANIES = Number(process.env.BENCH_COMMERCE_COMPANIES ?? 10_000);
const CREATE_SUBSCRIPTIONS = Number(process.env.BENCH_CREATE_SUBSCRIPTIONS ?? 3_000);
const OFFERS = 100;
/** BPs whose bp_finance buys in the creation case (their End Customers among the first COMMERCE_COMPANIES). */
const BP_FINANCES = 10;
const OFFERS_TARGET_RPS = 2_000;
const OFFERS_TARGET_P99_MS = 50;
const SUBSCRIPTION_TARGET_RATIO = 0.7;
const CREATE_TARGET_PER_S = 300;
const CREATE_CASE = 'createSubscription until active';

// Image work: an unrelated light request while banners at the limits are uploaded at once.
const UPLOAD_CASE = 'getSite during 8 banner uploads';
const UPLOADS = 8;
const UPLOAD_ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
/** Pause between two reads of the light client (ms). */
const UPLOAD_READ_PAUSE_MS = 20;
const UPLOAD_TARGET_P99_MS = 500;

export const ALL_CASES = [
  'getUser',
  'getCompany',
  'getCompany default format',
  'getSite',
  'listUsers',
  'listCompanies bpId+status+isBP',
  'listCompanies isBP',
  'listCompanies status',
  'listCompanies name',
  'listCompanies name+status+isBP',
  'listCompanies status (bp_admin)',
  'listCompanyOffers',
  'getSubscription',
  'createSubscription until active',
  'createQuotation',
  'getSite during 8 banner uploads',
  ...PBX_CASES,
] as const;
export type CaseName = (typeof ALL_CASES)[number];
/** The request cases asked (BENCH_CASES; `billingRun` and `import` name the runs after them, not cases). */
const CASES = (process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : [...ALL_CASES]).filter(
  (c): c is CaseName => (ALL_CASES as readonly string[]).includes(c),
);
/** Cases the ceiling server also answers. */
const CEILING_CASES: readonly CaseName[] = [
  'getUser',
  'getCompany',
  'getCompany default format',
  'getSite',
  'listUsers',
  'getCloudPbx',
];

export type Engine = 'postgresql' | 'embedded' | 'ceiling (bare pg)';

export interface Measure {
  caseName: CaseName;
  engine: Engine;
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /** Share of the machine's CPU busy with other work just before the case (undefined off Linux). */
  busy: number | undefined;
}

export interface EngineFacts {
  engine: 'postgresql' | 'embedded';
  coldStartMs: number;
  rssAfter10kMb: number;
  rssEndMb: number;
}

// ---------------------------------------------------------------------------------------------
// Cleanup: every child process and temporary database registers how to undo itself.

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Child processes

// ---------------------------------------------------------------------------------------------
// Data

const md5 = (s: string) => createHash('md5').update(s).digest('hex').slice(0, 24);
const companyId = (c: number) => md5(`company-${c}`);
const userId = (i: number) => md5(`user-${i}`);
const ecId = (e: number) => md5(`ec-${e}`);
const bpId = (b: number) => md5(`bp-${b}`);
const siteId = (s: number) => md5(`site-${s}`);
const bpAdminEmail = (b: number) => `bp-admin-${b}@bench.example`;
const bpFinanceEmail = (b: number) => `bp-finance-${b}@bench.example`;
/** The two subscriptions (besides the default one) of End Customer e, e <= COMMERCE_COMPANIES. */
const subscriptionId = (e: number, k: number) => md5(`sub-${e}-${k}`);
const offerId = (o: number) => md5(`offer-${o}`);

/** The letters of an End Customer's name, as the load writes them (md5 hex digits -> g..p). */
function ecNameLetters(e: number): string {
  const hex = createHash('md5').update(`ecname-${e}`).digest('hex').slice(0, 8);
  return hex.replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)]);
}

/** A deterministic shuffle, so that every run asks for the same ids in the same order. */
function sample(n: number, max: number, seed: number): number[] {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const set = new Set<number>();
  while (set.size < n) set.add(1 + Math.floor(rnd() * max));
  return [...set];
}

/**
 * Set-based load, with the service stopped (it must have migrated the schema already): the
 * companies, users (user i in company i mod COMPANIES, so that the users of a company are spread
 * over the table as real inserts would be), sites and the bp_admins, one shared argon2 hash. The
 * next start of the service gives every new company its default subscription.
 */
export async function loadData(open: { url?: string; dataDir?: string }, passwordHash: string): Promise<void> {
  const database = openDatabase(open);
  try {
    const db = database.db;
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country)
      SELECT substr(md5('company-' || c), 1, 24), 'Bench company ' || lpad(c::text, 4, '0'), 'active', 'FRA'
      FROM generate_series(1, ${COMPANIES}::int) AS c`);
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country, is_bp, bp_type, bp_business_model, bp_applicant_number)
      SELECT substr(md5('bp-' || b), 1, 24), 'Bench BP ' || lpad(b::text, 3, '0'), 'active', 'FRA', true, 'DR', 'resell', 'BENCH-APP-' || b
      FROM generate_series(1, ${BP_COUNT}::int) AS b`);
    // The offer the quotation case quotes: nb_users, 5.00 EUR per user and month, in the default catalog.
    await db.execute(sql`
      INSERT INTO offers (id, name, can_be_sold, business_model, billing_product_rate_plan_id, prices)
      VALUES (${QUOTED_OFFER_ID}, 'Bench quoted offer', true, 'nb_users', 'rp-bench', '[{"currency":"EUR","amount":"5.00"}]'::jsonb)`);
    await db.execute(
      sql`INSERT INTO catalog_offers (catalog_id, offer_id) SELECT id, ${QUOTED_OFFER_ID} FROM catalogs WHERE is_default`,
    );
    await db.execute(sql`
      INSERT INTO companies (id, name, status, country, bp_id, external_reference)
      SELECT substr(md5('ec-' || e), 1, 24), 'Customer ' || initcap(translate(substr(md5('ecname-' || e), 1, 8), '0123456789', 'ghijklmnop')) || ' ' || e,
             CASE WHEN (e / ${BP_COUNT}::int) % 10 = 0 THEN 'hold' ELSE 'active' END, 'FRA',
             substr(md5('bp-' || (e % ${BP_COUNT}::int + 1)), 1, 24), 'EXT-' || e
      FROM generate_series(1, ${EC_COMPANIES}::int) AS e`);
    await db.execute(sql`
      INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles, language, timezone)
      SELECT substr(md5('user-' || i), 1, 24),
             substr(md5('company-' || (i % ${COMPANIES}::int + 1)), 1, 24),
             'user' || i || '@bench.example',
             ${passwordHash},
             (ARRAY['Alice','Bruno','Chloé','David','Emma','Farid','Gaëlle','Hugo','Inès','Jules'])[i % 10 + 1],
             initcap(translate(substr(md5('last-' || i), 1, 8), '0123456789', 'ghijklmnop')) || '-' || i,
             ARRAY['user']::text[], 'en', 'Europe/Paris'
      FROM generate_series(1, ${USERS}::int) AS i`);
    await db.execute(sql`
      INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles)
      SELECT substr(md5('bp-admin-' || b), 1, 24), substr(md5('bp-' || b), 1, 24), 'bp-admin-' || b || '@bench.example', ${passwordHash}, 'Bp', 'Admin ' || b, ARRAY['bp_admin', 'user']::text[]
      FROM generate_series(1, ${BP_ADMINS}::int) AS b`);
    await db.execute(sql`
      INSERT INTO sites (id, name, company_id)
      SELECT substr(md5('site-' || s), 1, 24), 'Site ' || s, substr(md5('ec-' || s), 1, 24)
      FROM generate_series(1, ${SITES}::int) AS s`);
    // Every company has its default subscription (document 3, create company rule 7), as the API gives it.
    await db.execute(sql`
      INSERT INTO subscriptions (id, company_id, offer_id, status, is_default)
      SELECT substr(md5('sub-' || c.id), 1, 24), c.id, o.id, 'active', TRUE
      FROM companies c CROSS JOIN (SELECT id FROM offers WHERE is_default) o
      WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.company_id = c.id AND s.is_default)`);
    await loadCommerce(db, passwordHash);
    await loadPbx(db, passwordHash);
    // PGlite has no autovacuum; on PostgreSQL this also keeps autovacuum from starting mid-run.
    for (const table of ['companies', 'users', 'sites', 'subscriptions', 'offers', 'catalog_offers', 'licences'])
      await db.execute(sql.raw(`VACUUM ANALYZE ${table}`));
    const res = (await db.execute(sql`SELECT count(*)::int AS n FROM users`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    if (res.rows[0].n < USERS) throw new Error(`loaded ${res.rows[0].n} users, expected ${USERS}`);
  } finally {
    await database.close();
  }
}

/**
 * Commerce (docs/decisions.md, Commerce under load): the BPs sell (resell model, an applicant number the embedded
 * order system knows), the default catalog holds OFFERS offers (every other one billed, with
 * prices and features), the first COMMERCE_COMPANIES End Customers hold two subscriptions each
 * (a billed nb_users one with licences of two users, and a flat one), and the first BP_FINANCES
 * BPs have a bp_finance.
 */
async function loadCommerce(db: ReturnType<typeof openDatabase>['db'], passwordHash: string): Promise<void> {
  await db.execute(
    sql`UPDATE companies SET bp_business_model = 'resell', bp_applicant_number = 'APP-BENCH-' || id WHERE is_bp`,
  );
  await db.execute(sql`
    INSERT INTO offers (id, name, description, profile_id, profile_name, can_be_sold, business_model, group_name, offer_reference,
                        billing_product_rate_plan_id, prices, features)
    SELECT substr(md5('offer-' || o), 1, 24), 'Bench offer ' || lpad(o::text, 3, '0'), 'An offer of the bench', 'profile-' || (o % 5), 'Profile ' || (o % 5), TRUE,
           CASE WHEN o % 2 = 1 THEN 'nb_users' ELSE 'flat_fee' END, 'Group ' || (o % 4), 'REF-' || o,
           CASE WHEN o % 2 = 1 THEN 'rp-bench-' || o END,
           jsonb_build_array(jsonb_build_object('currency', 'EUR', 'amount', (o || '.90')), jsonb_build_object('currency', 'USD', 'amount', (o || '.50'))),
           jsonb_build_array(jsonb_build_object('featureUniqueRef', 'F-USERS', 'featureName', 'Users', 'featureType', 'number', 'limitMax', o),
                             jsonb_build_object('featureUniqueRef', 'F-VOICE', 'featureName', 'Voice', 'featureType', 'boolean', 'isEnabled', o % 3 = 0))
    FROM generate_series(1, ${OFFERS}::int) AS o`);
  await db.execute(sql`
    INSERT INTO catalog_offers (catalog_id, offer_id)
    SELECT c.id, substr(md5('offer-' || o), 1, 24) FROM catalogs c CROSS JOIN generate_series(1, ${OFFERS}::int) AS o WHERE c.is_default`);
  // Two subscriptions per End Customer: k = 1 a billed nb_users offer (odd), k = 2 a flat one (even).
  await db.execute(sql`
    INSERT INTO subscriptions (id, company_id, offer_id, status, max_number_users, number_assigned_users, bs_subscription_id, billing_subscription_id, created_by)
    SELECT substr(md5('sub-' || e || '-' || k), 1, 24), substr(md5('ec-' || e), 1, 24),
           substr(md5('offer-' || (CASE WHEN k = 1 THEN 2 * (e % 50) + 1 ELSE 2 * (e % 50) + 2 END)), 1, 24),
           'active', CASE WHEN k = 1 THEN 10 END, CASE WHEN k = 1 THEN 2 ELSE 0 END, 'bs-' || e || '-' || k, CASE WHEN k = 1 THEN 'bill-' || e END,
           jsonb_build_object('bpApplicantNumber', NULL, 'loginEmail', 'bench@bench.example', 'userId', 'bench')
    FROM generate_series(1, ${COMMERCE_COMPANIES}::int) AS e CROSS JOIN generate_series(1, 2) AS k`);
  // Two users of each of those End Customers, holding a licence of its nb_users subscription.
  await db.execute(sql`
    INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles)
    SELECT substr(md5('ec-user-' || e || '-' || u), 1, 24), substr(md5('ec-' || e), 1, 24), 'ec-user-' || e || '-' || u || '@bench.example', ${passwordHash}, 'Licence', 'Holder ' || e || '-' || u, ARRAY['user']::text[]
    FROM generate_series(1, ${COMMERCE_COMPANIES}::int) AS e CROSS JOIN generate_series(1, 2) AS u`);
  await db.execute(sql`
    INSERT INTO licences (subscription_id, user_id, user_company_id)
    SELECT substr(md5('sub-' || e || '-1'), 1, 24), substr(md5('ec-user-' || e || '-' || u), 1, 24), substr(md5('ec-' || e), 1, 24)
    FROM generate_series(1, ${COMMERCE_COMPANIES}::int) AS e CROSS JOIN generate_series(1, 2) AS u`);
  await db.execute(sql`
    INSERT INTO users (id, company_id, login_email, password_hash, first_name, last_name, roles)
    SELECT substr(md5('bp-finance-' || b), 1, 24), substr(md5('bp-' || b), 1, 24), 'bp-finance-' || b || '@bench.example', ${passwordHash}, 'Bp', 'Finance ' || b, ARRAY['bp_finance', 'user']::text[]
    FROM generate_series(1, ${BP_FINANCES}::int) AS b`);
}

// ---------------------------------------------------------------------------------------------
// Requests of each case

interface Req {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const A = '/api/svc/admin/v1.0';
const userIds = sample(ROTATION, USERS, 42).map(userId);
const userCompanyIds = sample(ROTATION, COMPANIES, 7).map(companyId);
const ecIds = sample(ROTATION, EC_COMPANIES, 11).map(ecId);
const siteIds = sample(ROTATION, SITES, 13).map(siteId);
const bpIds = Array.from({ length: BP_COUNT }, (_, b) => bpId(b + 1));
/** Three letters of existing names: each matches about a hundred companies. */
const keywords = sample(ROTATION, EC_COMPANIES, 17).map((e) => ecNameLetters(e).slice(2, 5));
const S = '/api/svc/subscription/v1.0';
/** End Customers holding the commerce data (e <= COMMERCE_COMPANIES), and each one's subscriptions. */
const commerceEcs = sample(Math.min(ROTATION, COMMERCE_COMPANIES), COMMERCE_COMPANIES, 19);
/** End Customers of the BPs that have a bp_finance (ec e has BP e mod BP_COUNT + 1). */
const buyingEcs = Array.from({ length: COMMERCE_COMPANIES }, (_, i) => i + 1).filter((e) => e % BP_COUNT < BP_FINANCES);
/** The small CloudPBXs in the rotation (scripts/bench-pbx.ts), and the large one. */
const pbxEcs = sample(Math.min(ROTATION, PBX_SMALL), PBX_SMALL, 23);
const pbxIds = pbxEcs.map((e) => md5(`pbx-${e}`));
const welcomeIds = pbxEcs.map((e) => md5(`pbx-welcome-${e}`));
const bigPbxId = md5(`pbx-${BIG_EC}`);
const q = (o: Record<string, string | number | boolean>) =>
  new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

interface Tokens {
  superadmin: string;
  /** The company_admin of the large CloudPBX's company (its recordings' reader). */
  pbxAdmin: string;
  bpAdmins: string[];
  /** The bp_finance of BP b + 1 at index b (b < BP_FINANCES). */
  bpFinances: string[];
}

/** The requests of a case against the service; `tokens.bpAdmins` for the scoped case. */
function serviceRequests(c: CaseName, tokens: Tokens): Req[] {
  const auth = (token = tokens.superadmin) => ({ authorization: `Bearer ${token}` });
  const list = (o: Record<string, string | number | boolean>[]) =>
    o.map((x) => ({
      method: 'GET' as const,
      path: `${A}/companies?${q({ ...x, limit: PAGE_LIMIT })}`,
      headers: auth(),
    }));
  switch (c) {
    case 'getUser':
      return userIds.map((id) => ({ method: 'GET', path: `${A}/users/${id}`, headers: auth() }));
    case 'getCompany':
      return ecIds.map((id) => ({ method: 'GET', path: `${A}/companies/${id}?format=full`, headers: auth() }));
    case 'getCompany default format':
      // As the issue's outside harness reads it (document 3: `small` unless a format is asked).
      return ecIds.map((id) => ({ method: 'GET', path: `${A}/companies/${id}`, headers: auth() }));
    case 'getSite':
    case UPLOAD_CASE:
      return siteIds.map((id) => ({ method: 'GET', path: `${A}/sites/${id}`, headers: auth() }));
    case 'listUsers':
      return userCompanyIds.map((id) => ({
        method: 'GET',
        path: `${A}/users?${q({ companyId: id, limit: PAGE_LIMIT, sortField: 'lastName' })}`,
        headers: auth(),
      }));
    case 'listCompanies bpId+status+isBP':
      return list(bpIds.map((bpId) => ({ bpId, status: 'active', isBP: false })));
    case 'listCompanies isBP':
      // One filter matching every End Customer; pages rotate so that the count is of one filter set.
      return list([0, 20, 40, 60, 80].map((offset) => ({ isBP: false, offset })));
    case 'listCompanies status':
      return list(['active', 'hold', 'active,hold'].map((status) => ({ status })));
    case 'listCompanies name':
      return list(keywords.map((name) => ({ name })));
    case 'listCompanies name+status+isBP':
      return list(keywords.map((name) => ({ name, status: 'active', isBP: false })));
    case 'listCompanies status (bp_admin)':
      return tokens.bpAdmins.map((t) => ({
        method: 'GET',
        path: `${A}/companies?${q({ status: 'active', limit: PAGE_LIMIT })}`,
        headers: auth(t),
      }));
    case 'listCompanyOffers':
      // A page of the company's catalog (its BP's, here the default one), as the original client asks it.
      return commerceEcs.map((e) => ({
        method: 'GET',
        path: `${S}/companies/${ecId(e)}/offers?${q({ format: 'full', limit: PAGE_LIMIT })}`,
        headers: auth(),
      }));
    case 'getSubscription':
      return commerceEcs.map((e) => ({
        method: 'GET',
        path: `${S}/companies/${ecId(e)}/subscriptions/${subscriptionId(e, 1)}`,
        headers: auth(),
      }));
    case 'createSubscription until active':
      return buyingEcs.slice(0, ROTATION).map((e) => ({
        method: 'POST',
        path: `${S}/companies/${ecId(e)}/subscriptions`,
        headers: { ...auth(tokens.bpFinances[e % BP_COUNT]), 'content-type': 'application/json' },
        body: JSON.stringify({
          offerId: offerId(2 * (e % 50) + 1),
          maxNumberUsers: 5,
          purchaseOrderNumber: 'BENCH-CREATE',
        }),
      }));
    case 'createQuotation':
      // A new monthly subscription of 1 to 50 users quoted for an End Customer of a resell DR.
      return ecIds.map((id, i) => ({
        method: 'POST',
        path: `/api/svc/subscription/v1.0/companies/${id}/quotations`,
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ offerId: QUOTED_OFFER_ID, maxNumberUsers: 1 + (i % 50) }),
      }));
    default:
      return pbxRequests(c, pbxIds, welcomeIds, bigPbxId, tokens.superadmin, tokens.pbxAdmin);
  }
}

/**
 * The service's answer to every request of the ceiling's cases, stored by path for the ceiling
 * (scripts/bench-ceiling.ts), which then answers the same bytes to the same requests.
 */
async function captureAnswers(base: string, databaseUrl: string, tokens: Tokens): Promise<void> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('DROP TABLE IF EXISTS bench_ceiling_answers');
    await db.query('CREATE TABLE bench_ceiling_answers (path text PRIMARY KEY, body text NOT NULL)');
    for (const c of CEILING_CASES) {
      const requests = [...new Map(serviceRequests(c, tokens).map((r) => [r.path, r])).values()];
      const t0 = Date.now();
      let next = 0;
      const answers: [string, string][] = [];
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < requests.length) {
            const r = requests[next++];
            const res = await fetch(base + r.path, { method: r.method, headers: r.headers });
            const body = await res.text();
            if (res.status !== 200) throw new Error(`ceiling capture: ${c} ${r.path} answered ${res.status}: ${body}`);
            answers.push([r.path, body]);
          }
        }),
      );
      for (let i = 0; i < answers.length; i += 2000) {
        const batch = answers.slice(i, i + 2000);
        await db.query('INSERT INTO bench_ceiling_answers (path, body) SELECT * FROM unnest($1::text[], $2::text[])', [
          batch.map((a) => a[0]),
          batch.map((a) => a[1]),
        ]);
      }
      console.log(
        `  ceiling: ${fmt(answers.length, 0)} answers of ${c} stored (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
    await db.query('VACUUM ANALYZE bench_ceiling_answers');
  } finally {
    await db.end();
  }
}

/** One request of each before measuring: a wrong path or token fails here, not as non-2xx. */
async function check(base: string, reqs: Req[], c: CaseName): Promise<void> {
  const r = await fetch(base + reqs[0].path, {
    method: reqs[0].method,
    headers: reqs[0].headers,
    body: reqs[0].body,
  });
  const body = await r.text();
  if (!r.ok) throw new Error(`${c}: ${reqs[0].method} ${reqs[0].path}: ${r.status} ${body.slice(0, 300)}`);
  if (c.startsWith('list')) {
    const b = JSON.parse(body) as { data: unknown[]; total: number };
    // The free internal numbers are `{data}` alone (document 2); every other list has its total.
    const counted = !c.startsWith('listFreeInternalNumbers');
    if (!Array.isArray(b.data) || b.data.length === 0 || (counted && typeof b.total !== 'number'))
      throw new Error(`${c}: an empty page: ${body.slice(0, 300)}`);
  }
}

function cannon(
  base: string,
  requests: Req[],
  opts: { duration?: number; amount?: number },
): Promise<autocannon.Result> {
  return autocannon({ url: base, connections: CONNECTIONS, pipelining: 1, ...opts, requests });
}

/**
 * Subscriptions created through the API (by the bp_finances, 20 connections)
 * until every one is `active`, jobs included. Counted from the first request to the last
 * subscription's activation, as the database recorded it (the latest last_update_date of those
 * subscriptions, the same machine's clock); p50 and p99 are those of the POSTs. The database is
 * asked how far the work got every 250 ms, through the companies' index, so that watching costs
 * the machine next to nothing (a scan of every subscription 20 times a second had taken a third
 * of a core from the service).
 */
async function measureCreation(base: string, requests: Req[], databaseUrl: string): Promise<Measure> {
  await check(base, requests, CREATE_CASE);
  const companies = [...new Set(requests.map((r) => r.path.split('/companies/')[1].split('/')[0]))];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const count = async () =>
    (
      await db.query<{ all: number; active: number; failed: number; last: Date | null }>(
        `SELECT count(*)::int AS all, (count(*) FILTER (WHERE status = 'active' AND NOT sync_ongoing))::int AS active, (count(*) FILTER (WHERE sync_error IS NOT NULL))::int AS failed,
         max(last_update_date) FILTER (WHERE status = 'active' AND NOT sync_ongoing) AS last
       FROM subscriptions WHERE company_id = ANY($1::text[]) AND purchase_order_number = 'BENCH-CREATE'`,
        [companies],
      )
    ).rows[0];
  try {
    // The subscription of check() and its job first: the measure starts with an idle queue.
    for (let end = Date.now() + 60_000; (await count()).active < 1 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 100));
    const before = await count();
    const busy = await waitForQuiet();
    const t0 = Date.now();
    const posted = await cannon(base, requests, { amount: CREATE_SUBSCRIPTIONS });
    const postedMs = Date.now() - t0;
    const expected = before.all + posted['2xx'];
    let now = await count();
    const deadline = Date.now() + 600_000;
    while (now.active + now.failed < expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      now = await count();
    }
    const lastActive = now.last ? now.last.getTime() : Date.now();
    const seconds = (Math.max(lastActive, t0 + postedMs) - t0) / 1000;
    const made = now.active - before.active;
    const m: Measure = {
      caseName: CREATE_CASE,
      engine: 'postgresql',
      rps: made / seconds,
      p50: posted.latency.p50,
      p99: posted.latency.p99,
      total: made,
      non2xx: posted.non2xx + (now.active < expected ? expected - now.active : 0),
      errors: posted.errors,
      busy,
    };
    console.log(
      `  ${CREATE_CASE.padEnd(32)} ${'postgresql'.padEnd(18)} ${fmt(m.rps, 0).padStart(7)} active/s  (${made} active in ${seconds.toFixed(1)} s; the ${posted.requests.total} POSTs took ${(postedMs / 1000).toFixed(1)} s, ${fmt(posted.requests.total / (postedMs / 1000), 0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms; ${now.failed} with syncError) (machine ${busyText(busy)} busy before)`,
    );
    return m;
  } finally {
    await db.end();
  }
}

let bannerMade: Promise<Buffer> | undefined;
const makeBanner = (): Promise<Buffer> => (bannerMade ??= bannerAtLimits());

/** Latencies (ms) of one client reading `reads` in turn, a pause between two, until `until()` holds. */
async function lightReads(
  base: string,
  reads: Req[],
  until: () => boolean,
): Promise<{ latencies: number[]; non2xx: number; errors: number }> {
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  for (let i = 0; !until(); i++) {
    const req = reads[i % reads.length]!;
    const t0 = performance.now();
    try {
      const res = await fetch(base + req.path, { headers: req.headers });
      await res.arrayBuffer();
      if (!res.ok) non2xx++;
    } catch {
      errors++;
    }
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, UPLOAD_READ_PAUSE_MS));
  }
  return { latencies, non2xx, errors };
}

/** The value at quantile q (0 to 1) of sorted values, nearest rank. */
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

/**
 * Image work beside other requests: UPLOADS banners at the limits posted at once, UPLOAD_ROUNDS
 * times, while one client reads sites (getSite) one after the other; p50 and p99 are those reads'.
 * The same reads on the idle service for 3 s first, for comparison.
 */
async function measureUploads(r: Running): Promise<Measure> {
  const base = r.service.base;
  const reads = serviceRequests(UPLOAD_CASE, r.tokens);
  await check(base, reads, UPLOAD_CASE);
  const banner = await makeBanner();
  const busy = await waitForQuiet();
  const idleEnd = Date.now() + 3_000;
  const idle = (await lightReads(base, reads, () => Date.now() > idleEnd)).latencies.sort((a, b) => a - b);
  const latencies: number[] = [];
  const uploadSeconds: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const companies = ecIds.slice(0, UPLOADS);
  for (let round = 0; round < UPLOAD_ROUNDS; round++) {
    const t0 = Date.now();
    let done = false;
    const uploads = Promise.all(
      companies.map(async (id) => {
        try {
          const res = await fetch(`${base}${A}/companies/${id}/banner`, {
            method: 'POST',
            headers: { authorization: `Bearer ${r.tokens.superadmin}`, 'content-type': 'image/png' },
            body: new Blob([new Uint8Array(banner)]),
          });
          const text = await res.text();
          if (!res.ok) {
            non2xx++;
            console.log(`  ${UPLOAD_CASE}: upload answered ${res.status} ${text.slice(0, 200)}`);
          }
        } catch (err) {
          errors++;
          console.log(`  ${UPLOAD_CASE}: upload failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    ).finally(() => (done = true));
    const got = await lightReads(base, reads, () => done);
    await uploads;
    uploadSeconds.push((Date.now() - t0) / 1000);
    latencies.push(...got.latencies);
    non2xx += got.non2xx;
    errors += got.errors;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const seconds = uploadSeconds.reduce((a, b) => a + b, 0);
  const m: Measure = {
    caseName: UPLOAD_CASE,
    engine: r.engine,
    rps: latencies.length / seconds,
    p50: Math.round(quantile(sorted, 0.5)),
    p99: Math.round(quantile(sorted, 0.99)),
    total: latencies.length,
    non2xx,
    errors,
    busy,
  };
  const bad = m.non2xx || m.errors ? `  (!! ${m.non2xx} non-2xx, ${m.errors} errors)` : '';
  console.log(
    `  ${UPLOAD_CASE.padEnd(32)} ${r.engine.padEnd(18)} ${latencies.length} reads during ${UPLOAD_ROUNDS} x ${UPLOADS} uploads of ${(banner.length / 2 ** 20).toFixed(2)} MB (${uploadSeconds.map((x) => x.toFixed(1)).join(', ')} s): p50 ${m.p50} ms  p99 ${m.p99} ms  slowest ${Math.round(sorted[sorted.length - 1]!)} ms; idle before: p50 ${Math.round(quantile(idle, 0.5))} ms  p99 ${Math.round(quantile(idle, 0.99))} ms (machine ${busyText(busy)} busy before)${bad}`,
  );
  return m;
}

/** One server's share of a case: the requests against it and the slices measured so far. */
interface Contender {
  engine: Engine;
  base: string;
  requests: Req[];
  slices: autocannon.Result[];
  /** The server process's CPU time so far (ms): the bench prints its CPU per request. */
  cpuMs?: () => number;
  cpuSpent?: number;
  /** The PostgreSQL server's CPU over this server's slices (ms), when it answers from one. */
  dbCpuSpent?: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Measures one case on several servers at once, interleaved: slices of SLICE seconds taken in
 * turn, so that other work on the machine weighs on each of them alike and their ratios hold.
 * requests/s is over all slices; p50 and p99 are the medians of the slices' figures.
 */
async function measureCase(caseName: CaseName, contenders: Omit<Contender, 'slices'>[]): Promise<Measure[]> {
  const cs: Contender[] = contenders.map((c) => ({ ...c, slices: [] }));
  for (const c of cs) await check(c.base, c.requests, caseName);
  const busy = await waitForQuiet();
  const warmup = CEILING_CASES.includes(caseName) ? Math.max(WARMUP, WARMUP_CEILING) : WARMUP;
  for (const c of cs) if (warmup > 0) await cannon(c.base, c.requests, { duration: warmup });
  for (let round = 0; round < Math.max(1, Math.round(DURATION / SLICE)); round++) {
    for (const c of cs) {
      const cpu0 = c.cpuMs?.() ?? Number.NaN;
      const db0 = c.engine === 'embedded' ? undefined : postgresCpu();
      c.slices.push(await cannon(c.base, c.requests, { duration: SLICE }));
      c.cpuSpent = (c.cpuSpent ?? 0) + ((c.cpuMs?.() ?? Number.NaN) - cpu0);
      if (db0) c.dbCpuSpent = (c.dbCpuSpent ?? 0) + postgresCpuSince(db0);
    }
  }
  return cs.map((c) => {
    const total = c.slices.reduce((a, r) => a + r.requests.total, 0);
    const seconds = c.slices.reduce((a, r) => a + r.duration, 0);
    const m: Measure = {
      caseName,
      engine: c.engine,
      rps: total / seconds,
      p50: median(c.slices.map((r) => r.latency.p50)),
      p99: median(c.slices.map((r) => r.latency.p99)),
      total,
      non2xx: c.slices.reduce((a, r) => a + r.non2xx, 0),
      errors: c.slices.reduce((a, r) => a + r.errors, 0),
      busy,
    };
    const bad = m.non2xx || m.errors ? `  (!! ${m.non2xx} non-2xx, ${m.errors} errors)` : '';
    // The server's own CPU per answer: what its code costs, whatever else the machine is doing.
    const cpu = c.cpuSpent !== undefined && total > 0 ? `  cpu ${fmt((1000 * c.cpuSpent) / total, 0)} µs/req` : '';
    const dbCpu =
      c.dbCpuSpent !== undefined && total > 0 ? ` (PostgreSQL ${fmt((1000 * c.dbCpuSpent) / total, 0)})` : '';
    console.log(
      `  ${caseName.padEnd(32)} ${c.engine.padEnd(18)} ${fmt(m.rps, 0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms${cpu}${dbCpu}  (machine ${busyText(busy)} busy before)${bad}`,
    );
    return m;
  });
}

function fmt(n: number, digits: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// ---------------------------------------------------------------------------------------------
// Runs

async function serverVersion(): Promise<string> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    const r = await c.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    return r.rows[0].v;
  } finally {
    await c.end();
  }
}

/**
 * Loads a database: first start (migrations, first-start data), then the load with the service
 * stopped.
 */
export async function prepareDatabase(
  label: string,
  dbEnv: Record<string, string>,
  open: { url?: string; dataDir?: string },
  passwordHash: string,
): Promise<void> {
  const t0 = Date.now();
  await (await startService(dbEnv)).stop();
  await loadData(open, passwordHash);
  console.log(`  ${label}: loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

interface Running {
  engine: 'postgresql' | 'embedded';
  service: Child;
  tokens: Tokens;
  facts: EngineFacts;
}

/** Cold starts (median of COLD_STARTS), then the service left running, signed in, after the memory phase. */
async function startMeasured(engine: 'postgresql' | 'embedded', dbEnv: Record<string, string>): Promise<Running> {
  const starts: number[] = [];
  for (let i = 0; i < COLD_STARTS; i++) {
    await waitForQuiet();
    const s = await startService(dbEnv);
    starts.push(s.startMs);
    await s.stop();
  }
  const service = await startService(dbEnv);
  const facts: EngineFacts = { engine, coldStartMs: median(starts), rssAfter10kMb: Number.NaN, rssEndMb: Number.NaN };
  console.log(
    `  ${engine}: cold starts ${starts.map((x) => fmt(x, 0)).join(', ')} ms (spawn to first answer, database already created)`,
  );
  const tokens: Tokens = {
    superadmin: await login(service.base, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD),
    pbxAdmin: await login(service.base, BIG_ADMIN_EMAIL, USER_PASSWORD),
    bpAdmins: [],
    bpFinances: [],
  };
  for (let b = 1; b <= BP_ADMINS; b++) tokens.bpAdmins.push(await login(service.base, bpAdminEmail(b), USER_PASSWORD));
  for (let b = 1; b <= BP_FINANCES; b++)
    tokens.bpFinances.push(await login(service.base, bpFinanceEmail(b), USER_PASSWORD));
  // Memory: 10,000 requests mixing the single-resource GETs and the lists, then the RSS.
  const mixed = ALL_CASES.filter((c) => c !== CREATE_CASE && c !== UPLOAD_CASE).flatMap((c) =>
    serviceRequests(c, tokens).slice(0, 50),
  );
  await cannon(service.base, mixed, { amount: MEMORY_REQUESTS });
  facts.rssAfter10kMb = service.rssMb();
  console.log(
    `  ${engine}: resident memory after ${fmt(MEMORY_REQUESTS, 0)} requests: ${fmt(facts.rssAfter10kMb, 0)} MB`,
  );
  return { engine, service, tokens, facts };
}

// ---------------------------------------------------------------------------------------------
// Report

interface Row {
  m: Measure;
  ratio: number | undefined;
  ratioTo: string;
  target: string;
  met: string;
}

function evaluate(all: Measure[]): Row[] {
  const find = (c: CaseName, e: Engine) => all.find((m) => m.caseName === c && m.engine === e);
  return all.map((m) => {
    const clean = m.non2xx === 0 && m.errors === 0;
    if (m.caseName === UPLOAD_CASE)
      return {
        m,
        ratio: undefined,
        ratioTo: '',
        target: `p99 < ${UPLOAD_TARGET_P99_MS} ms`,
        met: clean && m.p99 < UPLOAD_TARGET_P99_MS ? 'yes' : 'no',
      };
    if (m.engine === 'ceiling (bare pg)')
      return { m, ratio: undefined, ratioTo: '', target: '—', met: clean ? '—' : 'no (errors)' };
    if (m.engine === 'embedded') {
      const pgM = find(m.caseName, 'postgresql');
      const ratio = pgM ? m.rps / pgM.rps : undefined;
      return {
        m,
        ratio,
        ratioTo: 'PostgreSQL',
        target: '≥ ⅓ of PostgreSQL',
        met: clean && ratio !== undefined && ratio >= EMBEDDED_SHARE ? 'yes' : 'no',
      };
    }
    const ceiling = find(m.caseName, 'ceiling (bare pg)');
    if (ceiling) {
      const ratio = m.rps / ceiling.rps;
      const ok = clean && ratio >= GET_TARGET_RATIO && m.p99 < GET_TARGET_P99_MS;
      const targeted = m.caseName !== 'listUsers';
      return {
        m,
        ratio,
        ratioTo: 'ceiling',
        target: targeted ? `≥ ${GET_TARGET_RATIO} × ceiling, p99 < ${GET_TARGET_P99_MS} ms` : '—',
        met: targeted ? (ok ? 'yes' : 'no') : clean ? '—' : 'no (errors)',
      };
    }
    if (m.caseName === 'listCompanyOffers') {
      const ok = clean && m.rps >= OFFERS_TARGET_RPS && m.p99 < OFFERS_TARGET_P99_MS;
      return {
        m,
        ratio: undefined,
        ratioTo: '',
        target: `≥ ${fmt(OFFERS_TARGET_RPS, 0)} req/s, p99 < ${OFFERS_TARGET_P99_MS} ms`,
        met: ok ? 'yes' : 'no',
      };
    }
    if (m.caseName === 'getSubscription') {
      const company = find('getCompany', m.engine);
      const ratio = company ? m.rps / company.rps : undefined;
      return {
        m,
        ratio,
        ratioTo: 'getCompany',
        target: `≥ ${SUBSCRIPTION_TARGET_RATIO} × getCompany`,
        met:
          clean && ratio !== undefined && ratio >= SUBSCRIPTION_TARGET_RATIO
            ? 'yes'
            : ratio === undefined
              ? 'no (getCompany not run)'
              : 'no',
      };
    }
    if (m.caseName === CREATE_CASE) {
      return {
        m,
        ratio: undefined,
        ratioTo: '',
        target: `≥ ${CREATE_TARGET_PER_S} active/s`,
        met: clean && m.rps >= CREATE_TARGET_PER_S ? 'yes' : 'no',
      };
    }
    if (m.caseName === 'createQuotation') {
      const ok = clean && m.rps >= QUOTATION_TARGET_RPS && m.p99 < QUOTATION_TARGET_P99_MS;
      return {
        m,
        ratio: undefined,
        ratioTo: '',
        target: `≥ ${fmt(QUOTATION_TARGET_RPS, 0)} req/s, p99 < ${QUOTATION_TARGET_P99_MS} ms`,
        met: ok ? 'yes' : 'no',
      };
    }
    if (m.caseName.startsWith('listCompanies') || (PBX_LIST_CASES as readonly string[]).includes(m.caseName)) {
      const ok = clean && m.rps >= LIST_TARGET_RPS && m.p99 < LIST_TARGET_P99_MS;
      return {
        m,
        ratio: undefined,
        ratioTo: '',
        target: `≥ ${fmt(LIST_TARGET_RPS, 0)} req/s, p99 < ${LIST_TARGET_P99_MS} ms`,
        met: ok ? 'yes' : 'no',
      };
    }
    return { m, ratio: undefined, ratioTo: '', target: '—', met: clean ? '—' : 'no (errors)' };
  });
}

function factRows(facts: EngineFacts[]): string[][] {
  return facts.flatMap((f) => {
    const rssTarget = RSS_TARGET_MB[f.engine];
    return [
      [
        `cold start (${f.engine})`,
        `${fmt(f.coldStartMs, 0)} ms`,
        f.engine === 'embedded' ? `< ${fmt(COLD_START_TARGET_MS, 0)} ms` : '—',
        f.engine === 'embedded' ? (f.coldStartMs < COLD_START_TARGET_MS ? 'yes' : 'no') : '—',
      ],
      [
        `resident memory after ${fmt(MEMORY_REQUESTS, 0)} requests (${f.engine})`,
        `${fmt(f.rssAfter10kMb, 0)} MB`,
        `< ${rssTarget} MB`,
        f.rssAfter10kMb < rssTarget ? 'yes' : 'no',
      ],
      [`resident memory at the end of the run (${f.engine})`, `${fmt(f.rssEndMb, 0)} MB`, '—', '—'],
    ];
  });
}

function printTable(rows: Row[], facts: EngineFacts[]): void {
  const header = ['case', 'database', 'req/s', 'p99 ms', 'ratio', 'target', 'met', 'busy before'];
  const cells = rows.map((r) => [
    r.m.caseName,
    r.m.engine,
    fmt(r.m.rps, 0),
    String(r.m.p99),
    r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)} (${r.ratioTo})`,
    r.target,
    r.met,
    busyText(r.m.busy),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => (i >= 2 && i <= 3 ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const c of cells) console.log(line(c));
  console.log('');
  for (const [what, value, target, met] of factRows(facts))
    console.log(`${what}: ${value} (target ${target}, met: ${met})`);
}

function markdown(rows: Row[], facts: EngineFacts[], meta: Record<string, string>): string {
  const table = [
    '| case | database | requests/s | p50 ms | p99 ms | ratio | target | met | machine busy before |',
    '|---|---|--:|--:|--:|--:|---|---|--:|',
    ...rows.map(
      (r) =>
        `| ${r.m.caseName} | ${r.m.engine} | ${fmt(r.m.rps, 0)} | ${r.m.p50} | ${r.m.p99} | ${r.ratio === undefined ? '—' : `${r.ratio.toFixed(2)} of ${r.ratioTo}`} | ${r.target} | ${r.met} | ${busyText(r.m.busy)} |`,
    ),
  ].join('\n');
  const factTable = [
    '| measure | value | target | met |',
    '|---|--:|---|---|',
    ...factRows(facts).map((c) => `| ${c.join(' | ')} |`),
  ].join('\n');
  return `# Benchmarks

Written by \`npm run bench\` (scripts/bench.ts); run it again to refresh this page.

${Object.entries(meta)
  .map(([k, v]) => `- ${k}: ${v}`)
  .join('\n')}

${factTable}

${table}

How to read it:

- **getUser**, **getCompany** (\`?format=full\`: with its subscriptions and user count; *default format* without a format, \`small\` as document 3 says) and **getSite** read one resource by id with a
  superadmin bearer token, rotating over ${fmt(ROTATION, 0)} existing ids; **listUsers** is \`GET …/users?companyId=…&limit=${PAGE_LIMIT}&sortField=lastName\`
  over ${fmt(ROTATION, 0)} companies of ${USERS / COMPANIES} users each.
- **listCompanies** pages of ${PAGE_LIMIT} over ${fmt(EC_COMPANIES + COMPANIES + BP_COUNT, 0)} companies: *bpId+status+isBP* rotates over the ${BP_COUNT} BPs
  (about 900 matches each); *isBP* (\`isBP=false\`, every End Customer) and *status* (\`active\`, \`hold\`, \`active,hold\`) match most of the table;
  *name* rotates over ${fmt(ROTATION, 0)} three-letter keywords of existing names (about a hundred matches each, through the trigram index);
  *name+status+isBP* adds two filters to those; *status (bp_admin)* lists the active companies a bp_admin may see (his BP's ~900 customers),
  with ${BP_ADMINS} bp_admins.
- **listCompanyOffers** is \`GET …/companies/{id}/offers?format=full&limit=${PAGE_LIMIT}\` (a page of the ${OFFERS} offers of the default catalog) and
  **getSubscription** \`GET …/companies/{id}/subscriptions/{id}\` (with its licence counters), rotating over ${fmt(Math.min(ROTATION, COMMERCE_COMPANIES), 0)} of the
  ${fmt(COMMERCE_COMPANIES, 0)} End Customers that hold two subscriptions each; targets: listCompanyOffers ${fmt(OFFERS_TARGET_RPS, 0)} requests/s with p99
  under ${OFFERS_TARGET_P99_MS} ms, getSubscription at least ${SUBSCRIPTION_TARGET_RATIO} of getCompany. **${CREATE_CASE}** (PostgreSQL) posts ${fmt(CREATE_SUBSCRIPTIONS, 0)}
  subscriptions as ${BP_FINANCES} bp_finances and counts the subscriptions per second until every one is active, jobs included (target ${CREATE_TARGET_PER_S}/s).
- **createQuotation** quotes a new monthly subscription of 1 to 50 users to a priced offer for ${fmt(ROTATION, 0)} End Customers of
  resell DR BPs (superadmin): the applicant-number check, the offer, the invoiced BP and the pricing function, nothing written.
  Target: at least ${fmt(QUOTATION_TARGET_RPS, 0)} quotations/s with p99 under ${QUOTATION_TARGET_P99_MS} ms on PostgreSQL.
- **${UPLOAD_CASE}**: ${UPLOADS} banners at the upload limits (8192 x 8192 pixels, just under 8 MB) posted at once, ${UPLOAD_ROUNDS} times, while
  one client reads a site every ${UPLOAD_READ_PAUSE_MS} ms; p50 and p99 are those reads' (target: p99 under ${UPLOAD_TARGET_P99_MS} ms on both databases).
- **ceiling (bare pg)** is scripts/bench-ceiling.ts: Fastify + pg (a pool of 10, as the service's general pool) verifying the same JWT (fast-jwt, the
  same key and options) and answering, to the same request, the very JSON body the service answered (captured before the cases),
  read by its path from a table that holds it: the strict ceiling, the same bytes out with one indexed read and no session check,
  authorisation, envelope building, validation or serialisation. Targets on PostgreSQL over 100,000 companies: getUser, getCompany and getSite at
  least ${GET_TARGET_RATIO} of it with p99 under ${GET_TARGET_P99_MS} ms; listCompanies with any one or three filters at least ${fmt(LIST_TARGET_RPS, 0)} requests/s
  with p99 under ${LIST_TARGET_P99_MS} ms; the embedded database at least a third of PostgreSQL's figure for each case.
- **cold start** is from spawning the service (with the flags of \`npm start\`) to its first answer, on the loaded database, median of ${COLD_STARTS};
  **resident memory** is the service's RSS after ${fmt(MEMORY_REQUESTS, 0)} requests mixing every case, just after that start.
- Every server is measured in turn, in slices of ${SLICE} s (${Math.max(1, Math.round(DURATION / SLICE))} per case and server): requests/s is over
  all slices, p50 and p99 the medians of the slices' figures. The service, the ceiling, PostgreSQL and autocannon share the same
  cores, so the figures are those of one machine doing everything, not of a server with a separate load generator.
- *machine busy before* is the share of all cores used by other work in the second before the case
  (the benchmark waits up to ${QUIET_WAIT_S} s for it to fall under ${QUIET_BELOW}%). When it is high, the figures of
  that case are low by about as much: compare runs made on a quiet machine.
`;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  console.log(
    `bench: ${fmt(EC_COMPANIES + COMPANIES + BP_COUNT, 0)} companies, ${fmt(USERS, 0)} users, ${fmt(SITES, 0)} sites; autocannon ${CONNECTIONS} connections, ${WARMUP} s warm-up (${WARMUP_CEILING} s against the ceiling) + ${DURATION} s per case`,
  );
  const passwordHash = await hashPassword(USER_PASSWORD);
  const all: Measure[] = [];
  let pgVersion = '(not run)';
  const engines: {
    engine: 'postgresql' | 'embedded';
    env: Record<string, string>;
    open: { url?: string; dataDir?: string };
  }[] = [];
  if (ONLY !== 'embedded') {
    pgVersion = await serverVersion();
    const url = await createPgDatabase();
    engines.push({ engine: 'postgresql', env: { DATABASE_URL: url }, open: { url } });
  }
  if (ONLY !== 'server') {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
    if (process.env.BENCH_KEEP_DB === '1') console.log(`  data folder ${dataDir} kept (BENCH_KEEP_DB=1)`);
    else cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    engines.push({ engine: 'embedded', env: { DATA_DIR: dataDir }, open: { dataDir } });
  }
  console.log('\nLoading');
  for (const e of engines) await prepareDatabase(e.engine, e.env, e.open, passwordHash);
  console.log('\nStarts and memory');
  const running: Running[] = [];
  for (const e of engines) running.push(await startMeasured(e.engine, e.env));
  const pgRun = running.find((r) => r.engine === 'postgresql');
  const pgUrl = engines.find((e) => e.engine === 'postgresql')?.env.DATABASE_URL;
  if (pgUrl && pgRun) await captureAnswers(pgRun.service.base, pgUrl, pgRun.tokens);
  const ceiling = pgUrl
    ? await startChild('ceiling', 'scripts/bench-ceiling.ts', { DATABASE_URL: pgUrl }, [
        '--experimental-strip-types',
        '--disable-warning=ExperimentalWarning',
        ...(process.env.BENCH_CEILING_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ])
    : undefined;

  console.log('\nCases (each server in turn, in slices of 2 s)');
  for (const c of CASES) {
    if (c === UPLOAD_CASE) {
      for (const r of running) all.push(await measureUploads(r));
      continue;
    }
    if (c === CREATE_CASE) {
      // PostgreSQL only; it reads the subscriptions' states in the database.
      if (pgRun && pgUrl) all.push(await measureCreation(pgRun.service.base, serviceRequests(c, pgRun.tokens), pgUrl));
      else console.log(`  ${CREATE_CASE}: PostgreSQL only, skipped`);
      continue;
    }
    const contenders: Omit<Contender, 'slices'>[] = running.map((r) => ({
      engine: r.engine,
      base: r.service.base,
      requests: serviceRequests(c, r.tokens),
      cpuMs: r.service.cpuMs,
    }));
    if (ceiling && pgRun && CEILING_CASES.includes(c))
      contenders.push({
        engine: 'ceiling (bare pg)',
        base: ceiling.base,
        requests: serviceRequests(c, pgRun.tokens),
        cpuMs: ceiling.cpuMs,
      });
    all.push(...(await measureCase(c, contenders)));
  }
  for (const r of running) {
    r.facts.rssEndMb = r.service.rssMb();
    await r.service.stop();
  }
  await ceiling?.stop();
  const facts = running.map((r) => r.facts);

  const order = (e: Engine) => ['postgresql', 'ceiling (bare pg)', 'embedded'].indexOf(e);
  all.sort(
    (a, b) => ALL_CASES.indexOf(a.caseName) - ALL_CASES.indexOf(b.caseName) || order(a.engine) - order(b.engine),
  );
  const rows = evaluate(all);
  printTable(rows, facts);
  // A billing run over 10,000 End Customers with 3 subscriptions each, on each engine (scripts/bench-billing.ts).
  const billingLines: string[] = [];
  if (!process.env.BENCH_CASES || process.env.BENCH_CASES.split(',').includes('billingRun')) {
    console.log('\nBilling run');
    for (const e of engines) {
      const line = billingBenchLine(await billingRunBench(e.engine, BILLING_END_CUSTOMERS, PG_ADMIN_URL));
      console.log(line);
      billingLines.push(line);
    }
  }
  // The bulk import (issue 27, point 8): 100,000 user lines into a fresh database of each engine (scripts/bench-import.ts).
  const importLines: string[] = [];
  if (!process.env.BENCH_CASES || process.env.BENCH_CASES.split(',').includes('import')) {
    console.log('\nBulk import');
    for (const e of engines) {
      for (const line of importBenchLines(await importBench(e.engine, 100_000, 2_000))) {
        console.log(line);
        importLines.push(line);
      }
    }
  }
  const meta: Record<string, string> = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    machine: `${availableParallelism()} cores (nproc), ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    software: `Node ${process.version}, PostgreSQL ${pgVersion} (default settings, local TCP), PGlite ${pgliteVersion()}`,
    data: `${fmt(EC_COMPANIES + COMPANIES + BP_COUNT, 0)} companies (${fmt(COMPANIES, 0)} with ${USERS / COMPANIES} users each, ${BP_COUNT} BPs, ${fmt(EC_COMPANIES, 0)} End Customers of those BPs, one in ten on hold), ${fmt(USERS, 0)} users, ${fmt(SITES, 0)} sites, loaded with INSERT … SELECT generate_series, then VACUUM ANALYZE`,
    load: `autocannon 8, ${CONNECTIONS} connections, no pipelining, ${WARMUP} s warm-up (${WARMUP_CEILING} s for the cases measured against the ceiling) then ${DURATION} s per case, in the benchmark process on the same machine`,
    service:
      '`src/main.ts` with the environment and flags of `npm start`, the default LOG_LEVEL (info, one line per request), RATE_LIMIT_MAX=0, one process; on PostgreSQL the hot statements (authorisation, list pages) pipelined on sessions of their own with generic plans (one connection for the lookups, four for list pages), the others on a pg pool of 10',
    ...(billingLines.length ? { 'billing run (in process on a fresh database, 10 BPs)': billingLines.join('; ') } : {}),
    ...(importLines.length ? { 'bulk import (the service on a fresh database)': importLines.join('; ') } : {}),
  };
  console.log(`\n(total ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (process.env.BENCH_NO_DOC !== '1' && !ONLY && !process.env.BENCH_CASES) {
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), markdown(rows, facts, meta));
    console.log('written: docs/benchmarks.md');
  }
}

function pgliteVersion(): string {
  try {
    const pkg = readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8');
    return (JSON.parse(pkg) as { version: string }).version;
  } catch {
    return '?';
  }
}

// Run when started as a script; other scripts (profiling experiments) may import the helpers.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main()
    .then(() => cleanup())
    .catch(async (err) => {
      console.error('\nbench failed:', err instanceof Error ? err.message : err);
      await cleanup();
      process.exitCode = 1;
    });
}
