// Avatar and banner of a company (document 3): set, delete, and the served variants, computed
// once per (company, kind, size) and kept in company_image_variants until the original changes.
import type { FastifyRequest } from 'fastify';
import { notModified, type BinaryAnswer } from '../../../http/binary.ts';
import type { Caller } from '../../../authz/roles.ts';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { checkImage, decodeUpload, resize, type ImageKind } from './branding.images.ts';
import * as repo from './branding.repo.ts';

const LABEL: Record<ImageKind, string> = { avatar: 'Avatar', banner: 'Banner' };

/** Only a superadmin handles the avatar and banner of the Default and Terminated companies. */
function guardSystemCompany(caller: Caller, company: Record<string, unknown>): void {
  if (company.systemRole != null && !caller.roles.includes('superadmin')) fail('SYSTEM_COMPANY_IMAGE', { companyId: company.id });
}

/** `image`: the raw bytes, or the base64 text of a JSON upload. */
export async function setImage(db: Executor, caller: Caller, company: Record<string, unknown>, kind: ImageKind, image: Buffer | string, now: Date) {
  guardSystemCompany(caller, company);
  const checked = await checkImage(kind, Buffer.isBuffer(image) ? image : decodeUpload(image));
  const companyId = company.id as string;
  await db.transaction(async (tx) => {
    const row = { mime: checked.mime, width: checked.width, height: checked.height, data: checked.data, updatedAt: now };
    await repo.upsertImage(tx, companyId, kind, row);
    await repo.deleteVariants(tx, companyId, kind);
    await repo.setCompanyImageDate(tx, companyId, kind, now);
  });
  return { status: `${LABEL[kind]} of company ${companyId} set`, data: [] as never[] };
}

/** Deleting removes the original and every cached variant; deleting what is not set is not an error. */
export async function deleteImage(db: Executor, caller: Caller, company: Record<string, unknown>, kind: ImageKind) {
  guardSystemCompany(caller, company);
  const companyId = company.id as string;
  await db.transaction(async (tx) => {
    await repo.deleteImageRow(tx, companyId, kind);
    await repo.deleteVariants(tx, companyId, kind);
    await repo.setCompanyImageDate(tx, companyId, kind, null);
  });
  return { status: `${LABEL[kind]} of company ${companyId} deleted`, data: [] as never[] };
}

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Serves the variant of `size` pixels (avatars: the side of the square; banners: the width,
 * at most the original's). Answers 304 to an If-Modified-Since not older than the image.
 */
export async function serveImage(db: Executor, req: FastifyRequest, companyId: string, kind: ImageKind, requested: number, now: Date): Promise<BinaryAnswer> {
  const row = await repo.findImageAndVariant(db, companyId, kind, requested);
  if (!row) {
    if (!(await repo.companyExists(db, companyId))) fail('NOT_FOUND', { target: 'company', id: companyId });
    fail('IMAGE_NOT_SET', { companyId, kind });
  }
  const updatedAt = asDate(row.updated_at);
  const size = Number(row.size);
  // Browsers keep images and revalidate them (instead of the service-wide no-store).
  const answer = { mediaType: row.mime, fileName: `${kind}-${companyId}.${EXTENSION[row.mime] ?? 'img'}`, lastModified: updatedAt };
  const headers = { Date: now.toUTCString(), 'Cache-Control': 'no-cache' };
  // Not modified: answered 304 without computing the variant.
  if (notModified(req, updatedAt)) return { ...answer, headers, body: Buffer.alloc(0) };

  let data: Buffer;
  let cached: boolean;
  if (row.v_data && row.v_source && asDate(row.v_source).getTime() === updatedAt.getTime()) {
    data = Buffer.isBuffer(row.v_data) ? row.v_data : Buffer.from(row.v_data);
    cached = true;
  } else {
    const original = await repo.findOriginal(db, companyId, kind);
    if (!original) fail('IMAGE_NOT_SET', { companyId, kind });
    data = await resize(kind, original.data, row.mime, size);
    const variant = { mime: row.mime, data, sourceUpdatedAt: original.updatedAt };
    await repo.upsertVariant(db, companyId, kind, size, variant);
    cached = false;
  }
  return { ...answer, headers: { ...headers, 'Dims-cached': cached ? 'true' : 'false' }, body: data };
}
