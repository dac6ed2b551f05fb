// SQL of the avatars and banners of companies and of their stored variants.
import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { companyImageChunks, companyImages, companyImageVariants } from './branding.tables.ts';
import type { ImageKind } from './branding.images.ts';
import * as companiesApi from '../companies/companies.api.ts';

export interface ImageContent {
  mime: string;
  width: number;
  height: number;
  /** The version whose chunks hold the original's bytes. */
  version: string;
  updatedAt: Date;
}

/** The company's column that dates its image of `kind`. */
function dateColumn(kind: ImageKind) {
  return kind === 'avatar' ? 'lastAvatarUpdateDate' : 'lastBannerUpdateDate';
}

/** Writes one chunk of the original's bytes under `version` (one short statement). */
export async function insertChunk(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  chunk: { version: string; seq: number; data: Buffer; writtenAt: Date },
): Promise<void> {
  await exec.insert(companyImageChunks).values({ companyId, kind, ...chunk });
}

/** The version the image row names now (locked until the transaction ends), if there is one. */
export async function lockImageVersion(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
): Promise<string | undefined> {
  const [row] = await exec
    .select({ version: companyImages.version })
    .from(companyImages)
    .where(and(eq(companyImages.companyId, companyId), eq(companyImages.kind, kind)))
    .for('update');
  return row?.version;
}

export async function upsertImage(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  row: ImageContent,
): Promise<void> {
  await exec
    .insert(companyImages)
    .values({ companyId, kind, ...row })
    .onConflictDoUpdate({ target: [companyImages.companyId, companyImages.kind], set: row });
}

export async function deleteImageRow(exec: Executor, companyId: string, kind: ImageKind): Promise<void> {
  await exec.delete(companyImages).where(and(eq(companyImages.companyId, companyId), eq(companyImages.kind, kind)));
}

const chunksOf = (companyId: string, kind: ImageKind) =>
  and(eq(companyImageChunks.companyId, companyId), eq(companyImageChunks.kind, kind));

/** Deletes the chunks of one version. */
export async function deleteChunks(exec: Executor, companyId: string, kind: ImageKind, version: string): Promise<void> {
  await exec.delete(companyImageChunks).where(and(chunksOf(companyId, kind), eq(companyImageChunks.version, version)));
}

/**
 * Deletes the chunks of versions other than `kept` written before `before`: those of uploads that
 * ended before naming them (an upload writes its chunks within seconds, so none under way is older).
 */
export async function deleteStaleChunks(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  kept: string | undefined,
  before: Date,
): Promise<void> {
  const old = lt(companyImageChunks.writtenAt, before);
  await exec
    .delete(companyImageChunks)
    .where(and(chunksOf(companyId, kind), old, kept === undefined ? undefined : ne(companyImageChunks.version, kept)));
}

export async function deleteVariants(exec: Executor, companyId: string, kind: ImageKind): Promise<void> {
  await exec
    .delete(companyImageVariants)
    .where(and(eq(companyImageVariants.companyId, companyId), eq(companyImageVariants.kind, kind)));
}

/** Writes (or clears, with null) the company's date of its image of `kind`. */
export async function setCompanyImageDate(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  date: Date | null,
): Promise<void> {
  await companiesApi.setCompanyImageDate(exec, companyId, dateColumn(kind), date);
}

export interface ImageLookup {
  mime: string;
  width: number;
  height: number;
  updated_at: Date | string;
  size: number;
  v_data: Buffer | Uint8Array | null;
  v_source: Date | string | null;
}

/**
 * The image of `kind`, the size answered for `requested` (a banner's at most its width) and the stored
 * variant of that size, if it is one.
 */
export async function findImageAndVariant(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  requested: number,
): Promise<ImageLookup | undefined> {
  // Banners are never enlarged: the size is the requested width, at most the original width.
  const size =
    kind === 'banner' ? sql<number>`LEAST(${requested}::int, ${companyImages.width})` : sql<number>`${requested}::int`;
  const [row] = await exec
    .select({
      mime: companyImages.mime,
      width: companyImages.width,
      height: companyImages.height,
      updated_at: companyImages.updatedAt,
      size,
      v_data: companyImageVariants.data,
      v_source: companyImageVariants.sourceUpdatedAt,
    })
    .from(companyImages)
    .leftJoin(
      companyImageVariants,
      and(
        eq(companyImageVariants.companyId, companyImages.companyId),
        eq(companyImageVariants.kind, companyImages.kind),
        eq(companyImageVariants.size, size),
      ),
    )
    .where(and(eq(companyImages.companyId, companyId), eq(companyImages.kind, kind)));
  return row;
}

/** The stored variant of `size`, with the update date of the original it was computed from. */
export async function findVariant(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  size: number,
): Promise<{ data: Buffer; sourceUpdatedAt: Date } | undefined> {
  const [variant] = await exec
    .select({ data: companyImageVariants.data, sourceUpdatedAt: companyImageVariants.sourceUpdatedAt })
    .from(companyImageVariants)
    .where(
      and(
        eq(companyImageVariants.companyId, companyId),
        eq(companyImageVariants.kind, kind),
        eq(companyImageVariants.size, size),
      ),
    );
  return variant;
}

export const companyExists = companiesApi.companyExists;

/** The original's bytes (its chunks, in one statement: one snapshot of the row and of its version). */
export async function findOriginal(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
): Promise<{ data: Buffer; updatedAt: Date } | undefined> {
  const rows = await exec
    .select({ data: companyImageChunks.data, updatedAt: companyImages.updatedAt })
    .from(companyImages)
    .innerJoin(
      companyImageChunks,
      and(
        eq(companyImageChunks.companyId, companyImages.companyId),
        eq(companyImageChunks.kind, companyImages.kind),
        eq(companyImageChunks.version, companyImages.version),
      ),
    )
    .where(and(eq(companyImages.companyId, companyId), eq(companyImages.kind, kind)))
    .orderBy(asc(companyImageChunks.seq));
  if (rows.length === 0) return undefined;
  return { data: Buffer.concat(rows.map((r) => r.data)), updatedAt: rows[0].updatedAt };
}

export async function upsertVariant(
  exec: Executor,
  companyId: string,
  kind: ImageKind,
  size: number,
  variant: { mime: string; data: Buffer; sourceUpdatedAt: Date },
): Promise<void> {
  await exec
    .insert(companyImageVariants)
    .values({ companyId, kind, size, ...variant })
    .onConflictDoUpdate({
      target: [companyImageVariants.companyId, companyImageVariants.kind, companyImageVariants.size],
      set: variant,
    });
}
