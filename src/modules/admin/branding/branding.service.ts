// Avatar and banner of a company (document 3): set, delete, and the served variants, computed
// once per (company, kind, size) and kept in company_image_variants until the original changes.
import type { FastifyRequest } from 'fastify';
import { notModified, type BinaryAnswer } from '../../../http/binary.ts';
import type { Caller } from '../../../authz/roles.ts';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { checkImage, decodeUpload, resize, servedSize, type CheckedImage, type ImageKind } from './branding.images.ts';
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
 * The upload, decoded and checked before any transaction (docs/security.md, Work, sessions and client
 * authentication). `image`: the raw bytes, or the base64 text of a JSON upload.
 */
export async function prepareImage(
  caller: Caller,
  company: ImageCompany,
  kind: ImageKind,
  image: Buffer | string,
  concurrency: number,
): Promise<CheckedImage> {
  guardSystemCompany(caller, company);
  return checkImage(kind, Buffer.isBuffer(image) ? image : decodeUpload(image), concurrency);
}

/** Stores the checked image as the company's `kind` and drops its variants. */
export async function storeImage(
  db: Executor,
  company: ImageCompany,
  kind: ImageKind,
  checked: CheckedImage,
  now: Date,
) {
  const companyId = company.id;
  await db.transaction(async (tx) => {
    const row = {
      mime: checked.mime,
      width: checked.width,
      height: checked.height,
      data: checked.data,
      updatedAt: now,
    };
    await repo.upsertImage(tx, companyId, kind, row);
    await repo.deleteVariants(tx, companyId, kind);
    await repo.setCompanyImageDate(tx, companyId, kind, now);
  });
  return { status: `${LABEL[kind]} of company ${companyId} set`, data: [] };
}

/** Deleting removes the original and every cached variant; deleting what is not set is not an error. */
export async function deleteImage(db: Executor, caller: Caller, company: ImageCompany, kind: ImageKind) {
  guardSystemCompany(caller, company);
  const companyId = company.id;
  await db.transaction(async (tx) => {
    await repo.deleteImageRow(tx, companyId, kind);
    await repo.deleteVariants(tx, companyId, kind);
    await repo.setCompanyImageDate(tx, companyId, kind, null);
  });
  return { status: `${LABEL[kind]} of company ${companyId} deleted`, data: [] };
}

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

// Variants being computed, by company, kind, size and original: concurrent requests for one
// share its computation (docs/security.md, Work, sessions and client authentication: a variant is computed
// once per original).
const computing = new Map<string, Promise<Buffer>>();

/**
 * Computes, stores and returns the variant (`computed` true), or joins its computation already
 * under way (`computed` false: this request caused no work, as when served from the cache).
 */
async function computeVariant(
  db: Executor,
  companyId: string,
  kind: ImageKind,
  mime: string,
  size: number,
  updatedAt: Date,
  concurrency: number,
): Promise<{ data: Buffer; computed: boolean }> {
  const key = `${companyId}/${kind}/${size}/${updatedAt.getTime()}`;
  const joined = computing.get(key);
  if (joined) return { data: await joined, computed: false };
  const work = (async () => {
    const original = await repo.findOriginal(db, companyId, kind);
    if (!original) fail('IMAGE_NOT_SET', { companyId, kind });
    const data = await resize(kind, original.data, mime, size, concurrency);
    await repo.upsertVariant(db, companyId, kind, size, { mime, data, sourceUpdatedAt: original.updatedAt });
    return data;
  })().finally(() => computing.delete(key));
  computing.set(key, work);
  return { data: await work, computed: true };
}

/**
 * Serves the variant of the served size for `requested` (avatars: the side of the square;
 * banners: the width, at most the original's). Answers 304 to an If-Modified-Since not older
 * than the image.
 */
export async function serveImage(
  db: Executor,
  req: FastifyRequest,
  companyId: string,
  kind: ImageKind,
  requested: number,
  now: Date,
  concurrency: number,
): Promise<BinaryAnswer> {
  const row = await repo.findImageAndVariant(db, companyId, kind, servedSize(kind, requested));
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
  // Not modified: answered 304 without computing the variant.
  if (notModified(req, updatedAt)) return { ...answer, headers, body: Buffer.alloc(0) };

  let data: Buffer;
  let cached: boolean;
  if (row.v_data && row.v_source && asDate(row.v_source).getTime() === updatedAt.getTime()) {
    data = Buffer.isBuffer(row.v_data) ? row.v_data : Buffer.from(row.v_data);
    cached = true;
  } else {
    const variant = await computeVariant(db, companyId, kind, row.mime, size, updatedAt, concurrency);
    data = variant.data;
    cached = !variant.computed;
  }
  return { ...answer, headers: { ...headers, 'Dims-cached': cached ? 'true' : 'false' }, body: data };
}
