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
import { isRecord } from './json-values.ts';

export const ISSUER = 'svc-admin';

/** Bound on the tokens whose verified payload an instance remembers (the oldest is forgotten first). */
const VERIFIED_MAX = 10_000;
const verifiers = new WeakMap<Uint8Array, (token: string) => Record<string, unknown>>();

/**
 * The payload of a token whose signature is valid. A token verified once is remembered by its
 * whole text, so the same token again costs a Map lookup: fast-jwt's own cache took a SHA-256 of
 * the token on every request (about 2 % of a single-resource GET's CPU). Only valid signatures
 * are remembered; expiry and the session are checked on every request all the same.
 */
function verifier(key: Uint8Array) {
  let v = verifiers.get(key);
  if (!v) {
    // Expiry is checked against the service's clock below, with the details of document 1.
    const verify = createVerifier({
      key: Buffer.from(key),
      algorithms: ['HS256'],
      allowedIss: ISSUER,
      ignoreExpiration: true,
      cache: false,
    });
    const verified = new Map<string, Record<string, unknown>>();
    v = (token: string) => {
      let payload = verified.get(token);
      if (!payload) {
        const claims: unknown = verify(token);
        if (!isRecord(claims))
          throw new TokenError(TokenError.codes.invalidPayload, 'The token payload is not an object.');
        payload = claims;
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, payload);
      }
      return payload;
    };
    verifiers.set(key, v);
  }
  return v;
}

export interface IssuedToken {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

/** What signing a token needs: the server's keys, the token lifetime, and the time it is issued at. */
export interface TokenIssuer {
  keys: { jwt: Uint8Array };
  config: { jwtTtlSeconds: number };
  now: Date;
}

export async function issueToken(
  issuer: TokenIssuer,
  exec: Executor,
  userId: string,
  kind: 'login' | 'renew' | 'oauth',
  appId: string | null = null,
): Promise<IssuedToken> {
  const { now } = issuer;
  const sessionId = newId();
  const expiresAt = new Date(now.getTime() + issuer.config.jwtTtlSeconds * 1000);
  await exec.insert(sessions).values({ id: sessionId, userId, appId, kind, createdAt: now, expiresAt });
  // A signer per token: iat and exp come from the service's clock (signing is not a hot path).
  const sign = createSigner({
    key: Buffer.from(issuer.keys.jwt),
    algorithm: 'HS256',
    clockTimestamp: now.getTime(),
    expiresIn: issuer.config.jwtTtlSeconds * 1000,
    iss: ISSUER,
    sub: userId,
    jti: sessionId,
  });
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
  if (typeof jti !== 'string' || typeof sub !== 'string' || typeof iat !== 'number' || typeof exp !== 'number')
    fail('TOKEN_INVALID');
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
