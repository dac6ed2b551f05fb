// Image handling of company avatars and banners (document 3, Avatar and banner): the real format
// is read from the bytes with sharp (never from a declared type), sizes are bounded before any
// pixel is decoded, and resized variants are computed here.
import type { Metadata, Sharp } from 'sharp';
import { fail } from '../../../errors/catalogue.ts';

// sharp (native libvips) loads on the first image, not at start: most processes never touch one.
let sharpModule: Promise<typeof import('sharp')> | undefined;
const loadSharp = async () => (await (sharpModule ??= import('sharp'))).default;

export type ImageKind = 'avatar' | 'banner';

/** Limits of an uploaded original (docs/decisions.md, Branding). */
export const IMAGE_LIMITS: Record<ImageKind, { maxBytes: number; maxWidth: number; maxHeight: number }> = {
  avatar: { maxBytes: 4 * 1024 * 1024, maxWidth: 4096, maxHeight: 4096 },
  banner: { maxBytes: 8 * 1024 * 1024, maxWidth: 8192, maxHeight: 8192 },
};

export const AVATAR_MAX_SIZE = 2048;
export const DEFAULT_IMAGE_SIZE = 80;

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
  if (b64 === '' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64)) fail('IMAGE_FORMAT_UNSUPPORTED', { reason: 'image is not base64' });
  return Buffer.from(b64, 'base64');
}

/** PNG, JPEG or WebP within the limits of its kind; anything else is refused with a 4xx. */
export async function checkImage(kind: ImageKind, data: Buffer): Promise<CheckedImage> {
  const limits = IMAGE_LIMITS[kind];
  const sharp = await loadSharp();
  if (data.length > limits.maxBytes) fail('IMAGE_TOO_LARGE', { bytes: data.length, maxBytes: limits.maxBytes });
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
  // Decode once fully, so that a truncated or corrupt file is refused now rather than when served.
  try {
    await sharp(data, { limitInputPixels: limits.maxWidth * limits.maxHeight }).stats();
  } catch {
    fail('IMAGE_FORMAT_UNSUPPORTED', { reason: 'the image data is corrupt' });
  }
  return { data, mime, width, height };
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
export async function resize(kind: ImageKind, original: Buffer, mime: string, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const img = sharp(original).autoOrient();
  const resized = kind === 'avatar' ? img.resize(size, size, { fit: 'cover', position: 'centre' }) : img.resize({ width: size, withoutEnlargement: true });
  return encode(resized, mime);
}
