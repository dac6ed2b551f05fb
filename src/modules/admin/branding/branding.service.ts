// Avatar and banner of a company (document 3): set, delete, and the images at the size asked. The
// stored sizes are computed once per (company, kind, size) from the original and kept in
// company_image_variants until the original changes; any other size is computed from the nearest
// stored variant not below it and kept in the bounded cache of branding.size-cache.ts.
import type { FastifyRequest } from 'fastify';
import { notModified, type BinaryAnswer } from '../../../http/binary.ts';
import type { Caller } from '../../../authz/roles.ts';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import {
  answerDimensions,
  checkImage,
  decodeUpload,
  resize,
  sourceSize,
  type CheckedImage,
  type ImageKind,
} from './branding.images.ts';
import { sizeCache, sizeKey } from './branding.size-cache.ts';
import { newId } from '../../../shared/ids.ts';
import * as repo from './branding.repo.ts';

const LABEL: Record<ImageKind, string> = { avatar: 'Avatar', banner: 'Banner' };

/** Only a superadmin handles the avatar and banner of the Default and Terminated companies. */
/** The fields of the authorised company (its row) that setting or deleting an image reads. */
type ImageCompany = { id: string; systemRole: string | null };

function guardSystemCompany(caller: Caller, company: ImageCompany): void {
  if (company.systemRole != null && !caller.roles.includes('superadmin'))
    fail('SYSTEM_COMPANY_IMAGE', { companyId: company.id });
}

/**
 * Bytes of the original per statement (docs/decisions.md, Performance, Originals written in chunks): an 8 MB
 * banner in 32 statements, each short enough that the embedded database's one session answers other requests
 * between them.
 */
export const CHUNK_BYTES = 256 * 1024;

/** How old the chunks of a version no image names must be to be taken for those of an upload that ended. */
const STALE_CHUNKS_MS = 60 * 60 * 1000;

/** An upload checked and its bytes written under `version`, which no image names yet. */
export type StagedImage = Omit<CheckedImage, 'data'> & { version: string };

/**
 * The upload, decoded and checked before any transaction (docs/security.md, Work, sessions and client
 * authentication), then its bytes written in chunks under a new version, each chunk its own short statement
 * outside any transaction: nothing reads them until storeImage names the version. `image`: the raw bytes, or
 * the base64 text of a JSON upload.
 */
export async function prepareImage(
  db: Executor,
  caller: Caller,
  company: ImageCompany,
  kind: ImageKind,
  image: Buffer | string,
  concurrency: number,
  now: Date,
): Promise<StagedImage> {
  guardSystemCompany(caller, company);
  const { data, ...checked } = await checkImage(
    kind,
    Buffer.isBuffer(image) ? image : decodeUpload(image),
    concurrency,
  );
  const version = newId();
  try {
    for (let seq = 0; seq * CHUNK_BYTES < data.length; seq++) {
      const chunk = data.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES);
      await repo.insertChunk(db, company.id, kind, { version, seq, data: chunk, writtenAt: now });
    }
  } catch (err) {
    await repo.deleteChunks(db, company.id, kind, version).catch(() => undefined);
    throw err;
  }
  return { ...checked, version };
}

/**
 * Makes the staged image the company's `kind`, whole, in one short transaction: the image row names its
 * version, the variants and the chunks of the replaced version go.
 */
export async function storeImage(db: Executor, company: ImageCompany, kind: ImageKind, staged: StagedImage, now: Date) {
  const companyId = company.id;
  await db.transaction(async (tx) => {
    const replaced = await repo.lockImageVersion(tx, companyId, kind);
    const row = { mime: staged.mime, width: staged.width, height: staged.height, version: staged.version };
    await repo.upsertImage(tx, companyId, kind, { ...row, updatedAt: now });
    await repo.deleteVariants(tx, companyId, kind);
    await repo.setCompanyImageDate(tx, companyId, kind, now);
    if (replaced !== undefined && replaced !== staged.version) await repo.deleteChunks(tx, companyId, kind, replaced);
    await repo.deleteStaleChunks(tx, companyId, kind, staged.version, new Date(now.getTime() - STALE_CHUNKS_MS));
  });
  return { status: `${LABEL[kind]} of company ${companyId} set`, data: [] };
}

/** Deleting removes the original and every cached variant; deleting what is not set is not an error. */
export async function deleteImage(db: Executor, caller: Caller, company: ImageCompany, kind: ImageKind, now: Date) {
  guardSystemCompany(caller, company);
  const companyId = company.id;
  await db.transaction(async (tx) => {
    const deleted = await repo.lockImageVersion(tx, companyId, kind);
    await repo.deleteImageRow(tx, companyId, kind);
    await repo.deleteVariants(tx, companyId, kind);
    await repo.setCompanyImageDate(tx, companyId, kind, null);
    // (The chunks of an upload under way stay: it sets the image after this deletion.)
    if (deleted !== undefined) await repo.deleteChunks(tx, companyId, kind, deleted);
    await repo.deleteStaleChunks(tx, companyId, kind, undefined, new Date(now.getTime() - STALE_CHUNKS_MS));
  });
  return { status: `${LABEL[kind]} of company ${companyId} deleted`, data: [] };
}

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

// Images being computed, by company, kind, size and original: concurrent requests for one share its
// computation (docs/security.md, Work, sessions and client authentication: a stored variant is computed once
// per original, another size once while it stays in the cache).
const computing = new Map<string, Promise<Buffer>>();

/**
 * Runs `work` for `key`, or joins the same work already under way: `computed` false when joined
 * (this request caused no work, as when served from a cache).
 */
async function once(key: string, work: () => Promise<Buffer>): Promise<{ data: Buffer; computed: boolean }> {
  const joined = computing.get(key);
  if (joined) return { data: await joined, computed: false };
  const running = work().finally(() => computing.delete(key));
  computing.set(key, running);
  return { data: await running, computed: true };
}

/** The original, the image every stored variant is computed from and whose dates they carry. */
interface Original {
  companyId: string;
  kind: ImageKind;
  mime: string;
  width: number;
  height: number;
  updatedAt: Date;
}

/** Computes and stores the variant of a stored size from the original, or joins its computation. */
function computeStoredVariant(
  db: Executor,
  img: Original,
  size: number,
  concurrency: number,
): Promise<{ data: Buffer; computed: boolean }> {
  const { companyId, kind, mime } = img;
  return once(sizeKey(companyId, kind, size, img.updatedAt), async () => {
    const original = await repo.findOriginal(db, companyId, kind);
    if (!original) fail('IMAGE_NOT_SET', { companyId, kind });
    const data = await resize(kind, original.data, mime, answerDimensions(kind, size, img), concurrency);
    await repo.upsertVariant(db, companyId, kind, size, { mime, data, sourceUpdatedAt: original.updatedAt });
    return data;
  });
}

/**
 * Computes an image of a size that is not stored from the nearest stored variant not below it (a
 * small image, never the original; computed and stored first if missing), and keeps it in the cache
 * of computed sizes; or joins its computation already under way.
 */
function computeOtherSize(
  db: Executor,
  img: Original,
  size: number,
  concurrency: number,
  cacheBytes: number,
): Promise<{ data: Buffer; computed: boolean }> {
  const { companyId, kind, mime } = img;
  const key = sizeKey(companyId, kind, size, img.updatedAt);
  return once(key, async () => {
    const from = sourceSize(kind, size, img.width);
    const stored = await repo.findVariant(db, companyId, kind, from);
    let source: Buffer;
    if (stored && stored.sourceUpdatedAt.getTime() === img.updatedAt.getTime()) source = stored.data;
    else source = (await computeStoredVariant(db, img, from, concurrency)).data;
    const data = await resize(kind, source, mime, answerDimensions(kind, size, img), concurrency);
    sizeCache(cacheBytes).set(key, data);
    return data;
  });
}

/**
 * Serves the image at exactly the size asked (avatars: the side of the square; banners: the width,
 * at most the original's): a stored size from its variant, another one from the cache of computed
 * sizes or computed for this request. Answers 304 to an If-Modified-Since not older than the image.
 */
export async function serveImage(
  db: Executor,
  req: FastifyRequest,
  companyId: string,
  kind: ImageKind,
  requested: number,
  now: Date,
  image: { concurrency: number; cacheBytes: number },
): Promise<BinaryAnswer> {
  const row = await repo.findImageAndVariant(db, companyId, kind, requested);
  if (!row) {
    if (!(await repo.companyExists(db, companyId))) fail('NOT_FOUND', { target: 'company', id: companyId });
    fail('IMAGE_NOT_SET', { companyId, kind });
  }
  const updatedAt = asDate(row.updated_at);
  const size = Number(row.size);
  // Browsers keep images and revalidate them (instead of the service-wide no-store). Pages of
  // other origins embed them with <img>, also those that require it to be said (COEP).
  const answer = {
    mediaType: row.mime,
    fileName: `${kind}-${companyId}.${EXTENSION[row.mime] ?? 'img'}`,
    lastModified: updatedAt,
  };
  const headers = {
    Date: now.toUTCString(),
    'Cache-Control': 'no-cache',
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  // Not modified: answered 304 without computing anything.
  if (notModified(req, updatedAt)) return { ...answer, headers, body: Buffer.alloc(0) };

  const img: Original = { companyId, kind, mime: row.mime, width: row.width, height: row.height, updatedAt };
  let data: Buffer;
  let cached: boolean;
  if (sourceSize(kind, size, row.width) === size) {
    // A stored size: its variant, or computed from the original and stored.
    if (row.v_data && row.v_source && asDate(row.v_source).getTime() === updatedAt.getTime()) {
      data = Buffer.isBuffer(row.v_data) ? row.v_data : Buffer.from(row.v_data);
      cached = true;
    } else {
      const variant = await computeStoredVariant(db, img, size, image.concurrency);
      data = variant.data;
      cached = !variant.computed;
    }
  } else {
    const hit = sizeCache(image.cacheBytes).get(sizeKey(companyId, kind, size, updatedAt));
    if (hit) {
      data = hit;
      cached = true;
    } else {
      const computed = await computeOtherSize(db, img, size, image.concurrency, image.cacheBytes);
      data = computed.data;
      cached = !computed.computed;
    }
  }
  return { ...answer, headers: { ...headers, 'Dims-cached': cached ? 'true' : 'false' }, body: data };
}
