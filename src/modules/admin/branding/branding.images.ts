// Image handling of company avatars and banners (document 3, Avatar and banner): the real format
// is read from the bytes with sharp (never from a declared type), sizes are bounded before any
// pixel is decoded, and resized variants are computed here.
//
// Bounded work (docs/security.md, Work, sessions and client authentication): every decode (the check of an
// upload, the computation of a variant) runs under one limiter per process (IMAGE_CONCURRENCY, p-limit) and
// within the pixel budget of its kind (sharp's limitInputPixels), so memory stays bounded whatever arrives at
// once; the rest wait their turn.
import type { Metadata, Sharp } from 'sharp';
import pLimit, { type LimitFunction } from 'p-limit';
import { fail } from '../../../errors/catalogue.ts';

// sharp (native libvips) loads on the first image, not at start: most processes never touch one.
let sharpModule: Promise<typeof import('sharp')> | undefined;
const loadSharp = async () => {
  const first = !sharpModule;
  const sharp = (await (sharpModule ??= import('sharp'))).default;
  if (first) {
    // libvips' operation cache would keep decoded images after their request (up to 50 MB and
    // 100 operations by default); variants are kept in the database instead.
    sharp.cache(false);
    // One libvips thread per image (sharp's default is one per core, except on glibc without
    // jemalloc): IMAGE_CONCURRENCY images at once take at most as many cores, and the service's
    // thread and the embedded database's keep the others (docs/decisions.md, Performance).
    sharp.concurrency(1);
  }
  return sharp;
};

const limiters = new Map<number, LimitFunction>();

/** Runs image work under the process-wide limit of `concurrency` decodes at once. */
export function underImageLimit<T>(concurrency: number, work: () => Promise<T>): Promise<T> {
  let limit = limiters.get(concurrency);
  if (!limit) limiters.set(concurrency, (limit = pLimit(concurrency)));
  return limit(work);
}

export type ImageKind = 'avatar' | 'banner';

/** Limits of an uploaded original (docs/decisions.md, Branding). */
export const IMAGE_LIMITS: Record<ImageKind, { maxBytes: number; maxWidth: number; maxHeight: number }> = {
  avatar: { maxBytes: 4 * 1024 * 1024, maxWidth: 4096, maxHeight: 4096 },
  banner: { maxBytes: 8 * 1024 * 1024, maxWidth: 8192, maxHeight: 8192 },
};

export const AVATAR_MAX_SIZE = 2048;
export const DEFAULT_IMAGE_SIZE = 80;

// The sizes served without a token (docs/decisions.md, Bounds of images, sessions and client authentication).
// A requested size is served at the nearest of these not below it (a banner: then at most the original
// width), so an original has at most one variant per entry whatever sizes are asked (docs/decisions.md, Branding).
const COMMON_SIZES = [
  16, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048,
];
export const SERVED_SIZES: Record<ImageKind, readonly number[]> = {
  avatar: COMMON_SIZES,
  banner: [...COMMON_SIZES, 2560, 3072, 3840, 4096, 5120, 6144, 7168, 8192],
};

/** The served size for a requested one: the nearest served size not below it (the largest above them all). */
export function servedSize(kind: ImageKind, requested: number): number {
  const sizes = SERVED_SIZES[kind];
  return sizes.find((s) => s >= requested) ?? sizes[sizes.length - 1];
}

/** The pixel budget of one decode of `kind`: the largest image an upload may have. */
const pixelBudget = (kind: ImageKind) => IMAGE_LIMITS[kind].maxWidth * IMAGE_LIMITS[kind].maxHeight;

const FORMATS: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface CheckedImage {
  data: Buffer;
  mime: string;
  width: number;
  height: number;
}

/** Decodes the base64 upload (a data URL prefix is accepted) without trusting anything it declares. */
export function decodeUpload(image: string): Buffer {
  const comma = image.startsWith('data:') ? image.indexOf(',') : -1;
  const b64 = (comma >= 0 ? image.slice(comma + 1) : image).replace(/\s+/g, '');
  if (b64 === '' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64))
    fail('IMAGE_FORMAT_UNSUPPORTED', { reason: 'image is not base64' });
  return Buffer.from(b64, 'base64');
}

/**
 * PNG, JPEG or WebP within the limits of its kind; anything else is refused with a 4xx. The whole
 * check holds one place of the image limit.
 */
export async function checkImage(kind: ImageKind, data: Buffer, concurrency: number): Promise<CheckedImage> {
  const limits = IMAGE_LIMITS[kind];
  if (data.length > limits.maxBytes) fail('IMAGE_TOO_LARGE', { bytes: data.length, maxBytes: limits.maxBytes });
  const sharp = await loadSharp();
  return underImageLimit(concurrency, async () => {
    let meta: Metadata;
    try {
      // metadata() reads the header only: no pixel is decoded here.
      meta = await sharp(data).metadata();
    } catch {
      fail('IMAGE_FORMAT_UNSUPPORTED', { reason: 'not a readable image' });
    }
    const mime = meta.format ? FORMATS[meta.format] : undefined;
    if (!mime) fail('IMAGE_FORMAT_UNSUPPORTED', { format: meta.format ?? 'unknown', allowed: Object.values(FORMATS) });
    // Dimensions as displayed, after the EXIF orientation is applied.
    const width = meta.autoOrient?.width ?? meta.width ?? 0;
    const height = meta.autoOrient?.height ?? meta.height ?? 0;
    if (width < 1 || height < 1) fail('IMAGE_FORMAT_UNSUPPORTED', { reason: 'image without dimensions' });
    if (width > limits.maxWidth || height > limits.maxHeight) {
      fail('IMAGE_DIMENSIONS_TOO_LARGE', { width, height, maxWidth: limits.maxWidth, maxHeight: limits.maxHeight });
    }
    // Decode once through, so that a truncated or corrupt file is refused now rather than when
    // served. Read in sequence into a tiny nearest-neighbour image, the decode streams through the
    // file without holding the image whole (stats() took 8 s and more for an 8192-pixel PNG).
    try {
      await sharp(data, { limitInputPixels: pixelBudget(kind), sequentialRead: true })
        .resize({ width: 16, height: 16, fit: 'fill', kernel: 'nearest' })
        .raw()
        .toBuffer();
    } catch {
      fail('IMAGE_FORMAT_UNSUPPORTED', { reason: 'the image data is corrupt' });
    }
    return { data, mime, width, height };
  });
}

function encode(img: Sharp, mime: string): Promise<Buffer> {
  if (mime === 'image/jpeg') return img.jpeg({ quality: 85 }).toBuffer();
  if (mime === 'image/webp') return img.webp({ quality: 85 }).toBuffer();
  return img.png().toBuffer();
}

/**
 * A served variant, in the format of the original: avatars are squares of `size` pixels (cover
 * crop, centred); banners are `size` pixels wide with the original aspect ratio.
 */
export async function resize(
  kind: ImageKind,
  original: Buffer,
  mime: string,
  size: number,
  concurrency: number,
): Promise<Buffer> {
  const sharp = await loadSharp();
  return underImageLimit(concurrency, () => {
    const img = sharp(original, { limitInputPixels: pixelBudget(kind) }).autoOrient();
    const resized =
      kind === 'avatar'
        ? img.resize(size, size, { fit: 'cover', position: 'centre' })
        : img.resize({ width: size, withoutEnlargement: true });
    return encode(resized, mime);
  });
}
