// The headers every answer carries: helmet's security headers, the request id, no-store. One
// synchronous onRequest hook sets them all.
//
// helmet decides the security headers (nosniff, framing, referrer and cross-origin policies, the
// CSP; HSTS only when this process serves TLS). Its middleware is built once and run once, at
// start, against a recording response: the headers depend on its options only (no directive of
// ours is a function of the request), so every answer gets the same list. @fastify/helmet, which
// wraps the same library, rebuilds the middleware (options parsed, CSP serialised) on every
// request in two hooks; measured on getUser, that was about 18 µs of CPU and an eighth of the
// service's own JavaScript per answer (docs/decisions.md, Performance).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet sets with these options, in its order. */
function helmetHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return [...headers];
}

export interface AnswerHeaderOptions {
  /** This process serves TLS itself: HSTS is added. */
  https: boolean;
}

export function installAnswerHeaders(app: FastifyInstance, opts: AnswerHeaderOptions): void {
  const security = helmetHeaders({
    hsts: opts.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Avatars and banners are embedded by <img> elements of other origins, and the API
    // authenticates by bearer header (no cookies): resources are not restricted to the same origin.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  // Images override Cache-Control in their handler; everything else is never cached.
  const fixed = Object.fromEntries([...security, ['Cache-Control', 'no-store']]);
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header('X-Request-Id', req.id);
    reply.headers(fixed);
    done();
  });
}
