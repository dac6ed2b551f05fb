// The largest banner the service accepts: a flat image at the largest dimensions whose top rows
// are noise that PNG cannot compress, as many as bring the file just under the byte limit
// (document 3, banner limits: IMAGE_LIMITS.banner). The benchmark imports it; the load test
// (test/admin/branding-load.test.ts) runs it as a script, which writes the PNG to standard output,
// in a child process so that the memory of making it does not blur its measure.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { IMAGE_LIMITS } from '../src/modules/admin/branding/branding.images.ts';

export async function bannerAtLimits(): Promise<Buffer> {
  const { maxWidth: width, maxHeight: height, maxBytes } = IMAGE_LIMITS.banner;
  const noiseRows = (h: number) =>
    sharp(randomBytes(width * h * 3), { raw: { width, height: h, channels: 3 } })
      .png()
      .toBuffer();
  const withNoise = async (h: number, rows: number) =>
    sharp({ create: { width, height: h, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .composite([{ input: await noiseRows(rows), left: 0, top: 0 }])
      .png()
      .toBuffer();
  // Bytes per row of noise as the final encoder writes them (composite adds an alpha channel).
  const bytesPerRow = (await withNoise(16, 16)).length / 16;
  const rows = Math.floor((maxBytes - 400_000) / bytesPerRow);
  let image = await withNoise(height, rows);
  // The flat rows cost something too: one correction brings the file under the limit.
  if (image.length > maxBytes * 0.98)
    image = await withNoise(height, rows - Math.ceil((image.length - maxBytes * 0.96) / bytesPerRow));
  if (image.length > maxBytes) throw new Error(`banner of ${image.length} bytes, over the limit ${maxBytes}`);
  return image;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.stdout.write(await bannerAtLimits());
