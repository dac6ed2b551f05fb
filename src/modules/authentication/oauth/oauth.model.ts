// The model of @node-oauth/oauth2-server (authorization code grant with PKCE, refresh tokens),
// backed by the database: the library runs the protocol, this file only stores and finds.
// - Clients are applications: active ones only. A confidential client authenticates at the token
//   endpoint with its appSecret, which must match its SHA-256 (timing-safe). A public client (RFC
//   6749 2.1: the built-in console, a browser application that cannot keep a secret) has none: it
//   names itself with `client_id` alone, and its codes require PKCE S256 (OAuth 2.1, RFC 7636), so
//   a code is worth nothing without the verifier the browser kept.
// - redirect_uri: a registered URL exactly, or a registered path on the request's origin
//   (oauth.redirect.ts).
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
import OAuth2Server from '@node-oauth/oauth2-server';
import { timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../../db/client.ts';
import type { AppDeps } from '../../../http/context.ts';
import { randomSecret, sha256hex } from '../../../shared/ids.ts';
import { issueToken, type IssuedToken } from '../../../shared/tokens.ts';
import { findActiveApplication } from '../../applications/applications.api.ts';
import * as repo from './oauth.repo.ts';
import { redirectUriAllowed } from './oauth.redirect.ts';

const { InvalidRequestError } = OAuth2Server;

export const CODE_LIFETIME_SECONDS = 60;
export const REFRESH_LIFETIME_SECONDS = 30 * 24 * 3600;
const GRANTS = ['authorization_code', 'refresh_token'];

/**
 * 'authorize' finds a client by id alone; 'token' finds a confidential client by id and secret;
 * 'publicToken' finds a public client by id, sent without any secret.
 */
export type OAuthPurpose = 'authorize' | 'token' | 'publicToken';

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

/**
 * One model per request, running on `exec` (the token endpoint passes its transaction);
 * `origin` is the request's (oauth.redirect.ts), against which a registered path is matched.
 */
export function createOAuthModel(deps: AppDeps, exec: Executor, purpose: OAuthPurpose, origin?: string): OAuthModel {
  const forLibrary = (d: Date) => new Date(Date.now() + (d.getTime() - deps.now().getTime()));
  // Access tokens issued by this model during this request, by token: saveToken needs their session.
  const issued = new Map<string, IssuedToken>();
  // The public clients getClient found during this request, by id.
  const publicClients = new Set<string>();

  return {
    async getClient(clientId, clientSecret) {
      const app = await findActiveApplication(exec, clientId);
      if (!app) return false;
      const isPublic = app.clientType === 'public';
      // A confidential client proves itself with its secret; a public one has none, so a secret
      // sent for it (made up: it was never given one) is a failed authentication, not ignored.
      if (purpose === 'token') {
        if (isPublic || app.secretHash === null || typeof clientSecret !== 'string') return false;
        if (!sameHex(sha256hex(clientSecret), app.secretHash)) return false;
      }
      if (purpose === 'publicToken' && (!isPublic || clientSecret !== undefined)) return false;
      if (isPublic) publicClients.add(app.id);
      return { id: app.id, redirectUris: app.redirectUris, grants: GRANTS };
    },

    async validateRedirectUri(redirectUri, client) {
      const registered = typeof client.redirectUris === 'string' ? [client.redirectUris] : (client.redirectUris ?? []);
      return redirectUriAllowed(redirectUri, registered, origin);
    },

    async generateAuthorizationCode() {
      return randomSecret();
    },

    async saveAuthorizationCode(code, client, user) {
      // OAuth 2.1 (RFC 7636 for public clients): a public client must send a code_challenge; the
      // library has already refused `plain`, so the method is S256. Thrown once the client and its
      // redirect_uri are trusted, the error is redirected with `state` (RFC 6749 4.1.2.1).
      if (publicClients.has(client.id) && !code.codeChallenge)
        throw new InvalidRequestError(
          'Missing parameter: `code_challenge` (PKCE with S256 is required of a public client)',
        );
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
