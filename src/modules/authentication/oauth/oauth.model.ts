// The model of @node-oauth/oauth2-server (authorization code grant with PKCE, refresh tokens),
// backed by the database: the library runs the protocol, this file only stores and finds.
// - Clients are applications: active ones only; at the token endpoint the appSecret must match
//   its SHA-256 (timing-safe).
// - Authorization codes and refresh tokens are random; only their SHA-256 is stored. Codes live
//   CODE_LIFETIME_SECONDS and are deleted on first use (DELETE ... RETURNING, so two concurrent
//   exchanges cannot both win); refresh tokens live REFRESH_LIFETIME_SECONDS and are rotated.
// - Access tokens are the JWTs of login (issueToken, kind 'oauth'): one `sessions` row each, so
//   bearer auth and logout treat them like any other token.
// - A refresh token is bound to the session of the access token issued with it: once that
//   token is logged out, the refresh token is refused too. (A future purge of `sessions` must
//   keep revoked rows while refresh tokens bound to them live, or delete those refresh tokens.)
// - Every time comes from deps.now(). The library compares expiry dates with its own
//   `new Date()`, so dates handed to it are moved onto the real clock at the same distance
//   (`forLibrary`): expiry is then decided by our clock, which tests move.
import type OAuth2Server from '@node-oauth/oauth2-server';
import { timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../../db/client.ts';
import type { AppDeps } from '../../../http/context.ts';
import { randomSecret, sha256hex } from '../../../shared/ids.ts';
import { issueToken, type IssuedToken } from '../../../shared/tokens.ts';
import { findActiveApplication } from '../../applications/applications.api.ts';
import * as repo from './oauth.repo.ts';

export const CODE_LIFETIME_SECONDS = 60;
export const REFRESH_LIFETIME_SECONDS = 30 * 24 * 3600;
const GRANTS = ['authorization_code', 'refresh_token'];

/** 'authorize' finds a client by id alone; 'token' also requires its secret. */
export type OAuthPurpose = 'authorize' | 'token';

export type OAuthModel = OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel;

/** The saved token, with the lifetime of the access token measured on our clock. */
export interface SavedToken extends OAuth2Server.Token {
  expiresInSeconds: number;
}

/** The id of the library's user, which is this model's own user row (typed `any` by the library). */
function userIdOf(user: OAuth2Server.User): string {
  const id: unknown = user.id;
  if (typeof id !== 'string') throw new Error('oauth: a user without an id reached the model');
  return id;
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

const scopeText = (scope: string[] | undefined) => (scope && scope.length > 0 ? scope.join(' ') : null);
const scopeList = (scope: string | null) => (scope ? scope.split(' ') : undefined);

/** One model per request, running on `exec` (the token endpoint passes its transaction). */
export function createOAuthModel(deps: AppDeps, exec: Executor, purpose: OAuthPurpose): OAuthModel {
  const forLibrary = (d: Date) => new Date(Date.now() + (d.getTime() - deps.now().getTime()));
  // Access tokens issued by this model during this request, by token: saveToken needs their session.
  const issued = new Map<string, IssuedToken>();

  return {
    async getClient(clientId, clientSecret) {
      const app = await findActiveApplication(exec, clientId);
      if (!app) return false;
      if (
        purpose === 'token' &&
        !(typeof clientSecret === 'string' && sameHex(sha256hex(clientSecret), app.secretHash))
      )
        return false;
      return { id: app.id, redirectUris: app.redirectUris, grants: GRANTS };
    },

    async generateAuthorizationCode() {
      return randomSecret();
    },

    async saveAuthorizationCode(code, client, user) {
      const now = deps.now();
      const expiresAt = new Date(now.getTime() + CODE_LIFETIME_SECONDS * 1000);
      // Codes that were never exchanged are swept here; the table only holds live ones.
      await repo.deleteExpiredCodes(exec, now);
      await repo.insertCode(exec, {
        codeHash: sha256hex(code.authorizationCode),
        appId: client.id,
        userId: userIdOf(user),
        redirectUri: code.redirectUri,
        scope: scopeText(code.scope),
        codeChallenge: code.codeChallenge ?? null,
        codeChallengeMethod: code.codeChallenge ? (code.codeChallengeMethod ?? null) : null,
        expiresAt,
      });
      return { ...code, expiresAt: forLibrary(expiresAt), client, user };
    },

    async getAuthorizationCode(authorizationCode) {
      const row = await repo.findCode(exec, sha256hex(authorizationCode));
      if (!row || row.terminated) return false;
      const c = row.code;
      return {
        authorizationCode,
        expiresAt: forLibrary(c.expiresAt),
        redirectUri: c.redirectUri,
        scope: scopeList(c.scope),
        client: { id: c.appId, grants: GRANTS },
        user: { id: c.userId },
        ...(c.codeChallenge
          ? { codeChallenge: c.codeChallenge, codeChallengeMethod: c.codeChallengeMethod ?? undefined }
          : {}),
      };
    },

    async revokeAuthorizationCode(code) {
      return repo.deleteCode(exec, sha256hex(code.authorizationCode));
    },

    async generateAccessToken(client, user) {
      const t = await issueToken({ ...deps, now: deps.now() }, exec, userIdOf(user), 'oauth', client.id);
      issued.set(t.token, t);
      return t.token;
    },

    async generateRefreshToken() {
      return randomSecret();
    },

    async saveToken(token, client, user): Promise<SavedToken> {
      const access = issued.get(token.accessToken);
      if (!access) throw new Error('saveToken: the access token was not issued by this model');
      const now = deps.now();
      let refreshTokenExpiresAt: Date | undefined;
      if (token.refreshToken) {
        refreshTokenExpiresAt = new Date(now.getTime() + REFRESH_LIFETIME_SECONDS * 1000);
        await repo.deleteExpiredRefreshTokens(exec, userIdOf(user), now);
        await repo.insertRefreshToken(exec, {
          tokenHash: sha256hex(token.refreshToken),
          appId: client.id,
          userId: userIdOf(user),
          sessionId: access.sessionId,
          scope: scopeText(token.scope),
          expiresAt: refreshTokenExpiresAt,
        });
      }
      return {
        accessToken: token.accessToken,
        accessTokenExpiresAt: forLibrary(access.expiresAt),
        expiresInSeconds: Math.round((access.expiresAt.getTime() - now.getTime()) / 1000),
        ...(token.refreshToken && refreshTokenExpiresAt
          ? { refreshToken: token.refreshToken, refreshTokenExpiresAt: forLibrary(refreshTokenExpiresAt) }
          : {}),
        scope: token.scope,
        client,
        user,
      };
    },

    async getRefreshToken(refreshToken) {
      const row = await repo.findRefreshToken(exec, sha256hex(refreshToken));
      if (!row || row.terminated || row.sessionRevokedAt) return false;
      const r = row.token;
      return {
        refreshToken,
        refreshTokenExpiresAt: forLibrary(r.expiresAt),
        scope: scopeList(r.scope),
        client: { id: r.appId, grants: GRANTS },
        user: { id: r.userId },
      };
    },

    async revokeToken(token) {
      return repo.deleteRefreshToken(exec, sha256hex(token.refreshToken));
    },

    // Requests to the API are authenticated by bearer.ts, never by the library.
    async getAccessToken() {
      return false;
    },
  };
}
