// Authentication module (route table, section Authentication; doc 1, Authentication).
import { signInWithPassword } from './sign-in.ts';
import { Type } from 'typebox';
import { timingSafeEqual } from 'node:crypto';
import { defineOperation } from '../../http/operation.ts';
import { Obj } from '../../http/schemas.ts';
import { fail } from '../../errors/catalogue.ts';
import { User, toApiUser } from '../admin/users/users.api.ts';
import { Application, findActiveApplication, toApiApplication } from '../applications/applications.api.ts';
import { sha256hex } from '../../shared/ids.ts';
import { issueToken } from '../../shared/tokens.ts';
import { unseal } from '../../shared/keys.ts';
import type { AppDeps } from '../../http/context.ts';
import * as service from './authentication.service.ts';
import { textOrNull } from '../../shared/json-values.ts';

const tag = 'Authentication';
const P = '/authentication/v1.0';

function parseBasic(header: string | undefined): [string, string] | undefined {
  const m = header ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? undefined : [decoded.slice(0, i), decoded.slice(i + 1)];
}

export { parseBasic };

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks the optional x-svc-app-auth proof: Basic base64(appId:sha256hex(appSecret + password)). */
async function verifyAppProof(deps: AppDeps, header: string | undefined, password: string) {
  if (header === undefined) return null;
  const parts = parseBasic(header);
  if (!parts) fail('BAD_APP_PROOF');
  const [appId, proof] = parts;
  const app = await findActiveApplication(deps.database.db, appId);
  // A public client (the console) has no secret, so it has nothing to prove with (RFC 6749 2.1).
  if (!app || app.secretSealed === null) fail('BAD_APP_PROOF');
  const expected = sha256hex(unseal(deps.keys.seal, app.secretSealed) + password);
  if (!sameText(expected, proof.toLowerCase())) fail('BAD_APP_PROOF');
  return app;
}

const LoginResponse = Obj({
  token: Type.String(),
  loggedInUser: User,
  loggedInApplication: Type.Union([Application, Type.Null()]),
});

export const login = defineOperation({
  operationId: 'login',
  errors: ['AUTH_REQUIRED', 'BAD_APP_PROOF', 'BAD_CREDENTIALS', 'TOO_MANY_LOGIN_FAILURES'],
  // Basic credentials, with the application's proof when the application requires it.
  security: [{ basic: [] }, { basic: [], appAuth: [] }],
  method: 'GET',
  path: `${P}/login`,
  tag,
  summary: 'Sign in with Basic credentials and get a token',
  description:
    'Credentials in `Authorization: Basic base64(loginEmail:password)`; optional application proof in `x-svc-app-auth: Basic base64(appId:sha256hex(appSecret + password))`. Failed logins are limited per account and address (429 with Retry-After).',
  response: LoginResponse,
  envelope: 'plain',
  successStatus: 200,
  handler: async (ctx) => {
    const creds = parseBasic(ctx.req.headers.authorization);
    if (!creds)
      fail(
        'AUTH_REQUIRED',
        { expected: 'Authorization: Basic base64(loginEmail:password)' },
        { 'WWW-Authenticate': 'Basic realm="svc"' },
      );
    const [email, password] = creds;
    const user = await signInWithPassword(ctx.app, email, password, ctx.req.ip);
    const app = await verifyAppProof(ctx.app, textOrNull(ctx.req.headers['x-svc-app-auth']) ?? undefined, password);
    const { token } = await issueToken({ ...ctx.deps, now: ctx.now }, ctx.db, user.id, 'login', app?.id ?? null);
    return { token, loggedInUser: toApiUser(user), loggedInApplication: app ? toApiApplication(app) : null };
  },
});

export const renewToken = defineOperation({
  operationId: 'renewToken',
  method: 'GET',
  path: `${P}/renew`,
  tag,
  summary: 'Exchange a valid token for a new one with a full lifetime; the old one is revoked',
  response: Obj({ token: Type.String() }),
  envelope: 'plain',
  successStatus: 200,
  command: (ctx) => service.renewToken({ ...ctx.deps, now: ctx.now }, ctx.db, ctx.caller),
});

export const logout = defineOperation({
  operationId: 'logout',
  method: 'GET',
  path: `${P}/logout`,
  tag,
  summary: 'Revoke the presented token on every instance',
  response: Obj({ status: Type.String() }),
  envelope: 'plain',
  successStatus: 200,
  command: async (ctx) => {
    await service.logout(ctx.db, ctx.caller, ctx.now);
    return { status: 'Logged out' };
  },
});

export const validateToken = defineOperation({
  operationId: 'validateToken',
  method: 'GET',
  path: `${P}/validator`,
  tag,
  summary: 'Tell whether the presented token is valid',
  response: Obj({ status: Type.String() }),
  envelope: 'plain',
  successStatus: 200,
  command: async () => ({ status: 'Token is valid' }),
});

export const authOperations = [login, renewToken, logout, validateToken];
