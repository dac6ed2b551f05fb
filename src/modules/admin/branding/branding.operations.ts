// Document 3, Avatar and banner: set and delete (company administrators), and the images
// themselves, served outside /api/svc at /api/avatar/{companyId} and /api/banner/{companyId}.
import { Type } from 'typebox';
import { defineOperation, type AnyOperation } from '../../../http/operation.ts';
import { Id, Obj } from '../../../http/schemas.ts';
import { IMAGE_TYPES, STREAM_ABOVE_BYTES, uploadBytes, type RequestMedia } from '../../../http/media.ts';
import { Binary } from '../../../http/binary.ts';
import { AVATAR_MAX_SIZE, DEFAULT_IMAGE_SIZE, IMAGE_LIMITS, type ImageKind } from './branding.images.ts';
import * as service from './branding.service.ts';

const tag = 'Companies';
const P = '/admin/v1.0/companies/:companyId';

const CompanyIdParams = Obj({ companyId: Id('company id') });

const mb = (bytes: number) => `${bytes / (1024 * 1024)} MB`;

const ImageBody = (kind: ImageKind) =>
  Obj({
    image: Type.String({
      minLength: 1,
      description: `the ${kind} file, base64-encoded (a \`data:image/...;base64,\` prefix is accepted): PNG, JPEG or WebP, checked from its content; at most ${mb(IMAGE_LIMITS[kind].maxBytes)} and ${IMAGE_LIMITS[kind].maxWidth}x${IMAGE_LIMITS[kind].maxHeight} pixels`,
    }),
  });

// The upload: JSON {image: base64}, the raw image bytes (Content-Type image/png, image/jpeg or
// image/webp), or a multipart/form-data form with the file (browsers' file inputs). The content is
// checked, never the declared type. A base64 JSON body is a third larger than its image; JSON is
// always read whole, so it stays at or under 10 MB (the largest banners go as raw bytes or forms).
const uploadMedia = (kind: ImageKind): RequestMedia => {
  const maxBytes = IMAGE_LIMITS[kind].maxBytes;
  const description = `PNG, JPEG or WebP, checked from its content; at most ${IMAGE_LIMITS[kind].maxWidth}x${IMAGE_LIMITS[kind].maxHeight} pixels`;
  return {
    json: { maxBytes: Math.min(STREAM_ABOVE_BYTES, Math.ceil((maxBytes * 4) / 3) * 1.5) },
    raw: [{ types: IMAGE_TYPES, maxBytes, description }],
    multipart: { fileField: 'file', types: IMAGE_TYPES, maxBytes, description },
  };
};

const Empty = Type.Array(Type.Never());

const ImageFile = Binary({
  types: IMAGE_TYPES,
  description: 'the image, in the format of the uploaded original',
  conditional: true,
  headers: {
    'Dims-cached':
      '`true` when this request computed nothing (served from the stored variants, from the cache of other sizes, or from a computation another request had started), `false` when this request computed the image',
    Date: 'the time of the answer',
  },
});

const ERRORS_SET = [
  'IMAGE_DIMENSIONS_TOO_LARGE',
  'IMAGE_FORMAT_UNSUPPORTED',
  'IMAGE_TOO_LARGE',
  'SYSTEM_COMPANY_IMAGE',
] as const;

function setOp(operationId: string, kind: ImageKind) {
  return defineOperation({
    operationId,
    errors: ERRORS_SET,
    method: 'POST',
    path: `${P}/${kind}`,
    tag,
    summary: `Set the ${kind} of a company`,
    description: `Sets lastAvatarUpdateDate / lastBannerUpdateDate to now. Only a superadmin handles the ${kind} of the Default and Terminated companies (403).`,
    params: CompanyIdParams,
    body: ImageBody(kind),
    media: uploadMedia(kind),
    response: Empty,
    envelope: 'status',
    successStatus: 200,
    target: { kind: 'company', from: 'params', field: 'companyId' },
    // The image is decoded and checked before the transaction opens (docs/decisions.md, Bounds of images,
    // sessions and client authentication), and its bytes staged in chunks that the handler publishes.
    prepare: (ctx, { body, upload }) =>
      service.prepareImage(
        ctx.db,
        ctx.caller,
        ctx.target,
        kind,
        upload ? uploadBytes(upload) : body.image,
        ctx.deps.config.imageConcurrency,
        ctx.now,
      ),
    handler: (ctx, { prepared }) => service.storeImage(ctx.db, ctx.target, kind, prepared, ctx.now),
  });
}

function deleteOp(operationId: string, kind: ImageKind) {
  return defineOperation({
    operationId,
    errors: ['SYSTEM_COMPANY_IMAGE'],
    method: 'DELETE',
    path: `${P}/${kind}`,
    tag,
    summary: `Delete the ${kind} of a company (and its resized variants)`,
    params: CompanyIdParams,
    response: Empty,
    envelope: 'status',
    target: { kind: 'company', from: 'params', field: 'companyId' },
    handler: (ctx) => service.deleteImage(ctx.db, ctx.caller, ctx.target, kind, ctx.now),
  });
}

function getOp(operationId: string, kind: ImageKind) {
  const size =
    kind === 'avatar'
      ? Type.Integer({
          minimum: 1,
          maximum: AVATAR_MAX_SIZE,
          default: DEFAULT_IMAGE_SIZE,
          description: `side of the square in pixels, 1 to ${AVATAR_MAX_SIZE}, default ${DEFAULT_IMAGE_SIZE}; the answer is exactly that size`,
        })
      : Type.Integer({
          minimum: 1,
          maximum: 100000,
          default: DEFAULT_IMAGE_SIZE,
          description: `width in pixels, default ${DEFAULT_IMAGE_SIZE}, the height keeping the original's aspect; the answer is exactly that width, or the original width when asked above it`,
        });
  return defineOperation({
    operationId,
    errors: ['IMAGE_NOT_SET', 'NOT_FOUND'],
    method: 'GET',
    path: `/api/${kind}/:companyId`,
    tag,
    summary: `Get the ${kind} of a company, resized`,
    description:
      'Conditional GET: an If-Modified-Since not older than the image gives 304. 404 when the company has none.',
    params: CompanyIdParams,
    query: Obj({ size: Type.Optional(size) }),
    response: ImageFile,
    envelope: 'binary',
    handler: (ctx, { params, query }) =>
      service.serveImage(ctx.db, ctx.req, params.companyId, kind, query.size ?? DEFAULT_IMAGE_SIZE, ctx.now, {
        concurrency: ctx.deps.config.imageConcurrency,
        cacheBytes: ctx.deps.config.imageSizeCacheBytes,
      }),
  });
}

export const brandingOperations: AnyOperation[] = [
  setOp('setCompanyAvatar', 'avatar'),
  deleteOp('deleteCompanyAvatar', 'avatar'),
  setOp('setCompanyBanner', 'banner'),
  deleteOp('deleteCompanyBanner', 'banner'),
  getOp('getCompanyAvatar', 'avatar'),
  getOp('getCompanyBanner', 'banner'),
];
