// Avatar and banner of a company (document 3): set, delete, and the served variants, computed
// once per (company, kind, size) and kept in company_image_variants until the original changes.
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { notModified, type BinaryAnswer } from '../../../http/binary.ts';
import type { Caller } from '../../../authz/roles.ts';
import type { Db } from '../../../db/client.ts';
import { companies } from '../companies/companies.tables.ts';
import { companyImages, companyImageVariants } from './branding.tables.ts';
import { fail } from '../../../errors/catalogue.ts';
import { checkImage, decodeUpload, resize, type ImageKind } from './branding.images.ts';

const LABEL: Record<ImageKind, string> = { avatar: 'Avatar', banner: 'Banner' };

/** Only a superadmin handles the avatar and banner of the Default and Terminated companies. */
function guardSystemCompany(caller: Caller, company: Record<string, unknown>): void {
  if (company.systemRole != null && !caller.roles.includes('superadmin')) fail('SYSTEM_COMPANY_IMAGE', { companyId: company.id });
}

function dateColumn(kind: ImageKind) {
  return kind === 'avatar' ? 'lastAvatarUpdateDate' : 'lastBannerUpdateDate';
}

/** `image`: the raw bytes, or the base64 text of a JSON upload. */
export async function setImage(db: Db, caller: Caller, company: Record<string, unknown>, kind: ImageKind, image: Buffer | string, now: Date) {
  guardSystemCompany(caller, company);
  const checked = await checkImage(kind, Buffer.isBuffer(image) ? image : decodeUpload(image));
  const companyId = company.id as string;
  await db.transaction(async (tx) => {
    const row = { mime: checked.mime, width: checked.width, height: checked.height, data: checked.data, updatedAt: now };
    await tx
      .insert(companyImages)
      .values({ companyId, kind, ...row })
      .onConflictDoUpdate({ target: [companyImages.companyId, companyImages.kind], set: row });
    await tx.delete(companyImageVariants).where(and(eq(companyImageVariants.companyId, companyId), eq(companyImageVariants.kind, kind)));
    await tx.update(companies).set({ [dateColumn(kind)]: now }).where(eq(companies.id, companyId));
  });
  return { status: `${LABEL[kind]} of company ${companyId} set`, data: [] as never[] };
}

/** Deleting removes the original and every cached variant; deleting what is not set is not an error. */
export async function deleteImage(db: Db, caller: Caller, company: Record<string, unknown>, kind: ImageKind) {
  guardSystemCompany(caller, company);
  const companyId = company.id as string;
  await db.transaction(async (tx) => {
    await tx.delete(companyImages).where(and(eq(companyImages.companyId, companyId), eq(companyImages.kind, kind)));
    await tx.delete(companyImageVariants).where(and(eq(companyImageVariants.companyId, companyId), eq(companyImageVariants.kind, kind)));
    await tx.update(companies).set({ [dateColumn(kind)]: null }).where(eq(companies.id, companyId));
  });
  return { status: `${LABEL[kind]} of company ${companyId} deleted`, data: [] as never[] };
}

interface Lookup {
  mime: string;
  width: number;
  updated_at: Date | string;
  size: number;
  v_data: Buffer | Uint8Array | null;
  v_source: Date | string | null;
}

const asDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));
const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Serves the variant of `size` pixels (avatars: the side of the square; banners: the width,
 * at most the original's). Answers 304 to an If-Modified-Since not older than the image.
 */
export async function serveImage(db: Db, req: FastifyRequest, companyId: string, kind: ImageKind, requested: number, now: Date): Promise<BinaryAnswer> {
  // Banners are never enlarged: the size is the requested width, at most the original width.
  const sizeExpr = kind === 'banner' ? sql`LEAST(${requested}::int, i.width)` : sql`${requested}::int`;
  const res = await db.execute(sql`SELECT i.mime, i.width, i.updated_at, ${sizeExpr} AS size, v.data AS v_data, v.source_updated_at AS v_source
    FROM company_images i
    LEFT JOIN company_image_variants v ON v.company_id = i.company_id AND v.kind = i.kind AND v.size = ${sizeExpr}
    WHERE i.company_id = ${companyId} AND i.kind = ${kind}`);
  const row = (res as unknown as { rows: Lookup[] }).rows[0];
  if (!row) {
    const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
    if (!company) fail('NOT_FOUND', { target: 'company', id: companyId });
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
    const [original] = await db
      .select({ data: companyImages.data, updatedAt: companyImages.updatedAt })
      .from(companyImages)
      .where(and(eq(companyImages.companyId, companyId), eq(companyImages.kind, kind)));
    if (!original) fail('IMAGE_NOT_SET', { companyId, kind });
    data = await resize(kind, original.data, row.mime, size);
    const variant = { mime: row.mime, data, sourceUpdatedAt: original.updatedAt };
    await db
      .insert(companyImageVariants)
      .values({ companyId, kind, size, ...variant })
      .onConflictDoUpdate({ target: [companyImageVariants.companyId, companyImageVariants.kind, companyImageVariants.size], set: variant });
    cached = false;
  }
  return { ...answer, headers: { ...headers, 'Dims-cached': cached ? 'true' : 'false' }, body: data };
}
