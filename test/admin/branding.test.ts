// Document 3, Avatar and banner: setCompanyAvatar, setCompanyBanner, deleteCompanyAvatar,
// deleteCompanyBanner, getCompanyAvatar, getCompanyBanner (choices in docs/decisions.md, Branding).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { and, asc, eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import {
  companyImageChunks,
  companyImages,
  companyImageVariants,
} from '../../src/modules/admin/branding/branding.tables.ts';
import { CHUNK_BYTES } from '../../src/modules/admin/branding/branding.service.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const C = '/api/svc/admin/v1.0/companies';
let t: TestApp;
let companyId: string;
let admin: MadeUser;

beforeAll(async () => {
  // A body limit above the image limits, so that the service's own limits are what is tested.
  t = await createTestApp({ config: { bodyLimitBytes: 24 * 1024 * 1024 } });
  companyId = await makeCompany(t);
  admin = await makeUser(t, companyId, ['company_admin']);
});
afterAll(() => t.close());

type Fmt = 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff';
async function picture(width: number, height: number, format: Fmt = 'png'): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return img.toFormat(format).toBuffer();
}
const b64 = (b: Buffer) => b.toString('base64');

const setImage = (token: string, id: string, kind: 'avatar' | 'banner', image: string) =>
  t.inject({ method: 'POST', url: `${C}/${id}/${kind}`, headers: bearer(token), payload: { image } });
const delImage = (token: string, id: string, kind: 'avatar' | 'banner') =>
  t.inject({ method: 'DELETE', url: `${C}/${id}/${kind}`, headers: bearer(token) });
const getImage = (kind: 'avatar' | 'banner', id: string, query = '', headers: Record<string, string> = {}) =>
  t.inject({ method: 'GET', url: `/api/${kind}/${id}${query}`, headers });

/** Every chunk row of the image, of every version. */
async function chunks(id: string, kind: string) {
  return t.db
    .select()
    .from(companyImageChunks)
    .where(and(eq(companyImageChunks.companyId, id), eq(companyImageChunks.kind, kind)))
    .orderBy(asc(companyImageChunks.seq));
}
/** The image row and the bytes of the version it names. */
async function stored(id: string, kind: string) {
  const [row] = await t.db
    .select()
    .from(companyImages)
    .where(and(eq(companyImages.companyId, id), eq(companyImages.kind, kind)));
  // (undefined when there is no image: the test of the deletion looks for that.)
  if (!row) return row;
  const own = (await chunks(id, kind)).filter((c) => c.version === row.version);
  return { ...row, data: Buffer.concat(own.map((c) => c.data)) };
}
async function variants(id: string, kind: string) {
  return t.db
    .select()
    .from(companyImageVariants)
    .where(and(eq(companyImageVariants.companyId, id), eq(companyImageVariants.kind, kind)));
}
async function company(id: string) {
  const [row] = await t.db.select().from(companies).where(eq(companies.id, id));
  return row;
}

describe('doc 3, avatar and banner, set', () => {
  it('doc 3, avatar and banner, rule "set returns {status, data: []}": a PNG avatar is stored as uploaded', async () => {
    const png = await picture(120, 90);
    const res = await setImage(admin.token, companyId, 'avatar', b64(png));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
    const row = await stored(companyId, 'avatar');
    expect(row).toMatchObject({ mime: 'image/png', width: 120, height: 90 });
    expect(Buffer.compare(row.data, png)).toBe(0);
  });

  it('an image sent as raw bytes (Content-Type image/jpeg, image/png or image/webp) is accepted, its real type stored', async () => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const bytes = await picture(64, 48, format);
      const res = await t.inject({
        method: 'POST',
        url: `${C}/${companyId}/banner`,
        headers: { ...bearer(admin.token), 'content-type': `image/${format}` },
        payload: bytes,
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await stored(companyId, 'banner');
      expect(row).toMatchObject({ mime: `image/${format}`, width: 64, height: 48 });
      expect(Buffer.compare(row.data, bytes)).toBe(0);
    }
  });

  it('raw bytes that are not an image are refused (400) even when declared image/png; nothing is stored', async () => {
    const before = await stored(companyId, 'banner');
    const res = await t.inject({
      method: 'POST',
      url: `${C}/${companyId}/banner`,
      headers: { ...bearer(admin.token), 'content-type': 'image/png' },
      payload: Buffer.from('not an image at all'),
    });
    expect(res.statusCode).toBe(400);
    expect((await stored(companyId, 'banner'))?.updatedAt).toEqual(before?.updatedAt);
  });

  it('an image sent as a multipart/form-data form (a browser file input) is stored with its real type', async () => {
    const id = await makeCompany(t);
    const jpeg = await picture(40, 30, 'jpeg');
    const boundary = '----branding-form';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.inject({
      method: 'POST',
      url: `${C}/${id}/avatar`,
      headers: { ...bearer(t.superToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(id, 'avatar')).toMatchObject({ mime: 'image/jpeg', width: 40, height: 30 });
  });

  it('the limit of a raw or multipart image is that of its kind: one byte over 4 MB to the avatar gives 413 before the image is read', async () => {
    const id = await makeCompany(t);
    const res = await t.inject({
      method: 'POST',
      url: `${C}/${id}/avatar`,
      headers: { ...bearer(t.superToken), 'content-type': 'image/png' },
      payload: Buffer.alloc(4 * 1024 * 1024 + 1),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ errorDetailsCode: 413000, errorDetails: { maxBytes: 4 * 1024 * 1024 } });
    expect(await stored(id, 'avatar')).toBeUndefined();
  });

  it('issue 8, point 6: text/plain to the avatar gives 415 in the error shape (it answered 500)', async () => {
    const res = await t.inject({
      method: 'POST',
      url: `${C}/${companyId}/avatar`,
      headers: { ...bearer(admin.token), 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({
      errorCode: 415,
      errorDetailsCode: 415000,
      errorDetails: { mediaType: 'text/plain' },
    });
  });

  it('doc 3, avatar and banner, rule "a set updates lastAvatarUpdateDate / lastBannerUpdateDate to the current date"', async () => {
    const id = await makeCompany(t);
    t.clock.advance(60_000);
    expect((await setImage(t.superToken, id, 'avatar', b64(await picture(10, 10)))).statusCode).toBe(200);
    expect((await company(id)).lastAvatarUpdateDate?.toISOString()).toBe(t.clock.now().toISOString());
    expect((await company(id)).lastBannerUpdateDate).toBeNull();
    t.clock.advance(60_000);
    expect((await setImage(t.superToken, id, 'banner', b64(await picture(300, 60)))).statusCode).toBe(200);
    expect((await company(id)).lastBannerUpdateDate?.toISOString()).toBe(t.clock.now().toISOString());
  });

  for (const format of ['jpeg', 'webp'] as const) {
    it(`doc 3, avatar and banner: a ${format.toUpperCase()} image is accepted, with its real type`, async () => {
      const id = await makeCompany(t);
      expect((await setImage(t.superToken, id, 'avatar', b64(await picture(20, 20, format)))).statusCode).toBe(200);
      expect((await stored(id, 'avatar')).mime).toBe(`image/${format}`);
    });
  }

  it('the format is read from the bytes, not from a declared type (a data URL saying JPEG around a PNG stores a PNG)', async () => {
    const id = await makeCompany(t);
    const res = await setImage(t.superToken, id, 'avatar', `data:image/jpeg;base64,${b64(await picture(12, 12))}`);
    expect(res.statusCode).toBe(200);
    expect((await stored(id, 'avatar')).mime).toBe('image/png');
  });

  for (const [label, make] of [
    ['a GIF', async () => b64(await picture(10, 10, 'gif'))],
    ['a TIFF', async () => b64(await picture(10, 10, 'tiff'))],
    [
      'text disguised as a PNG data URL',
      async () => `data:image/png;base64,${b64(Buffer.from('hello, not an image'))}`,
    ],
    ['a truncated PNG', async () => b64((await picture(64, 64)).subarray(0, 60))],
    ['something that is not base64', async () => '***not base64***'],
  ] as const) {
    it(`${label} is refused with 400 and the stored avatar is unchanged`, async () => {
      const id = await makeCompany(t);
      const original = await picture(30, 30);
      await setImage(t.superToken, id, 'avatar', b64(original));
      const before = await company(id);
      t.clock.advance(1000);
      const res = await setImage(t.superToken, id, 'avatar', await make());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorDetailsCode).toBe(400400);
      expect(Buffer.compare((await stored(id, 'avatar')).data, original)).toBe(0);
      expect((await company(id)).lastAvatarUpdateDate).toEqual(before.lastAvatarUpdateDate);
    });
  }

  it('an avatar over 4 MB is refused with 413 (413400)', async () => {
    // Random pixels do not compress: a 1200x1200 RGB PNG of noise is over 4 MB.
    const noise = await sharp(randomBytes(1200 * 1200 * 3), { raw: { width: 1200, height: 1200, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(4 * 1024 * 1024);
    const id = await makeCompany(t);
    const res = await setImage(t.superToken, id, 'avatar', b64(noise));
    expect(res.statusCode).toBe(413);
    expect(res.json().errorDetailsCode).toBe(413400);
    expect(await stored(id, 'avatar')).toBeUndefined();
    // A banner may be up to 8 MB.
    expect((await setImage(t.superToken, id, 'banner', b64(noise))).statusCode).toBe(200);
  });

  it('an avatar wider than 4096 pixels is refused (400401); a banner may be up to 8192', async () => {
    const wide = await picture(5000, 20);
    const id = await makeCompany(t);
    const res = await setImage(t.superToken, id, 'avatar', b64(wide));
    expect(res.statusCode).toBe(400);
    expect(res.json().errorDetailsCode).toBe(400401);
    expect((await setImage(t.superToken, id, 'banner', b64(wide))).statusCode).toBe(200);
    const tooWide = await setImage(t.superToken, id, 'banner', b64(await picture(8193, 4)));
    expect(tooWide.json().errorDetailsCode).toBe(400401);
  });

  it('a body without image is refused (400), unknown fields are ignored', async () => {
    const id = await makeCompany(t);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `${C}/${id}/avatar`,
          headers: bearer(t.superToken),
          payload: { picture: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    const ok = await t.inject({
      method: 'POST',
      url: `${C}/${id}/avatar`,
      headers: bearer(t.superToken),
      payload: { image: b64(await picture(5, 5)), extra: 1 },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('doc 3, avatar and banner, roles', () => {
  it('doc 3, avatar and banner, rule "only superadmin handles the avatar of the Default and Terminated companies"', async () => {
    const [terminated] = await t.db.select().from(companies).where(eq(companies.systemRole, 'terminated'));
    const defaultAdmin = await makeUser(t, t.defaultCompanyId, ['company_admin']);
    const terminatedAdmin = await makeUser(t, terminated.id, ['company_admin']);
    const png = b64(await picture(10, 10));
    for (const [who, id] of [
      [defaultAdmin, t.defaultCompanyId],
      [terminatedAdmin, terminated.id],
    ] as const) {
      for (const kind of ['avatar', 'banner'] as const) {
        const set = await setImage(who.token, id, kind, png);
        expect(set.statusCode).toBe(403);
        expect(set.json().errorDetailsCode).toBe(403400);
        expect((await delImage(who.token, id, kind)).json().errorDetailsCode).toBe(403400);
      }
      expect((await setImage(t.superToken, id, 'avatar', png)).statusCode).toBe(200);
      expect((await delImage(t.superToken, id, 'avatar')).statusCode).toBe(200);
    }
  });

  it('tenant isolation: an admin of another company gets 404 and nothing is stored', async () => {
    const other = await makeCompany(t);
    const res = await setImage(admin.token, other, 'avatar', b64(await picture(10, 10)));
    expect(res.statusCode).toBe(404);
    expect(await stored(other, 'avatar')).toBeUndefined();
    expect((await delImage(admin.token, other, 'banner')).statusCode).toBe(404);
  });

  it('support sees the company but may not change its images (403); a plain user of the company gets 404', async () => {
    const support = await makeUser(t, t.defaultCompanyId, ['support']);
    expect((await setImage(support.token, companyId, 'avatar', b64(await picture(10, 10)))).statusCode).toBe(403);
    const plain = await makeUser(t, companyId);
    expect((await setImage(plain.token, companyId, 'avatar', b64(await picture(10, 10)))).statusCode).toBe(404);
  });

  it('bp_admin sets the avatar of his End Customer; organization_admin of a company of his organisation', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const ec = await makeCompany(t, { bpId: bp });
    const bpAdmin = await makeUser(t, bp, ['bp_admin']);
    expect((await setImage(bpAdmin.token, ec, 'avatar', b64(await picture(10, 10)))).statusCode).toBe(200);
    const org = newId();
    await t.db.insert(organisations).values({ id: org, name: 'Org' });
    const c1 = await makeCompany(t, { organisationId: org });
    const c2 = await makeCompany(t, { organisationId: org });
    const orgAdmin = await makeUser(t, c1, ['organization_admin']);
    expect((await setImage(orgAdmin.token, c2, 'banner', b64(await picture(100, 10)))).statusCode).toBe(200);
  });
});

describe('doc 3, avatar and banner, get', () => {
  let id: string;
  beforeAll(async () => {
    id = await makeCompany(t);
    await setImage(t.superToken, id, 'avatar', b64(await picture(200, 100)));
    await setImage(t.superToken, id, 'banner', b64(await picture(400, 100, 'jpeg')));
  });

  it('doc 3, avatar and banner, rule "size default 80, square": the avatar is an 80x80 image with Content-Type, Date, Dims-cached, Last-Modified', async () => {
    const res = await getImage('avatar', id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['last-modified']).toBe((await company(id)).lastAvatarUpdateDate!.toUTCString());
    expect(res.headers.date).toBeDefined();
    expect(res.headers['dims-cached']).toMatch(/^(true|false)$/);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.headers['content-disposition']).toBe(`inline; filename=avatar-${id}.png`);
    // Embedded by pages of other origins, those that require it to be said included (COEP).
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 80, 80]);
  });

  it('doc 3, avatar and banner, rule "avatar size from 1 to 2048 pixels, square": the avatar is cover-cropped to a square of exactly the size asked', async () => {
    for (const size of [1, 50, 64, 100, 2048]) {
      const res = await getImage('avatar', id, `?size=${size}`);
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
  });

  for (const size of ['0', '2049', '-3', 'abc', '1.5']) {
    it(`doc 3, avatar and banner, rule "size from 1 to 2048": size=${size} gives 400`, async () => {
      expect((await getImage('avatar', id, `?size=${size}`)).statusCode).toBe(400);
    });
  }

  it('doc 3, avatar and banner, rule "banner size from 1 pixel up to the original resolution": the size is the width, the aspect kept, never enlarged', async () => {
    const small = await getImage('banner', id, '?size=128');
    expect(small.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 128, height: 32 });
    const def = await getImage('banner', id);
    expect(await sharp(def.rawPayload).metadata()).toMatchObject({ width: 80, height: 20 });
    const big = await getImage('banner', id, '?size=5000');
    expect(big.statusCode).toBe(200);
    expect(await sharp(big.rawPayload).metadata()).toMatchObject({ width: 400, height: 100 });
    expect((await getImage('banner', id, '?size=0')).statusCode).toBe(400);
  });

  it('resized images are cached: computed once, then served from the cache (Dims-cached)', async () => {
    const first = await getImage('avatar', id, '?size=33');
    expect(first.headers['dims-cached']).toBe('false');
    // 33 is computed from 40, the nearest stored size not below it, stored in company_image_variants.
    const count = (await variants(id, 'avatar')).filter((v) => v.size === 40).length;
    expect(count).toBe(1);
    const second = await getImage('avatar', id, '?size=33');
    expect(second.headers['dims-cached']).toBe('true');
    expect(Buffer.compare(first.rawPayload, second.rawPayload)).toBe(0);
    expect((await variants(id, 'avatar')).filter((v) => v.size === 40)).toHaveLength(1);
    // Banner sizes above the original width share the variant of the original width.
    await getImage('banner', id, '?size=4000');
    expect((await getImage('banner', id, '?size=4001')).headers['dims-cached']).toBe('true');
  });

  it('a new upload invalidates the cached variants and moves Last-Modified', async () => {
    const before = await getImage('avatar', id, '?size=40');
    expect(before.statusCode).toBe(200);
    t.clock.advance(5 * 60_000);
    await setImage(t.superToken, id, 'avatar', b64(await picture(64, 64, 'webp')));
    expect(await variants(id, 'avatar')).toHaveLength(0);
    const after = await getImage('avatar', id, '?size=40');
    expect(after.headers['dims-cached']).toBe('false');
    expect(after.headers['content-type']).toBe('image/webp');
    expect(after.headers['last-modified']).toBe(t.clock.now().toUTCString());
    expect(after.headers['last-modified']).not.toBe(before.headers['last-modified']);
  });

  it('conditional GET: If-Modified-Since not older than Last-Modified gives 304 without body; older gives 200', async () => {
    const res = await getImage('avatar', id, '?size=20');
    const lm = String(res.headers['last-modified']);
    const notModified = await getImage('avatar', id, '?size=20', { 'if-modified-since': lm });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
    const older = new Date(Date.parse(lm) - 1000).toUTCString();
    expect((await getImage('avatar', id, '?size=20', { 'if-modified-since': older })).statusCode).toBe(200);
    expect((await getImage('avatar', id, '?size=20', { 'if-modified-since': 'garbage' })).statusCode).toBe(200);
  });

  it('the images are served without a token; a company without one gives 404 (404400), an unknown company 404 (404000)', async () => {
    const bare = await makeCompany(t);
    const none = await getImage('avatar', bare);
    expect(none.statusCode).toBe(404);
    expect(none.json().errorDetailsCode).toBe(404400);
    const unknown = await getImage('banner', newId());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errorDetailsCode).toBe(404000);
  });
});

describe('docs/decisions.md, Performance, originals written in chunks', () => {
  /** A PNG of noise (incompressible) of at least `bytes` bytes. */
  async function noise(bytes: number): Promise<Buffer> {
    const side = Math.ceil(Math.sqrt(bytes / 3));
    return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .png()
      .toBuffer();
  }

  it('an original over one chunk is written in several statements of at most CHUNK_BYTES and read back whole; the replaced version goes', async () => {
    const id = await makeCompany(t);
    const first = await noise(2.5 * CHUNK_BYTES);
    expect((await setImage(t.superToken, id, 'banner', b64(first))).statusCode).toBe(200);
    const written = await chunks(id, 'banner');
    expect(written.length).toBe(Math.ceil(first.length / CHUNK_BYTES));
    expect(written.every((c) => c.data.length <= CHUNK_BYTES)).toBe(true);
    expect(Buffer.compare((await stored(id, 'banner')).data, first)).toBe(0);
    // Served from the chunks: the original width answers the original's pixels.
    const served = await getImage('banner', id, '?size=100000');
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).width).toBe((await sharp(first).metadata()).width);

    t.clock.advance(1000);
    const second = await noise(1.5 * CHUNK_BYTES);
    expect((await setImage(t.superToken, id, 'banner', b64(second))).statusCode).toBe(200);
    const row = await stored(id, 'banner');
    expect(Buffer.compare(row.data, second)).toBe(0);
    // Only the chunks of the version the image names are left.
    expect(new Set((await chunks(id, 'banner')).map((c) => c.version))).toEqual(new Set([row.version]));
    expect((await delImage(t.superToken, id, 'banner')).statusCode).toBe(200);
    expect(await chunks(id, 'banner')).toHaveLength(0);
  });

  it('chunks of a version no image names (an upload that ended before naming it) go with the next change of that image once an hour old; younger ones (an upload under way) stay', async () => {
    const id = await makeCompany(t);
    const chunk = (version: string, writtenAt: Date) => ({
      companyId: id,
      kind: 'avatar',
      version,
      seq: 0,
      data: randomBytes(10),
      writtenAt,
    });
    await t.db.insert(companyImageChunks).values(chunk('abandoned', new Date(t.clock.now().getTime() - 61 * 60_000)));
    await t.db.insert(companyImageChunks).values(chunk('under-way', new Date(t.clock.now().getTime() - 60_000)));
    expect((await setImage(t.superToken, id, 'avatar', b64(await picture(20, 20)))).statusCode).toBe(200);
    const versions = new Set((await chunks(id, 'avatar')).map((c) => c.version));
    expect(versions.has('abandoned')).toBe(false);
    expect(versions.has('under-way')).toBe(true);
    // A deletion keeps them too: the upload under way sets the image after it.
    expect((await delImage(t.superToken, id, 'avatar')).statusCode).toBe(200);
    expect((await chunks(id, 'avatar')).map((c) => c.version)).toEqual(['under-way']);
  });
});

describe('doc 3, avatar and banner, delete', () => {
  it('doc 3, avatar and banner, rule "delete returns {status, data: []}": the original, its variants and the update date go', async () => {
    const id = await makeCompany(t);
    await setImage(admin.token, id, 'avatar', b64(await picture(10, 10))).then((r) => expect(r.statusCode).toBe(404));
    await setImage(t.superToken, id, 'avatar', b64(await picture(50, 50)));
    await setImage(t.superToken, id, 'banner', b64(await picture(50, 20)));
    await getImage('avatar', id, '?size=10');
    expect(await variants(id, 'avatar')).toHaveLength(1);
    const res = await delImage(t.superToken, id, 'avatar');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: expect.any(String), data: [] });
    expect(await stored(id, 'avatar')).toBeUndefined();
    expect(await variants(id, 'avatar')).toHaveLength(0);
    expect((await company(id)).lastAvatarUpdateDate).toBeNull();
    expect((await getImage('avatar', id)).statusCode).toBe(404);
    // The banner is another image: untouched.
    expect((await getImage('banner', id)).statusCode).toBe(200);
    // Deleting again is not an error.
    expect((await delImage(t.superToken, id, 'avatar')).statusCode).toBe(200);
  });
});
