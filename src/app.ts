// buildApp(deps): the Fastify instance that main.ts serves and that tests call in process.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import type { AppDeps } from './http/context.ts';
import { frameworkError, installErrorHandling } from './errors/handler.ts';
import { registerAll } from './http/operation.ts';
import { installIdempotency } from './http/idempotency.ts';
import { installEmptyObjectRule } from './http/empty-objects.ts';
import { installOpenApi } from './http/openapi.ts';
import { installMedia } from './http/media.ts';
import { MODULES, OPERATIONS } from './modules/index.ts';

// Credentials travel in these headers; they never reach a log line.
const REDACT = ['req.headers.authorization', 'req.headers["x-svc-app-auth"]', 'req.headers.apikey', 'req.headers.cookie'];

export interface BuildOptions {
  /** pino options (level, stream...); false or absent: no logging. Redaction is always added. */
  logger?: false | (Record<string, unknown> & { level?: string });
  https?: { cert: Buffer; key: Buffer };
}

export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? ({ ...opts.logger, redact: REDACT } as FastifyServerOptions['logger']) : false,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    ...(opts.https ? { https: opts.https } : {}),
    // Reject ambiguous input early instead of guessing; query numbers arrive as strings and are
    // coerced by the schemas (clients of the original interface send numbers as strings).
    ajv: { customOptions: { removeAdditional: true, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    routerOptions: { maxParamLength: 500 },
    // Errors Fastify raises before routing answer in the error body of document 1 too.
    frameworkErrors: frameworkError,
  }) as unknown as FastifyInstance;

  installErrorHandling(app);
  await app.register(formbody);
  // Raw and multipart bodies, read only for the operations that declare them (src/http/media.ts).
  await installMedia(app);
  await installOpenApi(app);
  installIdempotency(app, deps);
  // Route table, conventions: an empty nested object in a PUT changes nothing (before the routes: it hooks onRoute).
  installEmptyObjectRule(app);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', 'no-store');
    if (opts.https) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  });
  for (const m of MODULES) m.hooks?.(app, deps);

  registerAll(app, deps, OPERATIONS);
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  await app.ready();
  return app;
}
