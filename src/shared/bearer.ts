// Authenticates a request: `Authorization: Bearer <token>` (a JWT from login or an OAuth access
// token, which are the same kind of token). The signature and expiry are checked in process; the
// session row (revocation) is checked in the database, together with the caller's facts.
import type { FastifyRequest } from 'fastify';
import { fail } from '../errors/catalogue.ts';
import type { AppDeps } from '../http/context.ts';
import type { Caller } from '../authz/roles.ts';
import { loadCaller } from '../authz/resolve.ts';
import { verifyToken, type VerifiedToken } from './tokens.ts';

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

/** The verified token of the request, or 401. Its session is not checked yet. */
export function requestToken(deps: AppDeps, req: FastifyRequest): VerifiedToken {
  const token = bearerToken(req);
  if (!token) fail(req.headers.authorization ? 'TOKEN_INVALID' : 'AUTH_REQUIRED');
  return verifyToken(deps, token);
}

export async function authenticateRequest(deps: AppDeps, req: FastifyRequest): Promise<Caller> {
  return (await loadCaller(deps.database, deps.now(), { sessionId: requestToken(deps, req).sessionId })).caller;
}
