// The two ways into the console (issue 28, point 1), both public routes of the service:
// - password: GET login with Basic credentials, renewed by GET renew before expiry;
// - oauth: the authorization code grant with PKCE, the console being the service's own public
//   application `console` (created at first start, README "Console"): authorize with the same
//   credentials, the code comes back on /console/oauth/callback, the token endpoint exchanges it
//   with the verifier, and refresh tokens renew the session.
import { api } from '../api/client.ts';
import { ApiError, unwrap } from '../api/errors.ts';
import { challengeOf, randomText } from './pkce.ts';
import { session, sessionUser, tokenTimes, type SignInMethod, type User } from './session.ts';

export const CONSOLE_CLIENT_ID = 'console';
export const CALLBACK_PATH = '/console/oauth/callback';
const AU = '/api/svc/authentication/v1.0';

function basic(email: string, password: string): string {
  const bytes = new TextEncoder().encode(`${email}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

async function loadUser(token: string): Promise<User> {
  const { userId } = tokenTimes(token);
  const answer = await unwrap(
    api.GET('/api/svc/admin/v1.0/users/{userId}', {
      params: { path: { userId }, query: { format: 'full' } },
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  return sessionUser(answer.data);
}

async function begin(method: SignInMethod, token: string, refreshToken?: string): Promise<void> {
  const user = await loadUser(token);
  session.start({ method, token, refreshToken, user, ...tokenTimes(token) });
}

export async function signInWithPassword(email: string, password: string): Promise<void> {
  const answer = await unwrap(
    api.GET(`${AU}/login`, { headers: { authorization: basic(email, password) }, credentials: 'omit' }),
  );
  session.start({
    method: 'password',
    token: answer.token,
    user: sessionUser(answer.loggedInUser),
    ...tokenTimes(answer.token),
  });
}

type TokenAnswer = { access_token: string; refresh_token: string };

async function tokenRequest(form: Record<string, string>): Promise<TokenAnswer> {
  const res = await fetch(`${AU}/oauth/token`, {
    method: 'POST',
    credentials: 'omit',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: CONSOLE_CLIENT_ID, ...form }),
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, body);
  return body as TokenAnswer;
}

export async function signInWithOAuth(email: string, password: string): Promise<void> {
  const verifier = randomText();
  const state = randomText(16);
  const redirectUri = `${location.origin}${CALLBACK_PATH}`;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: CONSOLE_CLIENT_ID,
    redirect_uri: redirectUri,
    state,
    code_challenge: await challengeOf(verifier),
    code_challenge_method: 'S256',
  });
  // credentials 'omit': a refused password is shown by the form, never by the browser's own
  // Basic dialog. The 302 to the callback (same origin) is followed; its URL carries the code.
  const res = await fetch(`${AU}/oauth/authorize?${query}`, {
    headers: { authorization: basic(email, password) },
    credentials: 'omit',
  });
  if (!res.ok || !res.url.startsWith(redirectUri)) throw new ApiError(res.status, await res.json().catch(() => null));
  const back = new URL(res.url).searchParams;
  if (back.get('state') !== state) throw new Error('The authorization answer does not match this sign-in (state).');
  const code = back.get('code');
  if (!code) throw new Error(`Authorization refused: ${back.get('error_description') ?? back.get('error')}`);
  const tokens = await tokenRequest({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
  await begin('oauth', tokens.access_token, tokens.refresh_token);
}

/** Renews the token before it expires; a refusal ends the session with the reason. */
export async function renew(): Promise<void> {
  const s = session.current();
  if (!s) return;
  try {
    if (s.method === 'oauth' && s.refreshToken) {
      const t = await tokenRequest({ grant_type: 'refresh_token', refresh_token: s.refreshToken });
      session.update({ token: t.access_token, refreshToken: t.refresh_token, ...tokenTimes(t.access_token) });
    } else {
      const { token } = await unwrap(api.GET(`${AU}/renew`));
      session.update({ token, ...tokenTimes(token) });
    }
  } catch {
    session.endedElsewhere();
  }
}

export async function signOut(): Promise<void> {
  // The token stops being accepted on the service (logout), then the tab forgets it.
  await api.GET(`${AU}/logout`).catch(() => undefined);
  session.end('You have signed out.');
}
