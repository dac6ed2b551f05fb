// Tokens of login, renew and OAuth: an HS256 JWT whose jti is a row of `sessions`.
// The row is the truth about revocation; the signature only saves a lookup for forged tokens.
// fast-jwt signs and verifies synchronously with the key imported once (jose re-imports a raw key
// and goes through async WebCrypto on every request: a fifth of a getUser's CPU).
import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import type { Executor } from '../db/client.ts';
import { sessions } from './auth.tables.ts';
import { fail } from '../errors/catalogue.ts';
import { newId } from './ids.ts';
import type { AppDeps } from '../http/context.ts';

export const ISSUER = 'svc-admin';

const verifiers = new WeakMap<Uint8Array, (token: string) => Record<string, unknown>>();

function verifier(key: Uint8Array) {
  let v = verifiers.get(key);
  if (!v) {
    // Expiry is checked against the service's clock below, with the details of document 1.
    v = createVerifier({ key: Buffer.from(key), algorithms: ['HS256'], allowedIss: ISSUER, ignoreExpiration: true, cache: 10_000 });
    verifiers.set(key, v);
  }
  return v;
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
  // A signer per token: iat and exp come from the service's clock (signing is not a hot path).
  const sign = createSigner({ key: Buffer.from(deps.keys.jwt), algorithm: 'HS256', clockTimestamp: now.getTime(), expiresIn: deps.config.jwtTtlSeconds * 1000, iss: ISSUER, sub: userId, jti: sessionId });
  const token = sign({ kind, ...(appId ? { app: appId } : {}) });
  return { token, sessionId, expiresAt };
}

export interface VerifiedToken {
  sessionId: string;
  userId: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** Verifies signature and expiry; an expired token gives 401523 with the details of document 1. */
export function verifyToken(deps: AppDeps, token: string): VerifiedToken {
  let payload: Record<string, unknown>;
  try {
    payload = verifier(deps.keys.jwt)(token);
  } catch (err) {
    if (err instanceof TokenError) fail('TOKEN_INVALID');
    throw err;
  }
  const { jti, sub, iat, exp } = payload;
  if (typeof jti !== 'string' || typeof sub !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') fail('TOKEN_INVALID');
  const now = deps.now();
  if (now.getTime() >= exp * 1000) {
    fail('TOKEN_EXPIRED', {
      errorMsg: 'The token has expired: sign in again or renew it before its expiry',
      timeToLive: exp - iat,
      creationDate: new Date(iat * 1000).toISOString(),
      expirationDate: new Date(exp * 1000).toISOString(),
      currentDate: now.toISOString(),
    });
  }
  return { sessionId: jti, userId: sub, issuedAt: new Date(iat * 1000), expiresAt: new Date(exp * 1000) };
}
