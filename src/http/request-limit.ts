// The general request limit (@fastify/rate-limit), beside the failed-login limit
// (src/modules/authentication/login-throttle.ts). A request with a valid token counts against its
// caller, the token's user, from whatever address it comes: the administrators of a company
// behind one NAT address each have their own budget (RATE_LIMIT_MAX), sized for a provisioning
// script. Every other request (no token, a forged, malformed or expired one) counts against its
// client address (RATE_LIMIT_ANONYMOUS_MAX), so a made-up token neither spends another user's
// budget nor escapes the limit. The key comes only from a token whose signature is verified with
// the function that authenticates requests (its verified tokens are remembered, so the
// authentication that follows costs a Map lookup); a token whose session was revoked still counts
// against its user until it expires (the session is checked in the database, later).
// Counted in this instance's memory: a shared count would cost a round trip on every request
// (docs/operations.md, Several instances).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../errors/catalogue.ts';
import { bearerToken } from '../shared/bearer.ts';
import { verifyToken } from '../shared/tokens.ts';
import type { AppDeps } from './context.ts';

const CALLER = 'caller:';
const ADDRESS = 'address:';

/** The count a request goes to: `caller:<user id>` for a valid token, else `address:<client address>`. */
export function limitKey(deps: AppDeps, req: FastifyRequest): string {
  const token = bearerToken(req);
  if (token !== undefined) {
    try {
      return CALLER + verifyToken(deps, token).userId;
    } catch (err) {
      // An invalid or expired token: the authentication answers 401 after the count.
      if (!(err instanceof AppError)) throw err;
    }
  }
  return ADDRESS + req.ip;
}

export async function installRequestLimit(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { rateLimitMax, rateLimitAnonymousMax, rateLimitWindowSeconds } = deps.config;
  if (rateLimitMax === 0) return;
  await app.register(rateLimit, {
    timeWindow: rateLimitWindowSeconds * 1000,
    keyGenerator: (req) => limitKey(deps, req),
    max: (_req, key) => (key.startsWith(CALLER) ? rateLimitMax : rateLimitAnonymousMax),
    errorResponseBuilder: (_req, ctx) =>
      new AppError('TOO_MANY_REQUESTS', {
        limit: ctx.max,
        windowSeconds: rateLimitWindowSeconds,
        retryAfterSeconds: Math.ceil(ctx.ttl / 1000),
      }),
  });
}
