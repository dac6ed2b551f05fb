// Issue 9, point 3: 8 banners at the documented limits (8192 x 8192 pixels, just under 8 MB)
// uploaded at once keep the resident memory of the process under a stated figure
// (docs/security.md), and unrelated requests are answered while the uploads run: image work
// waits its turn under IMAGE_CONCURRENCY, on one libvips thread, and runs before any transaction,
// so the embedded database is never held by it.
//
// How fast they are answered is a figure of `npm run bench` (case `getSite during 8 banner
// uploads`, target p99 under 500 ms), not an assertion here: on a 2-core CI machine shared with
// other jobs the slowest one took from 0.5 s to 21.8 s (load average 11 to 18) for the same code,
// so a time bound failed on the machine's load rather than on the code. The test holds what does
// not depend on it: every request answered, and answered while the uploads still run.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import v8 from 'node:v8';
import vm from 'node:vm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { IMAGE_LIMITS } from '../../src/modules/admin/branding/branding.images.ts';
import { openDatabase } from '../../src/db/client.ts';

/** The figure of docs/security.md: growth of the resident memory during the 8 uploads. */
const RSS_GROWTH_LIMIT_MB = 512;
const UPLOADS = 8;

let t: TestApp;
let banner: Buffer;
let dataDir: string | undefined;

beforeAll(async () => {
  // The embedded database in a data folder, as the service runs it (DATA_DIR): in memory, the
  // stored images and their WAL would count in the resident memory measured here.
  if (!process.env.TEST_DATABASE_URL) dataDir = mkdtempSync(join(tmpdir(), 'branding-load-'));
  t = await createTestApp({
    config: { imageConcurrency: 1 },
    ...(dataDir ? { database: openDatabase({ dataDir }) } : {}),
  });
  const { maxBytes } = IMAGE_LIMITS.banner;
  // Made in a child process, so that the memory of making it does not blur the measure here.
  banner = execFileSync(
    process.execPath,
    ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', 'scripts/banner-at-limits.ts'],
    { maxBuffer: 4 * maxBytes, cwd: join(import.meta.dirname, '../..') },
  );
  expect(banner.length).toBeLessThanOrEqual(maxBytes);
  expect(banner.length).toBeGreaterThan(maxBytes * 0.9);
});
afterAll(async () => {
  await t.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('issue 9, point 3: image work is bounded', () => {
  it(`issue 9, point 3: ${UPLOADS} banners at the limits uploaded at once keep the resident memory under +${RSS_GROWTH_LIMIT_MB} MB, and unrelated requests are answered during the uploads`, async () => {
    const companies = await Promise.all(Array.from({ length: UPLOADS }, () => makeCompany(t)));
    // A collection first, so that garbage of the set-up does not hide growth behind its release.
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
    const before = process.memoryUsage();
    const baseline = before.rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = Date.now();
    const uploads = companies.map((id) =>
      t.inject({
        method: 'POST',
        url: `/api/svc/admin/v1.0/companies/${id}/banner`,
        headers: { ...bearer(t.superToken), 'content-type': 'image/png' },
        payload: banner,
      }),
    );
    // Unrelated requests while the uploads run: each reads the database.
    const latencies: number[] = [];
    let done = false;
    const all = Promise.all(uploads).finally(() => (done = true));
    while (!done) {
      const t0 = Date.now();
      const res = await t.inject({
        method: 'GET',
        url: `/api/svc/admin/v1.0/companies/${companies[0]}`,
        headers: bearer(t.superToken),
      });
      expect(res.statusCode).toBe(200);
      latencies.push(Date.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    const results = await all;
    clearInterval(sampler);
    const growthMb = (peak - baseline) / 1024 / 1024;
    const after = process.memoryUsage();
    const delta = (k: 'heapUsed' | 'external' | 'arrayBuffers') =>
      `${k} +${Math.round((after[k] - before[k]) / 1024 / 1024)} MB`;
    const slowest = Math.max(...latencies);
    // The figures, for docs/security.md.
    console.log(
      `branding-load: ${UPLOADS} uploads of ${(banner.length / 1024 / 1024).toFixed(2)} MB in ${Date.now() - started} ms; rss ${Math.round(baseline / 1024 / 1024)} MB -> peak ${Math.round(peak / 1024 / 1024)} MB (+${growthMb.toFixed(0)} MB; after: ${delta('heapUsed')}, ${delta('external')}, ${delta('arrayBuffers')}); ${latencies.length} unrelated requests, slowest ${slowest} ms`,
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(growthMb).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    // Answered during the uploads, not after them all: a second read is sent only when the first
    // was answered before the last upload ended.
    expect(latencies.length).toBeGreaterThanOrEqual(2);
  });
});
