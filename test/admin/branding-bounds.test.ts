// Document 3, Avatar and banner: an avatar is served square at the requested size from 1 to 2048
// pixels, a banner from 1 pixel up to its original resolution, exactly. The bounds of the public
// image GETs (docs/decisions.md, Bounds of images, sessions and client authentication): only the
// stored sizes are kept in the database, each computed once per original from the original; any
// other size is computed from the nearest stored variant not below it and kept in a memory cache
// bounded by its bytes (IMAGE_SIZE_CACHE_MB); every decode runs under the process-wide limit
// (IMAGE_CONCURRENCY).
//
// The sizes are drawn at random: the seed is printed, and BRANDING_SEED=<seed> replays them.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { rng } from '../support/fuzz/values.ts';
import type { Config } from '../../src/config.ts';
import { companyImageVariants } from '../../src/modules/admin/branding/branding.tables.ts';
import { STORED_SIZES } from '../../src/modules/admin/branding/branding.images.ts';
import { sizeCache } from '../../src/modules/admin/branding/branding.size-cache.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const SEED = process.env.BRANDING_SEED ? Number(process.env.BRANDING_SEED) : Math.floor(Math.random() * 2 ** 31);
console.log(`branding-bounds: seed ${SEED} (replay with BRANDING_SEED=${SEED})`);
const random = rng(SEED);

/** `count` distinct sizes from 1 to `max`, drawn with the seeded source. */
function distinctSizes(count: number, max: number): number[] {
  const all = Array.from({ length: max }, (_, i) => i + 1);
  for (let i = all.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, count);
}

const C = '/api/svc/admin/v1.0/companies';
const apps: TestApp[] = [];

async function app(config: Partial<Config>): Promise<TestApp> {
  const t = await createTestApp({ config });
  apps.push(t);
  return t;
}
afterAll(() => Promise.all(apps.map((t) => t.close())));

const picture = (width: number, height: number, background = { r: 10, g: 200, b: 90 }) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

async function upload(t: TestApp, kind: 'avatar' | 'banner', image: Buffer): Promise<string> {
  const id = await makeCompany(t);
  const res = await t.inject({
    method: 'POST',
    url: `${C}/${id}/${kind}`,
    headers: { ...bearer(t.superToken), 'content-type': 'image/jpeg' },
    payload: image,
  });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

// Without a token: the read routes are public (docs/decisions.md, Branding).
const get = (t: TestApp, kind: 'avatar' | 'banner', id: string, size: number) =>
  t.inject({ method: 'GET', url: `/api/${kind}/${id}?size=${size}` });

async function dimensions(t: TestApp, kind: 'avatar' | 'banner', id: string, size: number) {
  const res = await get(t, kind, id, size);
  expect(res.statusCode, res.body).toBe(200);
  const meta = await sharp(res.rawPayload).metadata();
  return [meta.width, meta.height];
}

/** The stored variants of an image: their sizes and total bytes. */
async function storedVariants(t: TestApp, id: string, kind: string) {
  const rows = await t.db
    .select({ size: companyImageVariants.size, data: companyImageVariants.data })
    .from(companyImageVariants)
    .where(and(eq(companyImageVariants.companyId, id), eq(companyImageVariants.kind, kind)));
  return {
    sizes: rows.map((r) => r.size).sort((a, b) => a - b),
    bytes: rows.reduce((sum, r) => sum + r.data.length, 0),
  };
}

describe('doc 3, avatar and banner: every size is answered exactly', { skip: SKIP_ENGINE_FREE }, () => {
  let t: TestApp;
  let avatar: string;
  let banner: string;
  // An aspect whose heights round: 1237 x 311.
  const BANNER = { width: 1237, height: 311 };
  beforeAll(async () => {
    t = await app({ imageConcurrency: 1 });
    avatar = await upload(t, 'avatar', await picture(600, 600));
    banner = await upload(t, 'banner', await picture(BANNER.width, BANNER.height));
  });

  it('doc 3, avatar and banner, rule "avatar size from 1 to 2048 pixels, square": 20 random sizes, the bounds and former neighbours of the stored sizes are answered at exactly that size', async () => {
    const sizes = [1, 2, 17, 100, 127, 129, 2047, 2048, ...distinctSizes(20, 2048)];
    for (const size of sizes) expect(await dimensions(t, 'avatar', avatar, size), `size ${size}`).toEqual([size, size]);
  });

  it('doc 3, avatar and banner, rule "banner size from 1 pixel up to the original resolution": 20 random widths up to the original are answered at exactly that width, the height keeping the aspect; above it, the original width', async () => {
    const height = (w: number) => Math.max(1, Math.round((w * BANNER.height) / BANNER.width));
    const sizes = [1, 3, 100, 1024, 1236, 1237, ...distinctSizes(20, BANNER.width)];
    for (const size of sizes)
      expect(await dimensions(t, 'banner', banner, size), `size ${size}`).toEqual([size, height(size)]);
    for (const size of [1238, 5000, 100_000])
      expect(await dimensions(t, 'banner', banner, size)).toEqual([BANNER.width, BANNER.height]);
  });

  it('a size that is not stored is computed from the nearest stored variant not below it, never from the original', async () => {
    const id = await upload(t, 'avatar', await picture(600, 600));
    // 128 is stored, computed from the (green) original.
    expect(await dimensions(t, 'avatar', id, 128)).toEqual([128, 128]);
    expect((await storedVariants(t, id, 'avatar')).sizes).toEqual([128]);
    // The stored 128 replaced by a red one: 110 (between 96 and 128) is red, so made from it.
    await t.db
      .update(companyImageVariants)
      .set({ data: await picture(128, 128, { r: 230, g: 10, b: 10 }) })
      .where(and(eq(companyImageVariants.companyId, id), eq(companyImageVariants.size, 128)));
    const res = await get(t, 'avatar', id, 110);
    const { channels } = await sharp(res.rawPayload).stats();
    expect(channels[0].mean).toBeGreaterThan(150);
    expect(channels[1].mean).toBeLessThan(100);
    expect((await storedVariants(t, id, 'avatar')).sizes).toEqual([128]);
  });

  it('Dims-cached: false when the request computed the image, true when served from the stored variants or the cache of other sizes', async () => {
    const id = await upload(t, 'avatar', await picture(300, 300));
    expect((await get(t, 'avatar', id, 300)).headers['dims-cached']).toBe('false');
    expect((await get(t, 'avatar', id, 300)).headers['dims-cached']).toBe('true');
    // 320 (its source) was stored by the first request; 300 is in the cache of other sizes.
    expect((await storedVariants(t, id, 'avatar')).sizes).toEqual([320]);
    expect((await get(t, 'avatar', id, 320)).headers['dims-cached']).toBe('true');
    expect((await get(t, 'avatar', id, 257)).headers['dims-cached']).toBe('false');
    expect((await get(t, 'avatar', id, 257)).headers['dims-cached']).toBe('true');
  });

  it('concurrent requests for one new size compute it once, and its stored source once', async () => {
    const id = await upload(t, 'banner', await picture(3000, 600));
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(t, 'banner', id, 2000)));
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(answers.filter((a) => a.headers['dims-cached'] === 'false')).toHaveLength(1);
    expect((await storedVariants(t, id, 'banner')).sizes).toEqual([2048]);
    const bodies = new Set(answers.map((a) => a.rawPayload.toString('base64')));
    expect(bodies.size).toBe(1);
    expect((await sharp(answers[0].rawPayload).metadata()).width).toBe(2000);
  });
});

describe('bounds of images: a flood of distinct sizes', { skip: SKIP_ENGINE_FREE }, () => {
  const CACHE_BYTES = 1024 * 1024;
  const FLOOD = 1000;

  it(`${FLOOD} distinct avatar sizes asked without a token leave the stored variants (rows and bytes) unchanged and the cache of other sizes within its ${CACHE_BYTES / 1024 / 1024} MB`, async () => {
    const t = await app({ imageConcurrency: 1, imageSizeCacheBytes: CACHE_BYTES });
    const id = await upload(t, 'avatar', await picture(700, 700));
    // Every stored size once: the most the database holds for this original.
    for (const size of STORED_SIZES.avatar) expect((await get(t, 'avatar', id, size)).statusCode).toBe(200);
    const before = await storedVariants(t, id, 'avatar');
    expect(before.sizes).toEqual(STORED_SIZES.avatar);

    const cache = sizeCache(CACHE_BYTES);
    let largest = 0;
    // Drawn from 1 to 1024, not 2048: the bound holds alike, and 1,000 sizes drawn up to 2048 took 47 s
    // on the 2-core machine (the larger ones computed from the stored 2048 x 2048), too near the test
    // timeout when it is loaded.
    const sizes = distinctSizes(FLOOD, 1024);
    for (const size of sizes) {
      const res = await get(t, 'avatar', id, size);
      expect(res.statusCode).toBe(200);
      largest = Math.max(largest, cache.calculatedSize);
    }
    console.log(
      `branding-bounds: ${FLOOD} sizes; cache at most ${largest} bytes of ${CACHE_BYTES}, ${cache.size} images kept at the end; stored variants ${before.sizes.length} rows, ${before.bytes} bytes`,
    );
    expect(largest).toBeLessThanOrEqual(CACHE_BYTES);
    // The flood was larger than the cache: the bound, not the flood, decided what is kept.
    expect(cache.size).toBeLessThan(FLOOD - STORED_SIZES.avatar.length);
    expect(await storedVariants(t, id, 'avatar')).toEqual(before);
    // The first size asked (not a stored one) was dropped, the least recently served: asked again, it is computed again.
    const first = sizes.find((s) => !STORED_SIZES.avatar.includes(s)) ?? 0;
    const again = await get(t, 'avatar', id, first);
    expect(again.headers['dims-cached']).toBe('false');
    expect((await sharp(again.rawPayload).metadata()).width).toBe(first);
  });
});

/** The largest number of sharp tasks seen running at once while `work` runs. */
async function peakImageTasks(work: Promise<unknown>): Promise<number> {
  let peak = 0;
  let done = false;
  void work.finally(() => (done = true));
  while (!done) {
    peak = Math.max(peak, sharp.counters().process);
    await new Promise((r) => setImmediate(r));
  }
  await work;
  return peak;
}

describe('bounds of images: decode limit', { skip: SKIP_ENGINE_FREE }, () => {
  it('with IMAGE_CONCURRENCY=1 concurrent uploads, new stored variants and new other sizes decode one at a time; with 3, up to 3', async () => {
    const image = await picture(4096, 4096);
    for (const [limit, expectPeak] of [
      [1, (n: number) => expect(n).toBe(1)],
      [3, (n: number) => expect(n).toBeGreaterThan(1)],
    ] as const) {
      const t = await app({ imageConcurrency: limit });
      const ids = await Promise.all(Array.from({ length: 4 }, () => makeCompany(t)));
      const uploads = Promise.all(
        ids.map((id) =>
          t.inject({
            method: 'POST',
            url: `${C}/${id}/banner`,
            headers: { ...bearer(t.superToken), 'content-type': 'image/jpeg' },
            payload: image,
          }),
        ),
      );
      expectPeak(await peakImageTasks(uploads));
      for (const r of await uploads) expect(r.statusCode).toBe(200);
      // 3072 is stored: computed from the original.
      const stored = Promise.all(ids.map((id) => get(t, 'banner', id, 3072)));
      expectPeak(await peakImageTasks(stored));
      for (const r of await stored) expect(r.statusCode).toBe(200);
      // 3000 is not: computed from the stored 3072.
      const others = Promise.all(ids.map((id) => get(t, 'banner', id, 3000)));
      expectPeak(await peakImageTasks(others));
      for (const r of await others) expect(r.statusCode).toBe(200);
    }
  });
});
