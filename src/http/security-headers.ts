// The headers every answer carries: security headers, the request id, no-store. One synchronous
// onRequest hook sets them all.
//
// helmet decides the security headers. Its middleware is built once and run once, at start,
// against a recording response: the headers depend on its options only (no directive of ours is a
// function of the request), so every answer gets the same list. @fastify/helmet, which wraps the
// same library, rebuilds the middleware (options parsed, CSP serialised) on every request in two
// hooks; measured on getUser, that was about 18 µs of CPU and an eighth of the service's own
// JavaScript per answer (docs/decisions.md, Performance).
//
// Two sets. The API's answers (JSON, PDF, CSV, images) take the headers OWASP's REST Security
// Cheat Sheet asks of every API response: nosniff, framing refused (CSP frame-ancestors and
// X-Frame-Options), no-store, HSTS over TLS; with `default-src 'none'`, nothing a browser might
// render from them runs or loads. The HTML pages of the API's documentation take helmet's full
// set for pages (referrer, cross-origin and DNS-prefetch policies, a CSP that lets the page run).
// Each header costs every answer: the page-only ones on JSON cost getSite about 4 % of its
// requests a second (docs/decisions.md, Security headers).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { nodeHttp } from '../shared/node-http.ts';
import { Socket } from 'node:net';
import { errorMessage } from '../shared/json-values.ts';

/** The headers helmet sets with these options, in its order (names in lower case: recorded on a response never sent). */
function helmetHeaders(options: Readonly<HelmetOptions>): [string, string][] {
  const req = new nodeHttp.IncomingMessage(new Socket());
  const res = new nodeHttp.ServerResponse(req);
  let failure: unknown;
  helmet(options)(req, res, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(errorMessage(failure));
  return res.getHeaderNames().map((name) => [name, String(res.getHeader(name))]);
}

export interface AnswerHeaderOptions {
  /** This process serves TLS itself: HSTS is added. */
  https: boolean;
}

/** The pages of the API's documentation (swagger-ui, src/http/openapi.ts): HTML. */
export const PAGES_PREFIX = '/api/svc/docs';

/** The web console (src/http/console.ts): an application of its own, loaded from this origin only. */
export const CONSOLE_PREFIX = '/console';

export function installAnswerHeaders(app: FastifyInstance, opts: AnswerHeaderOptions): void {
  const hsts = opts.https ? { maxAge: 31_536_000, includeSubDomains: true } : false;
  const api = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    strictTransportSecurity: hsts,
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xPoweredBy: false,
    xXssProtection: false,
  });
  const pages = helmetHeaders({
    strictTransportSecurity: hsts,
    // Avatars and banners are embedded by <img> elements of other origins, and the API
    // authenticates by bearer header (no cookies): resources are not restricted to the same origin.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
  // The console's scripts and styles come from this origin only; Mantine sets inline styles,
  // audio and PDF previews are object URLs (blob:), and it calls no other origin.
  const consolePages = helmetHeaders({
    strictTransportSecurity: hsts,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  // Images and the console's files override Cache-Control in their handler; everything else is never cached.
  const apiHeaders = Object.fromEntries([...api, ['Cache-Control', 'no-store']]);
  const pageHeaders = Object.fromEntries([...pages, ['Cache-Control', 'no-store']]);
  const consoleHeaders = Object.fromEntries([...consolePages, ['Cache-Control', 'no-store']]);
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header('X-Request-Id', req.id);
    const url = req.url;
    reply.headers(
      url.startsWith(PAGES_PREFIX) ? pageHeaders : url.startsWith(CONSOLE_PREFIX) ? consoleHeaders : apiHeaders,
    );
    done();
  });
}
