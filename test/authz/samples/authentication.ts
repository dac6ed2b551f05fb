// Sample requests of the authentication module, for the authorisation matrix (see ./types.ts).
import { createHash, randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { basic, bearer, expect, PASSWORD, type Ctx, type Req, type Sample } from './types.ts';

const AU = '/api/svc/authentication/v1.0';
const AP = '/api/svc/applications/v1.0/applications';
const CB = 'https://client.example/cb';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** An OAuth client (an application) of the caller, redirecting to CB. */
async function oauthClient(ctx: Ctx) {
  const res = await ctx.t.inject({
    method: 'POST',
    url: AP,
    headers: bearer(ctx.caller.token),
    payload: { name: 'Matrix client', redirectUris: [CB] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { appId: string; appSecret: string };
}

function authorizeReq(ctx: Ctx, appId: string, challenge: string): Req {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: appId,
    redirect_uri: CB,
    state: `s${ctx.n}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return {
    method: 'GET',
    url: `${AU}/oauth/authorize?${q}`,
    headers: { authorization: basic(ctx.caller.email, PASSWORD) },
  };
}

export const authenticationSamples: Record<string, Sample> = {
  login: {
    type: 'public',
    request: async ({ caller }) => ({
      method: 'GET',
      url: `${AU}/login`,
      headers: { authorization: basic(caller.email, PASSWORD) },
    }),
  },
  renewToken: { type: 'authenticated', consumesToken: true, request: () => ({ method: 'GET', url: `${AU}/renew` }) },
  logout: { type: 'authenticated', consumesToken: true, request: () => ({ method: 'GET', url: `${AU}/logout` }) },
  validateToken: { type: 'authenticated', request: () => ({ method: 'GET', url: `${AU}/validator` }) },
  oauthAuthorize: {
    type: 'public',
    request: async (ctx) => authorizeReq(ctx, (await oauthClient(ctx)).appId, pkce().challenge),
  },
  oauthToken: {
    type: 'public',
    // Envelope 'raw': src/http/operation.ts does not put its 200 in the document.
    skipDocumentCheck: 'the 200 of a raw operation is not in the OpenAPI document',
    request: async (ctx) => {
      const client = await oauthClient(ctx);
      const { verifier, challenge } = pkce();
      const auth = await ctx.t.inject(authorizeReq(ctx, client.appId, challenge) as InjectOptions);
      expect(auth.statusCode, auth.body).toBe(302);
      const code = new URL(String(auth.headers.location)).searchParams.get('code')!;
      const form = new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: CB,
        code_verifier: verifier,
      });
      return {
        method: 'POST',
        url: `${AU}/oauth/token`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic(client.appId, client.appSecret),
        },
        payload: form.toString(),
      };
    },
  },
};
