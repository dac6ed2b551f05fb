// buildApp(deps): the Fastify instance that main.ts serves and that tests call in process.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { AppDeps } from './http/context.ts';
import { clientError, frameworkError, installErrorHandling, installRouteNotFound } from './errors/handler.ts';
import { registerAll } from './http/operation.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installEmptyObjectRule } from './http/empty-objects.ts';
import { lazySerializerFactory, lazyValidatorFactory } from './http/lazy-compilers.ts';
import { installOpenApi } from './http/openapi.ts';
import { installMedia } from './http/media.ts';
import { installJsonParser } from './http/json-body.ts';
import { MODULES, OPERATIONS } from './modules/index.ts';
import { installHealth, requestId } from './http/health.ts';
import { installAnswerHeaders } from './http/security-headers.ts';
import { installConsole } from './http/console.ts';
import { installRequestLimit } from './http/request-limit.ts';
import { installMetrics } from './http/metrics.ts';
import { AJV_OPTIONS } from './http/input.ts';
import { installRequestLog } from './http/request-log.ts';

export interface BuildOptions {
  /**
   * pino options (level, stream...); false or absent: no logging. No line holds a request's
   * headers: Fastify's `req` serializer writes its method, URL and addresses only, and the one line
   * per request names them alone (src/http/request-log.ts), so credentials, which travel in headers,
   * never reach a log (test/auth/secrets-in-logs.test.ts, at the trace level). pino's `redact` of
   * the header paths, which had guarded the same, cost every line a walk of those paths.
   */
  logger?: false | (Record<string, unknown> & { level?: string });
  https?: { cert: Buffer; key: Buffer };
}

export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // A slow sender cannot hold a connection for ever (Fastify's default is no limit). Node checks
  // the deadlines every connectionsCheckingInterval, here a tenth of the limit, at most 30 s (Node's
  // own), and enforces requestTimeout on a body only when headersTimeout is not above it.
  const timeoutMs = deps.config.requestTimeoutSeconds * 1000;
  const server =
    timeoutMs > 0
      ? { connectionsCheckingInterval: Math.min(30_000, timeoutMs / 10), headersTimeout: Math.min(60_000, timeoutMs) }
      : {};
  const app = Fastify({
    logger: opts.logger || false,
    // One line per request instead of Fastify's two (src/http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    ...(opts.https ? { https: { ...opts.https, ...server } } : { http: server }),
    // Reject ambiguous input early instead of guessing. Numbers and booleans sent as strings (query
    // strings always, clients of the original interface in bodies too) are coerced without loss
    // before Ajv runs (src/http/coerce.ts, from the validators of src/http/lazy-compilers.ts);
    // Ajv's own coercion would turn null into "" or false and ["x"] into "x".
    // (The same options serve a job that runs an operation's command: src/http/input.ts.)
    ajv: AJV_OPTIONS,
    routerOptions: { maxParamLength: 500 },
    // Errors Fastify raises before routing, and those of Node's HTTP parser (malformed requests,
    // headers over 16 KB, timeouts), answer in the error body of document 1 too; so does a request
    // arriving while the instance shuts down (src/errors/handler.ts, instead of Fastify's own 503).
    frameworkErrors: (err, req, reply) => {
      frameworkError(err, req, reply);
    },
    clientErrorHandler: clientError,
    return503OnClosing: false,
    requestTimeout: timeoutMs,
    // X-Request-Id: kept when well formed, made otherwise (src/http/health.ts).
    genReqId: requestId,
    requestIdHeader: false,
    // Validators and serializers compile on first use of their route: a faster start.
    schemaController: {
      compilersFactory: { buildValidator: lazyValidatorFactory(), buildSerializer: lazySerializerFactory() },
    },
  });

  installErrorHandling(app);
  installRequestLog(app);
  // Before the other hooks: every answer carries its request id, helmet's security headers and
  // no-store (src/http/security-headers.ts), and is counted.
  installAnswerHeaders(app, { https: Boolean(opts.https) });
  // An unknown route is 404 before its body is read (src/errors/handler.ts).
  installRouteNotFound(app);
  installHealth(app, deps);
  installMetrics(app, deps);
  // The general limit, per caller or, without a valid token, per address (src/http/request-limit.ts).
  await installRequestLimit(app, deps);
  await app.register(formbody);
  // JSON bodies: bounded depth and member counts before they are parsed (docs/security.md, Input: no request
  // breaks it).
  installJsonParser(app);
  // Raw and multipart bodies, read only for the operations that declare them (src/http/media.ts).
  await installMedia(app);
  await installOpenApi(app);
  // The web console's files at /console (issue 28): not operations, hidden from the OpenAPI document.
  await installConsole(app);
  installIdempotency(app, deps);
  // Route table, conventions: an empty nested object in a PUT changes nothing (before the routes: it hooks onRoute).
  installEmptyObjectRule(app);

  for (const m of MODULES) m.hooks?.(app, deps);

  registerAll(app, deps, OPERATIONS);
  await app.ready();
  return app;
}
