// OAuth 2.0 authorization code grant with PKCE and refresh tokens (route table, Authentication;
// doc 1, Authentication 3), run by @node-oauth/oauth2-server on the model of oauth.model.ts.
//
// Error answers:
// - authorize: errors found before the redirect target is trusted (unknown or inactive client,
//   redirect_uri missing or not registered, missing credentials) answer in the error shape of
//   document 1 and never redirect (RFC 6749 4.1.2.1); later ones (missing state, unsupported
//   response_type, bad PKCE method...) redirect to redirect_uri with `error` and `state`.
// - token: errors answer in the JSON of RFC 6749 5.2, `{error, error_description}` at the top
//   level, with the status the library chooses (400, or 401 with WWW-Authenticate for a failed
//   client authentication): that is what OAuth client libraries parse. The same body also carries
//   the fields of document 1 (errorCode, errorMsg, errorDetails, errorDetailsCode), so it is a
//   valid error body of this service as well. Unexpected failures give the 500 of document 1.
import { signInWithPassword } from '../sign-in.ts';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Obj, nameSchemas } from '../../../http/schemas.ts';
import { defineOperation } from '../../../http/operation.ts';
import type { AppDeps } from '../../../http/context.ts';
import { ERRORS, errorBody, fail, type ErrorKey } from '../../../errors/catalogue.ts';
import { parseBasic } from '../auth.operations.ts';
import { assertNotThrottled, clearFailures, clientAccount, recordFailure } from '../login-throttle.ts';
import { authenticateRequest } from '../../../shared/bearer.ts';
import { CODE_LIFETIME_SECONDS, REFRESH_LIFETIME_SECONDS, createOAuthModel } from './oauth.model.ts';
import { exchangeToken, innerOf, libraryRequest, unexpected } from './oauth.service.ts';
import { requestOrigin } from './oauth.redirect.ts';
import { findActiveApplication } from '../../applications/applications.api.ts';
import { field } from '../../../shared/json-values.ts';

const { Response, OAuthError } = OAuth2Server;

const tag = 'Authentication';
const P = '/authentication/v1.0/oauth';
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="svc"' };

type Headers = Record<string, string>;

/** The user signs in on the authorize request: a token from login (Bearer) or Basic loginEmail:password. */
async function signIn(deps: AppDeps, req: FastifyRequest): Promise<{ id: string }> {
  const header = req.headers.authorization;
  if (header && /^Bearer\s/i.test(header)) return { id: (await authenticateRequest(deps, req)).userId };
  const creds = parseBasic(header);
  if (!creds)
    fail(
      'AUTH_REQUIRED',
      { expected: 'Authorization: Bearer <token> or Basic base64(loginEmail:password)' },
      CHALLENGE,
    );
  // The same guard as login: authorize must not become a way round the failed-login limit.
  const [email, password] = creds;
  const user = await signInWithPassword(deps, email, password, req.ip, CHALLENGE);
  return { id: user.id };
}

/** An OAuth error of authorize that must not redirect, in the error shape of document 1. */
function authorizeFailure(err: OAuth2Server.OAuthError): never {
  if (unexpected(err)) throw innerOf(err);
  const details = { error: err.name, error_description: err.message };
  fail(
    err.name === 'invalid_client' || err.name === 'unauthorized_client'
      ? 'OAUTH_INVALID_CLIENT'
      : 'OAUTH_INVALID_REQUEST',
    details,
  );
}

function sendJson(reply: FastifyReply, status: number, headers: Headers, body: unknown): void {
  // A string body: Fastify sends it as is, without the serializer of the documented Error schema
  // (which would drop `error` and `error_description`).
  reply.code(status).headers(headers).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** The error key of a token-endpoint error: its status is the one the library chose. */
function tokenErrorKey(name: string, status: number): ErrorKey {
  if (name === 'invalid_client') return status === 401 ? 'OAUTH_CLIENT_AUTH_FAILED' : 'OAUTH_INVALID_CLIENT';
  return name === 'invalid_grant' ? 'OAUTH_INVALID_GRANT' : 'OAUTH_INVALID_REQUEST';
}

function sendTokenError(
  reply: FastifyReply,
  name: string,
  description: string,
  status: number,
  headers: Headers,
): void {
  const key = tokenErrorKey(name, status);
  const rfc = { error: name, error_description: description };
  sendJson(reply, ERRORS[key].status, headers, { ...rfc, ...errorBody(key, rfc) });
}

const AuthorizeQuery = Type.Object({
  response_type: Type.Optional(Type.String({ description: '`code`' })),
  client_id: Type.Optional(
    Type.String({ description: 'the appId of an active application; `console` for the built-in console' }),
  ),
  redirect_uri: Type.Optional(
    Type.String({
      description:
        'required; one of the redirectUris of the application, exactly. A registered path (the console: `/console/oauth/callback`) is accepted as that path on the origin of this request, `scheme://host[:port]` from the Host header (X-Forwarded-Proto and X-Forwarded-Host when TRUST_PROXY is on), exactly `origin + path`',
    }),
  ),
  scope: Type.Optional(
    Type.String({ description: 'recorded and returned with the token; the token carries the roles of the user' }),
  ),
  state: Type.Optional(Type.String({ description: 'required; returned unchanged with the code' })),
  code_challenge: Type.Optional(
    Type.String({ description: 'PKCE (RFC 7636); required of a public client (the console)' }),
  ),
  code_challenge_method: Type.Optional(Type.String({ description: '`S256` (the default); `plain` is refused' })),
});

export const oauthAuthorize = defineOperation({
  operationId: 'oauthAuthorize',
  errors: ['AUTH_REQUIRED', 'BAD_CREDENTIALS', 'OAUTH_INVALID_CLIENT', 'OAUTH_INVALID_REQUEST'],
  method: 'GET',
  path: `${P}/authorize`,
  tag,
  summary: 'OAuth 2.0 authorization endpoint: the signed-in user gets a code for the application',
  description:
    'The user signs in on this request with `Authorization: Bearer <token>` or `Authorization: Basic base64(loginEmail:password)` (401 with `WWW-Authenticate: Basic` without credentials). ' +
    `On success: 302 to redirect_uri with \`code\` (single use, ${CODE_LIFETIME_SECONDS} s) and \`state\`. ` +
    'An unknown or inactive client, or a redirect_uri not registered for it, is answered here (400) and never redirected; later errors redirect with `error` and `state` (RFC 6749 4.1.2.1). ' +
    'A public client (the built-in console, client_id `console`) must send `code_challenge` with S256: without it the redirect carries `error=invalid_request`.',
  query: AuthorizeQuery,
  response: Type.Null({ description: '302 to redirect_uri' }),
  envelope: 'raw',
  successStatus: 302,
  handler: async (ctx, { query }) => {
    if (!query.redirect_uri)
      fail('OAUTH_INVALID_REQUEST', {
        error: 'invalid_request',
        error_description: 'Missing parameter: `redirect_uri`',
      });
    const server = new OAuth2Server({
      model: createOAuthModel(ctx.app, ctx.db, 'authorize', requestOrigin(ctx.req)),
    });
    const response = new Response();
    try {
      await server.authorize(libraryRequest(ctx.req, query, {}), response, {
        authenticateHandler: { handle: () => signIn(ctx.app, ctx.req) },
        authorizationCodeLifetime: CODE_LIFETIME_SECONDS,
        allowEmptyState: false,
      });
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err; // sign-in failures (AppError) and the unexpected
      if (response.status !== 302) authorizeFailure(err);
      if (unexpected(err)) ctx.log.error({ err: innerOf(err) }, 'oauth authorize failed');
    }
    ctx.reply.code(302).header('location', response.get('location')).send();
  },
});

const TokenBody = Type.Object({
  grant_type: Type.Optional(Type.String({ description: '`authorization_code` or `refresh_token`' })),
  client_id: Type.Optional(
    Type.String({
      description:
        'a public client (the console: `console`) names itself here and sends no Authorization header and no secret; a confidential client authenticates with Basic instead',
    }),
  ),
  code: Type.Optional(Type.String({ description: 'authorization_code: the code from authorize' })),
  redirect_uri: Type.Optional(Type.String({ description: 'authorization_code: the redirect_uri given to authorize' })),
  code_verifier: Type.Optional(
    Type.String({ description: 'authorization_code: the PKCE verifier, when a code_challenge was given' }),
  ),
  refresh_token: Type.Optional(
    Type.String({ description: 'refresh_token: the refresh token; it is replaced by the one returned' }),
  ),
  scope: Type.Optional(Type.String({ description: 'refresh_token: a subset of the scope granted' })),
});

export const TokenResponse = Obj({
  access_token: Type.String({ description: 'a token like the one of login, accepted as `Authorization: Bearer`' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  refresh_token: Type.String({ description: `single use, ${REFRESH_LIFETIME_SECONDS / 86400} days` }),
  scope: Type.Optional(Type.String()),
});

export const oauthToken = defineOperation({
  operationId: 'oauthToken',
  // The client's own credentials (appId:appSecret), RFC 6749 2.3.1; a public client has none.
  security: [{ basic: [] }, {}],
  method: 'POST',
  path: `${P}/token`,
  tag,
  summary: 'OAuth 2.0 token endpoint: exchange a code or a refresh token for tokens',
  description:
    'Form post (`application/x-www-form-urlencoded`); a confidential client authenticates with `Authorization: Basic base64(appId:appSecret)`. ' +
    'A public client (the built-in console, appId `console`: RFC 6749 2.1, it has no secret) sends `client_id` in the form and no Authorization header; its codes were issued with PKCE, so `code_verifier` is required to exchange them. ' +
    'Errors follow RFC 6749 5.2: `{error, error_description}` with 400, or 401 (with `WWW-Authenticate: Basic`) for a failed client authentication; the body also carries the error fields of this service. ' +
    'Failed client authentications are limited per client id and address like failed logins (429 `429002` with Retry-After). ' +
    'Idempotency-Key is not honoured here: token responses are never stored nor replayed.',
  body: TokenBody,
  consumes: ['application/x-www-form-urlencoded'],
  response: TokenResponse,
  envelope: 'raw',
  successStatus: 200,
  // Token answers carry bearer and refresh tokens: never stored in the Idempotency-Key store
  // (refresh tokens are kept hashed only) nor replayed to a client that did not authenticate.
  // The token errors of RFC 6749 5.2 (sendTokenError), and the limit of failed client
  // authentications (429 with Retry-After: docs/security.md, Work, sessions and client authentication).
  errors: [
    'OAUTH_INVALID_REQUEST',
    'OAUTH_INVALID_CLIENT',
    'OAUTH_INVALID_GRANT',
    'OAUTH_CLIENT_AUTH_FAILED',
    'TOO_MANY_CLIENT_FAILURES',
  ],
  idempotent: false,
  handler: async (ctx, { body }) => {
    // Failed client authentications are limited per client id and address
    // like failed logins (429 with Retry-After), checked before the secret is compared.
    const creds = parseBasic(ctx.req.headers.authorization);
    const account = clientAccount(creds?.[0] ?? body.client_id ?? '');
    await assertNotThrottled(ctx.app, account, ctx.req.ip, 'TOO_MANY_CLIENT_FAILURES');
    // A confidential client authenticates with Basic appId:appSecret only (no secret in the body).
    // Without Basic, only a public client may name itself with client_id (RFC 6749 2.1, 3.2.1), and
    // sends no secret: it has none, so one sent for it was made up. A confidential client sending
    // client_id alone is refused as before, whatever the grant (the library would accept client_id
    // with a code_verifier: PKCE does not replace a confidential client's authentication).
    const publicClient =
      !creds && body.client_id !== undefined && field(body, 'client_secret') === undefined
        ? await findActiveApplication(ctx.db, body.client_id)
        : undefined;
    if (!creds && publicClient?.clientType !== 'public') {
      await recordFailure(ctx.app, account, ctx.req.ip);
      return sendTokenError(
        ctx.reply,
        'invalid_client',
        'Invalid client: authenticate with Authorization: Basic base64(appId:appSecret); only a public client sends client_id alone',
        401,
        CHALLENGE,
      );
    }
    const outcome = await exchangeToken(ctx.app, ctx.db, ctx.req, body, creds ? 'token' : 'publicToken');
    const { response } = outcome;
    const headers = { ...response.headers };
    if ('error' in outcome && outcome.error) {
      if (headers['www-authenticate']) headers['www-authenticate'] = CHALLENGE['WWW-Authenticate'];
      if (outcome.error.name === 'invalid_client') await recordFailure(ctx.app, account, ctx.req.ip);
      return sendTokenError(ctx.reply, outcome.error.name, outcome.error.message, outcome.error.code, headers);
    }
    await clearFailures(ctx.app, account, ctx.req.ip);
    // The library measures expires_in on the real clock; the lifetime is the one of our clock.
    sendJson(ctx.reply, 200, headers, { ...response.body, expires_in: outcome.expiresInSeconds });
  },
});

export const oauthOperations = [oauthAuthorize, oauthToken];

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ TokenResponse });
