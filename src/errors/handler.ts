// One handler turns every failure into the error body of document 1: thrown AppErrors,
// schema validation, malformed JSON, oversized bodies, database constraint violations, the
// errors Fastify raises itself (bad URL encoding, overlong parameters, a body that does not match
// its Content-Length), the ones Node's HTTP parser raises before Fastify sees a request (malformed
// requests, headers over 16 KB, timeouts) and the answer of an instance shutting down.
// errorDetails is always an object, as document 1 gives it, and never repeats the request's URL,
// headers or body (docs/security.md, Input: no request breaks it). Anything unexpected is logged with its
// stack and answered as a bare 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nodeHttp } from '../shared/node-http.ts';
import type { Socket } from 'node:net';
import { AppError, errorBody, type ErrorBody, type ErrorKey } from './catalogue.ts';
import { field } from '../shared/json-values.ts';

interface PgLikeError {
  code: string;
  constraint: unknown;
}

function pgError(err: unknown): PgLikeError | undefined {
  // Drizzle wraps driver errors; the SQLSTATE sits on the error or its cause.
  for (let e: unknown = err, depth = 0; e && depth < 3; e = field(e, 'cause'), depth++) {
    const code = field(e, 'code');
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, constraint: field(e, 'constraint') };
  }
  return undefined;
}

function classify(err: unknown): {
  key: ErrorKey;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
} {
  if (err instanceof AppError) return { key: err.key, details: err.details, headers: err.headers };
  // Fastify's errors (FastifyError) and the schema's (its `validation`), read without asserting their shape.
  const validation = field(err, 'validation');
  if (Array.isArray(validation)) {
    return {
      key: 'VALIDATION_FAILED',
      details: {
        context: field(err, 'validationContext'),
        errors: validation.map((v) => ({
          path: field(v, 'instancePath') || '/',
          message: field(v, 'message'),
          params: field(v, 'params'),
        })),
      },
    };
  }
  const code = field(err, 'code');
  switch (code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { key: 'MALFORMED_JSON' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { key: 'BODY_TOO_LARGE' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { key: 'UNSUPPORTED_MEDIA_TYPE' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        key: 'VALIDATION_FAILED',
        details: { context: 'headers', reason: 'the body size does not match Content-Length' },
      };
    // Fastify's messages of these two quote the URL: only the code goes out.
    case 'FST_ERR_BAD_URL':
      return { key: 'BAD_URL', details: { code } };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return { key: 'URI_TOO_LONG', details: { code } };
  }
  const statusCode = field(err, 'statusCode');
  if (err instanceof SyntaxError && statusCode === 400) return { key: 'MALFORMED_JSON' };
  const pgErr = pgError(err);
  if (pgErr) {
    // 23505 unique, 23503 foreign key, 22xxx data exceptions (bad input that passed the schema).
    if (pgErr.code === '23505') return { key: 'CONFLICT', details: { constraint: pgErr.constraint } };
    if (pgErr.code === '23503') return { key: 'UNKNOWN_REFERENCE', details: { constraint: pgErr.constraint } };
    // (A value of the body, the query or the path: the database does not say which.)
    if (pgErr.code.startsWith('22'))
      return { key: 'VALIDATION_FAILED', details: { reason: 'a value is out of range or not valid for its field' } };
  }
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    // Fastify's other client errors: their code says what was wrong. Their messages may quote the
    // input (a media type, a URL), so they stay out; no stack, no internals.
    return { key: statusCode === 413 ? 'BODY_TOO_LARGE' : 'VALIDATION_FAILED', details: { code } };
  }
  return { key: 'INTERNAL' };
}

/**
 * The error body a failure gives: what an HTTP answer carries, and what a job that runs an
 * operation's command for a caller (an import's line) records, so both say the same.
 */
export function errorOutcome(err: unknown): ErrorBody {
  const { key, details } = classify(err);
  return errorBody(key, details);
}

export function sendError(reply: FastifyReply, err: unknown, req: FastifyRequest): FastifyReply {
  const { key, details, headers } = classify(err);
  const body = errorBody(key, details);
  if (body.errorCode >= 500 && key !== 'SHUTTING_DOWN') req.log.error({ err }, 'unhandled error');
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
  reply.header('X-Request-Id', req.id);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Cache-Control', 'no-store');
  return sendError(reply, err, req);
}

/**
 * For Fastify's `clientErrorHandler` option (the HTTP server's `clientError` event): a request
 * Node's parser refuses before Fastify sees it. Answered on the socket in the error body of
 * document 1, then the connection is closed, as Node and Fastify do by default.
 */
export function clientError(err: Error & { code?: string }, socket: Socket): void {
  // A reset connection, or one already gone: there is no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const key: ErrorKey =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? 'HEADERS_TOO_LARGE'
        : 'MALFORMED_REQUEST';
  const body = JSON.stringify(errorBody(key));
  const status = errorBody(key).errorCode;
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${nodeHttp.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * While the instance drains (app.close(): the server takes no new connection, requests in flight
 * finish), a request arriving on a kept-alive connection gets 503 in the error body of document 1,
 * with `Connection: close`, so the client or the load balancer retries elsewhere. Replaces
 * Fastify's own 503 (`return503OnClosing`), whose body is its own; installed first, so no other
 * hook runs for such a request.
 */
function installDraining(app: FastifyInstance): void {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  // Callback style: a hook that returns a promise costs every request a turn of the microtask queue.
  app.addHook('onRequest', (req, reply, done) => {
    if (!draining) return done();
    reply
      .header('Connection', 'close')
      .header('Retry-After', '1')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-store');
    sendError(reply, new AppError('SHUTTING_DOWN'), req);
  });
}

export function installErrorHandling(app: FastifyInstance): void {
  installDraining(app);
  app.setErrorHandler((err, req, reply) => sendError(reply, err, req));
}

/** 404 404001, naming the method only: the path is the client's own input, and may be long. */
function routeNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, new AppError('ROUTE_NOT_FOUND', { method: req.method }), req);
}

/**
 * A request to a route the service does not serve (no such path, or not with this method) answers
 * 404 Route not found whatever its body, so a client that posts to a wrong URL learns that the URL
 * is wrong: Fastify runs the body parsers before the not-found handler, which made a CSV body 415,
 * a malformed JSON one 400 and a large one 413. Answered from an onRequest hook instead, before the
 * body is read: nothing of it is held (Node reads and drops the rest after the answer). Installed
 * after the headers every answer carries and before any other check (an APIKey, the request limit).
 */
export function installRouteNotFound(app: FastifyInstance): void {
  // Callback style: a hook that returns a promise costs every request a turn of the microtask queue.
  app.addHook('onRequest', (req, reply, done) => {
    if (!req.is404) return done();
    routeNotFound(req, reply);
  });
  // Fastify's own not-found answer, replaced for any way it could still be reached.
  app.setNotFoundHandler(routeNotFound);
}
