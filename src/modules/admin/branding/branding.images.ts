// Image handling of company avatars and banners (document 3, Avatar and banner): the real format
// is read from the bytes with sharp (never from a declared type), sizes are bounded before any
// pixel is decoded, and the images at the sizes asked are computed here.
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

// The stored sizes (docs/decisions.md, Bounds of images, sessions and client authentication). Every size is
// answered exactly (document 3: an avatar from 1 to 2048 pixels, a banner from 1 pixel up to its original
// width); these are the ones kept in the database, each computed once per original from the original. Any
// other size is computed from the nearest stored size not below it and kept in a bounded memory cache
// (branding.size-cache.ts), so an original has at most one stored variant per entry (a banner: those below
// its width, and its width) whatever sizes are asked.
const COMMON_SIZES = [
  16, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024, 1280, 1536, 2048,
];
export const STORED_SIZES: Record<ImageKind, readonly number[]> = {
  avatar: COMMON_SIZES,
  banner: [...COMMON_SIZES, 2560, 3072, 3840, 4096, 5120, 6144, 7168, 8192],
};

/**
 * The stored size an answer of `size` pixels comes from: the nearest stored size not below it (the
 * largest above them all), a banner's at most its original width, which is then stored too.
 */
export function sourceSize(kind: ImageKind, size: number, originalWidth: number): number {
  const sizes = STORED_SIZES[kind];
  const stored = sizes.find((s) => s >= size) ?? sizes[sizes.length - 1];
  return kind === 'banner' ? Math.min(stored, originalWidth) : stored;
}

/** The dimensions of the answer of `size` pixels: an avatar a square, a banner `size` wide with the original's aspect. */
export function answerDimensions(
  kind: ImageKind,
  size: number,
  original: { width: number; height: number },
): { width: number; height: number } {
  if (kind === 'avatar') return { width: size, height: size };
  return { width: size, height: Math.max(1, Math.round((size * original.height) / original.width)) };
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
 * An image of `kind` at `dims`, in the format `mime`, from `source`: the original (for a stored size)
 * or a stored variant (for any other size). Avatars are cropped to the square around the centre
 * (a stored variant is already square); banners keep the original's aspect, their height rounded.
 */
export async function resize(
  kind: ImageKind,
  source: Buffer,
  mime: string,
  dims: { width: number; height: number },
  concurrency: number,
): Promise<Buffer> {
  const sharp = await loadSharp();
  return underImageLimit(concurrency, () => {
    const img = sharp(source, { limitInputPixels: pixelBudget(kind) }).autoOrient();
    const fit = kind === 'avatar' ? 'cover' : 'fill';
    return encode(img.resize(dims.width, dims.height, { fit, position: 'centre' }), mime);
  });
}
