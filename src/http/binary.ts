// Binary answers declared in the operation (PDF, audio, CSV, images): the handler returns the
// bytes (or a way to open them) with their media type and file name; this file writes
// Content-Type, Content-Disposition, Content-Length, conditional GET (Last-Modified /
// If-Modified-Since) and, where declared, byte ranges (206, 416, Accept-Ranges: bytes). The same
// declaration writes the OpenAPI responses under the media types, not under application/json.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { create as contentDisposition } from 'content-disposition';
import parseRange from 'range-parser';
import { Type, type TSchema, type TUnsafe } from 'typebox';
import { fail } from '../errors/catalogue.ts';
import { isOneOf, isRecord } from '../shared/json-values.ts';

export interface BinaryDecl {
  /** Media types the answer may have. */
  types: readonly string[];
  description: string;
  /** Serve byte ranges (audio: players seek with them). */
  ranges?: boolean;
  /** The answer carries Last-Modified and honours If-Modified-Since (304). */
  conditional?: boolean;
  /** Further headers of the answer, documented: name -> description. */
  headers?: Record<string, string>;
}

/** What a handler of a binary operation returns. */
export interface BinaryAnswer {
  mediaType: string;
  /** Named in Content-Disposition (non-ASCII names are sent as filename*). */
  fileName?: string;
  /** Default: inline. */
  disposition?: 'inline' | 'attachment';
  /** The bytes, or their size and a way to read a range of them (large files, never held whole). */
  body: Buffer | { size: number; open: (start: number, end: number) => Readable };
  lastModified?: Date;
  headers?: Record<string, string>;
}

const kBinary = 'x-svc-binary';

/** The response schema of a binary operation: its declaration, typed as what the handler returns. */
export function Binary(decl: BinaryDecl): TUnsafe<BinaryAnswer> {
  return Type.Unsafe<BinaryAnswer>({
    type: 'string',
    format: 'binary',
    description: decl.description,
    [kBinary]: decl,
  });
}

const isTextRecord = (v: unknown): v is Record<string, string> =>
  isRecord(v) && Object.values(v).every((x) => typeof x === 'string');

const optional = <T>(v: unknown, is: (x: unknown) => x is T): v is T | undefined => v === undefined || is(v);
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isText = (v: unknown): v is string => typeof v === 'string';
const isDate = (v: unknown): v is Date => v instanceof Date;

function isBinaryDecl(v: unknown): v is BinaryDecl {
  return (
    isRecord(v) &&
    Array.isArray(v.types) &&
    v.types.every(isText) &&
    typeof v.description === 'string' &&
    optional(v.ranges, isBoolean) &&
    optional(v.conditional, isBoolean) &&
    optional(v.headers, isTextRecord)
  );
}

/** Whether a handler's result is a binary answer (its bytes, or their size and a way to read them). */
export function isBinaryAnswer(v: unknown): v is BinaryAnswer {
  if (!isRecord(v)) return false;
  const body = v.body;
  return (
    typeof v.mediaType === 'string' &&
    optional(v.fileName, isText) &&
    (v.disposition === undefined || isOneOf(['inline', 'attachment'], v.disposition)) &&
    (Buffer.isBuffer(body) || (isRecord(body) && typeof body.size === 'number' && typeof body.open === 'function')) &&
    optional(v.lastModified, isDate) &&
    optional(v.headers, isTextRecord)
  );
}

export function binaryDecl(schema: TSchema): BinaryDecl {
  const decl = isRecord(schema) ? schema[kBinary] : undefined;
  if (!isBinaryDecl(decl)) throw new Error('a binary operation declares its response with Binary(...)');
  return decl;
}

const header = (type: string, description: string) => ({ type, description });

/** The success answers of a binary operation for Fastify and the OpenAPI document. */
export function binaryResponses(decl: BinaryDecl): Record<number, unknown> {
  const content = Object.fromEntries(decl.types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]));
  const headers: Record<string, unknown> = {
    'Content-Length': header('integer', 'size of the body in bytes'),
    'Content-Disposition': header('string', 'inline or attachment, with the file name when there is one'),
    ...(decl.ranges ? { 'Accept-Ranges': header('string', '`bytes`: a Range header is honoured') } : {}),
    ...(decl.conditional
      ? { 'Last-Modified': header('string', 'date of the content; If-Modified-Since not older gives 304') }
      : {}),
    ...Object.fromEntries(Object.entries(decl.headers ?? {}).map(([k, d]) => [k, header('string', d)])),
  };
  const out: Record<number, unknown> = { 200: { description: decl.description, headers, content } };
  if (decl.ranges) {
    out[206] = {
      description: 'the requested byte range',
      headers: { ...headers, 'Content-Range': header('string', '`bytes start-end/size`') },
      content,
    };
    out[416] = Type.Ref('Error');
  }
  if (decl.conditional) out[304] = { description: 'Not Modified: the copy of the client is current', type: 'null' };
  return out;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** If-Modified-Since is not older than `lastModified` (HTTP dates have whole seconds). */
export function notModified(req: FastifyRequest, lastModified: Date): boolean {
  const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
  return !Number.isNaN(since) && seconds(lastModified) <= Math.floor(since / 1000);
}

/** Writes a binary answer: headers, conditional GET, byte ranges, then the bytes. */
export function sendBinary(
  req: FastifyRequest,
  reply: FastifyReply,
  decl: BinaryDecl,
  answer: BinaryAnswer,
): FastifyReply {
  if (!decl.types.includes(answer.mediaType))
    throw new Error(`answer of type ${answer.mediaType} not declared (${decl.types.join(', ')})`);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.lastModified) {
    reply.header('Last-Modified', answer.lastModified.toUTCString());
    if (notModified(req, answer.lastModified)) return reply.code(304).send();
  }
  const disposition = answer.fileName
    ? contentDisposition(answer.fileName, { type: answer.disposition ?? 'inline' })
    : (answer.disposition ?? 'inline');
  reply.type(answer.mediaType).header('Content-Disposition', disposition);
  const size = Buffer.isBuffer(answer.body) ? answer.body.length : answer.body.size;

  let start = 0;
  let end = size - 1;
  let status = 200;
  if (decl.ranges) {
    reply.header('Accept-Ranges', 'bytes');
    const asked = req.headers.range;
    if (typeof asked === 'string' && (req.method === 'GET' || req.method === 'HEAD')) {
      const ranges = parseRange(size, asked, { combine: true });
      if (ranges === -1) fail('RANGE_NOT_SATISFIABLE', { range: asked, size }, { 'Content-Range': `bytes */${size}` });
      // A malformed header (-2) or several disjoint ranges: the whole file, which RFC 9110 allows.
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
        start = ranges[0].start;
        end = ranges[0].end;
        status = 206;
        reply.header('Content-Range', `bytes ${start}-${end}/${size}`);
      }
    }
  }
  reply.code(status).header('Content-Length', String(size === 0 ? 0 : end - start + 1));
  if (Buffer.isBuffer(answer.body))
    return reply.send(status === 206 ? answer.body.subarray(start, end + 1) : answer.body);
  return reply.send(size === 0 ? Buffer.alloc(0) : answer.body.open(start, end));
}
