// Request media of an operation, declared beside its body schema: JSON (the default), raw bodies
// (images, audio, CSV...) and multipart/form-data, each with its own size limit. A body of a type
// the operation does not declare is 415; a body over its limit is 413; an empty one 400: all in the
// error shape of document 1, before the handler runs. Bodies whose limit is above 10 MB, and those
// of media declared `stream: true`, are never held whole in memory: the handler receives a stream
// that fails with 413 past the limit.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { errorMessage, field } from '../shared/json-values.ts';
import multipart from '@fastify/multipart';
import { Transform, type Readable } from 'node:stream';
import type { TSchema } from 'typebox';
import { AppError, fail } from '../errors/catalogue.ts';

/** Above this limit a body is streamed to the handler, never buffered. */
export const STREAM_ABOVE_BYTES = 10 * 1024 * 1024;

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** Audio files of greetings and recordings (document 2): WAV, MP3 and Ogg, under their usual names. */
export const AUDIO_TYPES = [
  'audio/wav',
  'audio/x-wav',
  'audio/wave',
  'audio/vnd.wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
] as const;
export const CSV_TYPES = ['text/csv'] as const;

export interface RawMedia {
  /** Media types taken as the raw body, compared without their parameters (charset...). */
  types: readonly string[];
  /** Largest body in bytes (413 beyond). Above 10 MB the handler gets a stream. */
  maxBytes: number;
  /** The handler gets a stream whatever the limit (audio goes straight to storage, issue 26, point 9). */
  stream?: boolean;
  description?: string;
}

export interface MultipartMedia {
  /** The documented name of the file part; the first file part is taken whatever its name. */
  fileField: string;
  /** Largest file in bytes (413 beyond). Above 10 MB the handler gets a stream. */
  maxBytes: number;
  /** The handler gets a stream whatever the limit (audio goes straight to storage, issue 26, point 9). */
  stream?: boolean;
  /** Media types the file may have (documentation: the handler checks the content itself). */
  types?: readonly string[];
  description?: string;
}

export interface RequestMedia {
  /** The JSON body (the operation's `body` schema) and its limit (default BODY_LIMIT_BYTES); false: no JSON. */
  json?: { maxBytes?: number } | false;
  raw?: readonly RawMedia[];
  multipart?: MultipartMedia;
}

interface UploadBase {
  /** The declared media type of the body or file part, without parameters. Not a proof of content. */
  mediaType: string;
  /** The file name of a multipart file part. */
  fileName?: string;
  /** Text fields of a multipart body sent before the file. */
  fields: Record<string, string>;
}
/** A raw or multipart body: whole when its limit is at most 10 MB, else (or when declared `stream`) a stream. */
export type Upload =
  (UploadBase & { kind: 'buffer'; data: Buffer }) | (UploadBase & { kind: 'stream'; stream: Readable });

const JSON_TYPE = 'application/json';
const MULTIPART_TYPE = 'multipart/form-data';

/**
 * A media type as an error may show it: a well-formed `type/subtype` of reasonable length, else
 * null (an error answer never repeats arbitrary header text).
 */
export function shownType(type: string | undefined): string | null {
  return type && type.length <= 100 && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : null;
}

/** `Text/CSV; charset=utf-8` -> `text/csv`; undefined when absent. */
export function essence(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const t = contentType.split(';', 1)[0].trim().toLowerCase();
  return t === '' ? undefined : t;
}

interface RouteMedia {
  media: RequestMedia | undefined;
  /** Media types accepted, with their limits (JSON and form types included). */
  limits: Map<string, number>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's request media, set by routeMedia below. */
    media?: RouteMedia;
  }
}

/** Bodies above STREAM_ABOVE_BYTES or declared `stream`, left unread for the handler, by request. */
const pendingBodies = new WeakMap<FastifyRequest, Readable>();

function routeMedia(req: FastifyRequest): RouteMedia | undefined {
  return req.routeOptions.config.media;
}

function rawFor(media: RequestMedia | undefined, type: string): RawMedia | undefined {
  return media?.raw?.find((r) => r.types.includes(type));
}

/**
 * Reads `stream` to its end, refusing it (413) as soon as it passes `maxBytes`: memory stays
 * bounded. The rest is then read and dropped, not destroyed: destroying a request would close the
 * connection before the client gets its 413.
 */
export function readLimited(stream: Readable, maxBytes: number, mediaType: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Destroyed before it was read (a multipart part cut short as the form was parsed).
    if (stream.destroyed) return reject(stream.errored ?? new Error('the body ended before it was complete'));
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      stop();
      chunks.length = 0;
      stream.on('error', () => undefined).resume();
      reject(new AppError('BODY_TOO_LARGE', { maxBytes, mediaType }));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    // Destroyed without an error (a multipart part cut short): no 'end' will come.
    const onClose = () => onError(new Error('the body ended before it was complete'));
    stream.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

/** Passes `stream` through, failing with 413 once more than `maxBytes` went by. */
export function limitStream(stream: Readable, maxBytes: number, mediaType: string): Readable {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) done(new AppError('BODY_TOO_LARGE', { maxBytes, mediaType }));
      else done(null, chunk);
    },
  });
  stream.on('error', (err) => counter.destroy(err));
  return stream.pipe(counter);
}

/**
 * Plugins and parsers of request media, for the whole app: multipart through @fastify/multipart,
 * and one parser for every other type that reads it only for the routes that declare it.
 */
export async function installMedia(app: FastifyInstance): Promise<void> {
  // Limits are given per request (receiveUpload); these are the ceilings of a malformed form.
  await app.register(multipart, { limits: { fields: 20, fieldSize: 64 * 1024, parts: 30, headerPairs: 50 } });
  // Fastify's own text/plain parser would read such a body as a string before the route's raw
  // media sees it (an import's CSV sent as text/plain); routes that do not declare it refuse it in
  // preParsing (415), as any other type.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (req, payload, done) => {
    const route = routeMedia(req);
    const type = essence(req.headers['content-type']) ?? '';
    const raw = rawFor(route?.media, type);
    if (!raw)
      return done(
        new AppError('UNSUPPORTED_MEDIA_TYPE', {
          mediaType: shownType(type),
          accepted: route ? [...route.limits.keys()] : [],
        }),
        undefined,
      );
    if (raw.maxBytes > STREAM_ABOVE_BYTES || raw.stream) {
      // Read by the handler, after authorisation, through limitStream.
      pendingBodies.set(req, payload);
      return done(null, undefined);
    }
    readLimited(payload, raw.maxBytes, type).then(
      (data) => done(null, data),
      (err: Error) => done(err, undefined),
    );
  });
}

/**
 * The route options of a declaration's media: what Fastify validates (the JSON schema under its
 * content type only, so raw and multipart bodies are not matched against it), the JSON limit, and
 * a check of the declared type and length before anything is read.
 */
export function mediaRouteOptions(
  media: RequestMedia | undefined,
  body: TSchema | undefined,
  consumes: readonly string[] | undefined,
  defaultLimit: number,
): Pick<RouteOptions, 'config' | 'preParsing' | 'bodyLimit'> & { bodySchema?: unknown } {
  const limits = new Map<string, number>();
  const jsonLimit = media?.json === false ? undefined : (media?.json?.maxBytes ?? defaultLimit);
  if (jsonLimit !== undefined && (body || !media)) limits.set(JSON_TYPE, jsonLimit);
  for (const t of consumes ?? []) limits.set(essence(t)!, defaultLimit);
  for (const r of media?.raw ?? []) for (const t of r.types) limits.set(t, r.maxBytes);
  if (media?.multipart) limits.set(MULTIPART_TYPE, media.multipart.maxBytes + 64 * 1024);
  const route: RouteMedia = { media, limits };
  const checked = Boolean(body || media);
  return {
    config: { media: route },
    ...(jsonLimit !== undefined ? { bodyLimit: jsonLimit } : {}),
    ...(media && body && jsonLimit !== undefined ? { bodySchema: { content: { [JSON_TYPE]: { schema: body } } } } : {}),
    ...(checked
      ? {
          preParsing: async (req: FastifyRequest) => {
            const type = essence(req.headers['content-type']);
            const length = req.headers['content-length'];
            const hasBody =
              type !== undefined ||
              req.headers['transfer-encoding'] !== undefined ||
              (length !== undefined && length !== '0');
            if (!hasBody) return;
            const limit = type === undefined ? undefined : limits.get(type);
            if (limit === undefined)
              fail('UNSUPPORTED_MEDIA_TYPE', { mediaType: shownType(type), accepted: [...limits.keys()] });
            if (length !== undefined && Number(length) > limit)
              fail('BODY_TOO_LARGE', { maxBytes: limit, mediaType: shownType(type) });
          },
        }
      : {}),
  };
}

async function receiveMultipart(req: FastifyRequest, m: MultipartMedia): Promise<Upload | undefined> {
  const fields: Record<string, string> = {};
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    // One byte more than allowed lets the limit below tell "at the limit" from "past it".
    part = await req.file({ limits: { fileSize: m.maxBytes + 1, files: 1 }, throwFileSizeLimit: false });
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (field(err, 'statusCode') === 413) fail('BODY_TOO_LARGE', { maxBytes: m.maxBytes, mediaType: MULTIPART_TYPE });
    fail('MULTIPART_MALFORMED', { reason: errorMessage(err) });
  }
  if (!part) fail('MULTIPART_MALFORMED', { reason: `no file part (expected "${m.fileField}")` });
  for (const [name, value] of Object.entries(part.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field') fields[name] = String(v.value);
  }
  const base = {
    mediaType: essence(part.mimetype) ?? 'application/octet-stream',
    fileName: part.filename || undefined,
    fields,
  };
  // A malformed part is reported by busboy as an error of the file stream.
  const file = part.file.on('error', () => undefined);
  if (m.maxBytes > STREAM_ABOVE_BYTES || m.stream)
    return { ...base, kind: 'stream', stream: limitStream(file, m.maxBytes, base.mediaType) };
  try {
    const data = await readLimited(file, m.maxBytes, base.mediaType);
    if (data.length === 0)
      fail('EMPTY_BODY', { mediaType: shownType(base.mediaType), part: part.fieldname.slice(0, 64) });
    return { ...base, kind: 'buffer', data };
  } catch (err) {
    if (err instanceof AppError) throw err;
    fail('MULTIPART_MALFORMED', { reason: errorMessage(err) });
  }
}

/**
 * The raw or multipart body of a request to an operation that declares media, after its caller is
 * authorised; undefined for a JSON body (input.body holds it). Empty bodies are refused (400).
 */
export async function receiveUpload(req: FastifyRequest, media: RequestMedia): Promise<Upload | undefined> {
  const type = essence(req.headers['content-type']);
  if (type === MULTIPART_TYPE && media.multipart) return receiveMultipart(req, media.multipart);
  const raw = type === undefined ? undefined : rawFor(media, type);
  if (!raw) {
    // No body at all to an operation that takes only raw or multipart bodies.
    if (req.body === undefined && (media.json === false || type === undefined))
      fail('EMPTY_BODY', { accepted: acceptedTypes(media) });
    return undefined;
  }
  const pending = pendingBodies.get(req);
  if (pending)
    return { kind: 'stream', mediaType: type!, fields: {}, stream: limitStream(pending, raw.maxBytes, type!) };
  const data = req.body;
  if (!Buffer.isBuffer(data) || data.length === 0) fail('EMPTY_BODY', { mediaType: type });
  return { kind: 'buffer', mediaType: type!, fields: {}, data };
}

/** The bytes of an upload whose declared limit is at most 10 MB (never a stream). */
export function uploadBytes(upload: Upload): Buffer {
  if (upload.kind !== 'buffer')
    throw new Error('uploadBytes: a streamed upload (limit above 10 MB) is read as a stream');
  return upload.data;
}

function acceptedTypes(media: RequestMedia): string[] {
  return [
    ...(media.json === false ? [] : [JSON_TYPE]),
    ...(media.raw ?? []).flatMap((r) => r.types),
    ...(media.multipart ? [MULTIPART_TYPE] : []),
  ];
}

/** A route's schema as the OpenAPI document shows it: its body under every declared media type. */
export function documentMedia(schema: FastifySchema, config: FastifyContextConfig | undefined): FastifySchema {
  const media = config?.media?.media;
  if (!media) return schema;
  const json = field(field(field(schema.body, 'content'), JSON_TYPE), 'schema');
  return { ...schema, body: documentRequestBody(media, json) };
}

/** The request body of the OpenAPI document: every declared media type with its schema and limit. */
function documentRequestBody(media: RequestMedia, body: unknown): Record<string, unknown> {
  const mb = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MB`;
  const content: Record<string, unknown> = {};
  if (media.json !== false && body) content[JSON_TYPE] = { schema: body };
  for (const r of media.raw ?? []) {
    for (const t of r.types) {
      content[t] = {
        schema: {
          type: 'string',
          format: 'binary',
          description: [
            r.description,
            `at most ${mb(r.maxBytes)}${r.maxBytes > STREAM_ABOVE_BYTES || r.stream ? ', streamed' : ''}`,
          ]
            .filter(Boolean)
            .join('; '),
        },
      };
    }
  }
  const m = media.multipart;
  if (m) {
    content[MULTIPART_TYPE] = {
      schema: {
        type: 'object',
        required: [m.fileField],
        properties: {
          [m.fileField]: {
            type: 'string',
            format: 'binary',
            description: [
              m.description,
              m.types ? `one of ${m.types.join(', ')}` : undefined,
              `at most ${mb(m.maxBytes)}`,
            ]
              .filter(Boolean)
              .join('; '),
          },
        },
      },
    };
  }
  return { content };
}
