// Issue 9, point 3: the image variants served without a token are a fixed set of sizes, each
// computed at most once per original; image decoding runs under a process-wide concurrency
// limit (IMAGE_CONCURRENCY). Choices in docs/decisions.md, Branding.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany } from '../support/factories.ts';
import { companyImageVariants } from '../../src/modules/admin/branding/branding.tables.ts';
import { SERVED_SIZES, servedSize } from '../../src/modules/admin/branding/branding.images.ts';

const C = '/api/svc/admin/v1.0/companies';
const apps: TestApp[] = [];

async function app(imageConcurrency: number): Promise<TestApp> {
  const t = await createTestApp({ config: { imageConcurrency } });
  apps.push(t);
  return t;
}
afterAll(() => Promise.all(apps.map((t) => t.close())));

const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 90 } } })
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

const get = (t: TestApp, kind: 'avatar' | 'banner', id: string, size: number) =>
  t.inject({ method: 'GET', url: `/api/${kind}/${id}?size=${size}` });

async function variantSizes(t: TestApp, id: string, kind: string): Promise<number[]> {
  const rows = await t.db
    .select({ size: companyImageVariants.size })
    .from(companyImageVariants)
    .where(and(eq(companyImageVariants.companyId, id), eq(companyImageVariants.kind, kind)));
  return rows.map((r) => r.size).sort((a, b) => a - b);
}

describe('issue 9, point 3: served sizes', () => {
  let t: TestApp;
  let avatar: string;
  let banner: string;
  beforeAll(async () => {
    t = await app(1);
    avatar = await upload(t, 'avatar', await picture(600, 600));
    banner = await upload(t, 'banner', await picture(1000, 250));
  });

  it('issue 9, point 3: a requested size is served at the nearest served size not below it (a banner at most at its original width)', async () => {
    for (const [requested, served] of [
      [1, 16],
      [17, 24],
      [81, 96],
      [96, 96],
      [1000, 1024],
      [2047, 2048],
    ]) {
      expect(servedSize('avatar', requested)).toBe(served);
      const meta = await sharp((await get(t, 'avatar', avatar, requested)).rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([served, served]);
    }
    for (const [requested, width] of [
      [100, 128],
      [700, 768],
      [900, 1000],
      [99999, 1000],
    ]) {
      const meta = await sharp((await get(t, 'banner', banner, requested)).rawPayload).metadata();
      expect(meta.width).toBe(width);
    }
  });

  it('issue 9, point 3: a new size value does no new work: every size served by a computed variant comes from the cache', async () => {
    expect((await get(t, 'avatar', avatar, 300)).headers['dims-cached']).toMatch(/true|false/);
    const before = await variantSizes(t, avatar, 'avatar');
    // 257 to 320 are all served at 320.
    for (let size = 257; size <= 320; size += 7)
      expect((await get(t, 'avatar', avatar, size)).headers['dims-cached']).toBe('true');
    expect(await variantSizes(t, avatar, 'avatar')).toEqual(before);
  });

  it('issue 9, point 3: any number of size values makes at most one variant per served size', async () => {
    for (let i = 0; i < 150; i++) await get(t, 'banner', banner, 1 + Math.floor(Math.random() * 100_000));
    for (let size = 1; size <= 2048; size += 37) await get(t, 'avatar', avatar, size);
    const bannerSizes = await variantSizes(t, banner, 'banner');
    const allowed = [...SERVED_SIZES.banner.filter((s) => s < 1000), 1000];
    expect(bannerSizes.every((s) => allowed.includes(s))).toBe(true);
    const avatarSizes = await variantSizes(t, avatar, 'avatar');
    expect(avatarSizes.every((s) => SERVED_SIZES.avatar.includes(s))).toBe(true);
    expect(avatarSizes.length).toBeLessThanOrEqual(SERVED_SIZES.avatar.length);
  });

  it('issue 9, point 3: concurrent requests for one new size compute it once', async () => {
    const id = await upload(t, 'banner', await picture(3000, 600));
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(t, 'banner', id, 2000)));
    for (const a of answers) expect(a.statusCode).toBe(200);
    expect(answers.filter((a) => a.headers['dims-cached'] === 'false')).toHaveLength(1);
    expect(await variantSizes(t, id, 'banner')).toEqual([2048]);
    const bodies = new Set(answers.map((a) => a.rawPayload.toString('base64')));
    expect(bodies.size).toBe(1);
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

describe('issue 9, point 3: decode limit', () => {
  it('issue 9, point 3: with IMAGE_CONCURRENCY=1 concurrent uploads and new variants decode one at a time; with 3, up to 3', async () => {
    const image = await picture(4096, 4096);
    for (const [limit, expectPeak] of [
      [1, (n: number) => expect(n).toBe(1)],
      [3, (n: number) => expect(n).toBeGreaterThan(1)],
    ] as const) {
      const t = await app(limit);
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
      const variants = Promise.all(ids.map((id) => get(t, 'banner', id, 3000)));
      expectPeak(await peakImageTasks(variants));
      for (const r of await variants) expect(r.statusCode).toBe(200);
    }
  });
});
