// One handler turns every failure into the error body of document 1: thrown AppErrors,
// schema validation, malformed JSON, oversized bodies, database constraint violations, and the
// errors Fastify raises itself (bad URL encoding, overlong parameters, a body that does not match
// its Content-Length). errorDetails is always an object, as document 1 gives it.
// Anything unexpected is logged with its stack and answered as a bare 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorBody, type ErrorKey } from './catalogue.ts';

interface PgLikeError {
  code?: string;
  constraint?: string;
  cause?: unknown;
}

function pgError(err: unknown): PgLikeError | undefined {
  // Drizzle wraps driver errors; the SQLSTATE sits on the error or its cause.
  for (let e: unknown = err, depth = 0; e && depth < 3; e = (e as PgLikeError).cause, depth++) {
    const code = (e as PgLikeError).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as PgLikeError;
  }
  return undefined;
}

function classify(err: unknown): { key: ErrorKey; details?: Record<string, unknown>; headers?: Record<string, string> } {
  if (err instanceof AppError) return { key: err.key, details: err.details, headers: err.headers };
  const fe = err as FastifyError;
  if (fe.validation) {
    return {
      key: 'VALIDATION_FAILED',
      details: {
        context: fe.validationContext,
        errors: fe.validation.map((v) => ({ path: v.instancePath || '/', message: v.message, params: v.params })),
      },
    };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { key: 'MALFORMED_JSON' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { key: 'BODY_TOO_LARGE' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { key: 'UNSUPPORTED_MEDIA_TYPE' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { key: 'VALIDATION_FAILED', details: { context: 'headers', reason: 'the body size does not match Content-Length' } };
  }
  if (fe instanceof SyntaxError && (fe as { statusCode?: number }).statusCode === 400) return { key: 'MALFORMED_JSON' };
  const pgErr = pgError(err);
  if (pgErr) {
    // 23505 unique, 23503 foreign key, 22xxx data exceptions (bad input that passed the schema).
    if (pgErr.code === '23505') return { key: 'CONFLICT', details: { constraint: pgErr.constraint } };
    if (pgErr.code === '23503') return { key: 'UNKNOWN_REFERENCE', details: { constraint: pgErr.constraint } };
    if (pgErr.code?.startsWith('22')) return { key: 'VALIDATION_FAILED', details: { context: 'body', reason: 'a value is out of range or not valid for its field' } };
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own client errors (FST_ERR_BAD_URL, FST_ERR_MAX_PARAM_LENGTH...): their code and
    // message say what was wrong; no stack, no internals.
    return { key: fe.statusCode === 413 ? 'BODY_TOO_LARGE' : 'VALIDATION_FAILED', details: { code: fe.code, reason: fe.message } };
  }
  return { key: 'INTERNAL' };
}

export function sendError(reply: FastifyReply, err: unknown, req: FastifyRequest): FastifyReply {
  const { key, details, headers } = classify(err);
  const body = errorBody(key, details);
  if (body.errorCode >= 500) req.log.error({ err }, 'unhandled error');
  if (headers) reply.headers(headers);
  return reply.code(body.errorCode).type('application/json; charset=utf-8').send(body);
}

/**
 * For Fastify's `frameworkErrors` option: errors raised before routing (a URL whose percent
 * encoding is broken, a parameter beyond maxParamLength) bypass the error handler otherwise and
 * would be answered in Fastify's own shape. The onRequest hooks have not run: the headers every
 * answer carries are set here.
 */
export function frameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Cache-Control', 'no-store');
  return sendError(reply, err, req);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, req, reply) => sendError(reply, err, req));
  app.setNotFoundHandler((req, reply) => sendError(reply, new AppError('ROUTE_NOT_FOUND', { method: req.method, url: req.url.split('?')[0] }), req));
}
