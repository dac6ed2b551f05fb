// The token endpoint's exchange, run by @node-oauth/oauth2-server on the model of oauth.model.ts
// in the transaction this service opens.
import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../../../db/client.ts';
import type { AppDeps } from '../../../http/context.ts';
import { REFRESH_LIFETIME_SECONDS, createOAuthModel } from './oauth.model.ts';
import { deleteOtherRefreshTokens } from './oauth.repo.ts';
import { field, isRecord } from '../../../shared/json-values.ts';

const { Request, Response, OAuthError, ServerError } = OAuth2Server;

/** The texts of a request part (headers, query, form), as the library reads them: lists joined, others dropped. */
export function textsOf(part: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(part)) return out;
  for (const [k, v] of Object.entries(part)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (Array.isArray(v)) out[k] = v.map(String).join(', ');
  }
  return out;
}

export function libraryRequest(req: FastifyRequest, query: unknown, body: unknown): OAuth2Server.Request {
  return new Request({ headers: textsOf(req.headers), method: req.method, query: textsOf(query), body: textsOf(body) });
}

/** server_error (the library wraps what it did not expect) and the library's own 500s. */
export const unexpected = (err: OAuth2Server.OAuthError) => err instanceof ServerError || err.code >= 500;
export const innerOf = (err: OAuth2Server.OAuthError): unknown => field(err, 'inner') ?? err;

/** The library's response, with the saved token or the OAuth error to answer. */
export async function exchangeToken(
  deps: AppDeps,
  db: Executor,
  req: FastifyRequest,
  body: unknown,
  purpose: 'token' | 'publicToken',
) {
  // One transaction: a code or refresh token is consumed together with the issue of the new
  // tokens. OAuth errors commit it (a code is spent even by a wrong code_verifier, as the
  // library intends); unexpected failures roll it back.
  return db
    .transaction(async (tx) => {
      const server = new OAuth2Server({
        model: createOAuthModel(deps, tx, purpose),
        // A public client (found by the model only for 'publicToken') authenticates with client_id
        // alone on both grants; its codes carry a PKCE challenge the verifier must meet.
        ...(purpose === 'publicToken'
          ? { requireClientAuthentication: { authorization_code: false, refresh_token: false } }
          : {}),
        accessTokenLifetime: deps.config.jwtTtlSeconds,
        refreshTokenLifetime: REFRESH_LIFETIME_SECONDS,
        alwaysIssueNewRefreshToken: true,
      });
      const response = new Response();
      try {
        const token = await server.token(libraryRequest(req, req.query ?? {}, body ?? {}), response);
        // saveToken (oauth.model.ts) gave the token its lifetime in seconds.
        const expiresInSeconds: unknown = token.expiresInSeconds;
        return {
          response,
          token,
          expiresInSeconds: typeof expiresInSeconds === 'number' ? expiresInSeconds : undefined,
        };
      } catch (err) {
        if (err instanceof OAuthError && !unexpected(err)) return { response, error: err };
        throw err;
      }
    })
    .catch((err: unknown) => {
      throw err instanceof OAuthError ? innerOf(err) : err;
    });
}

/**
 * Ends the user's refresh tokens but those bound to the session `keep` (docs/security.md, Work, sessions and
 * client authentication).
 */
export function endOtherRefreshTokens(exec: Executor, userId: string, keep: string | undefined): Promise<void> {
  return deleteOtherRefreshTokens(exec, userId, keep);
}
