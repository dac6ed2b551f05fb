// Tokens of login, renew and OAuth: an HS256 JWT whose jti is a row of `sessions`.
// The row is the truth about revocation; the signature only saves a lookup for forged tokens.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { createHash, randomBytes } from 'node:crypto';
import type { Executor } from '../../db/client.js';
import { sessions } from '../../db/schema.js';
import { fail } from '../../errors/catalogue.js';
import type { AppDeps } from '../../http/context.js';

export const ISSUER = 'svc-admin';

export function newId(): string {
  // 24 hex characters: the shape of identifiers in the original interface.
  return randomBytes(12).toString('hex');
}

export function sha256hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export interface IssuedToken {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export async function issueToken(
  deps: AppDeps,
  exec: Executor,
  userId: string,
  kind: 'login' | 'renew' | 'oauth',
  appId: string | null = null,
): Promise<IssuedToken> {
  const now = deps.now();
  const sessionId = newId();
  const expiresAt = new Date(now.getTime() + deps.config.jwtTtlSeconds * 1000);
  await exec.insert(sessions).values({ id: sessionId, userId, appId, kind, createdAt: now, expiresAt });
  const token = await new SignJWT({ kind, ...(appId ? { app: appId } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(sessionId)
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(deps.keys.jwt);
  return { token, sessionId, expiresAt };
}

export interface VerifiedToken {
  sessionId: string;
  userId: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Verifies signature and expiry; an expired token gives 401523 with the details of document 1. */
export async function verifyToken(deps: AppDeps, token: string): Promise<VerifiedToken> {
  const now = deps.now();
  try {
    const { payload } = await jwtVerify(token, deps.keys.jwt, { algorithms: ['HS256'], issuer: ISSUER, currentDate: now });
    if (!payload.jti || !payload.sub || !payload.exp || !payload.iat) fail('TOKEN_INVALID');
    return { sessionId: payload.jti, userId: payload.sub, issuedAt: new Date(payload.iat * 1000), expiresAt: new Date(payload.exp * 1000) };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) {
      const iat = (err.payload.iat ?? 0) * 1000;
      const exp = (err.payload.exp ?? 0) * 1000;
      fail('TOKEN_EXPIRED', {
        errorMsg: 'The token has expired: sign in again or renew it before its expiry',
        timeToLive: Math.round((exp - iat) / 1000),
        creationDate: new Date(iat).toISOString(),
        expirationDate: new Date(exp).toISOString(),
        currentDate: now.toISOString(),
      });
    }
    if (err instanceof joseErrors.JOSEError) fail('TOKEN_INVALID');
    throw err;
  }
}
