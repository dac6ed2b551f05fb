// Failed logins are counted per account and client address in the database, so the limit
// holds across instances. Past LOGIN_MAX_FAILURES in LOGIN_WINDOW_SECONDS the login answers 429
// with Retry-After until the window ends; a successful login clears the count. Failed client
// authentications at the OAuth token endpoint are counted the same way (docs/decisions.md, Bounds of images,
// sessions and client authentication), under the account `oauth-client:<appId>` (a login e-mail has no such
// form), with their own error.
import { fail, type ErrorKey } from '../../errors/catalogue.ts';
import type { AppDeps } from '../../http/context.ts';
import * as repo from './authentication.repo.ts';

export async function assertNotThrottled(
  deps: AppDeps,
  account: string,
  address: string,
  error: ErrorKey = 'TOO_MANY_LOGIN_FAILURES',
): Promise<void> {
  const row = await repo.findLoginFailures(deps.database.db, account, address);
  if (!row || row.count < deps.config.loginMaxFailures) return;
  const windowEnd = row.windowStart.getTime() + deps.config.loginWindowSeconds * 1000;
  const wait = Math.ceil((windowEnd - deps.now().getTime()) / 1000);
  if (wait > 0) fail(error, { retryAfterSeconds: wait }, { 'Retry-After': String(wait) });
}

export async function recordFailure(deps: AppDeps, account: string, address: string): Promise<void> {
  const now = deps.now();
  const windowFloor = new Date(now.getTime() - deps.config.loginWindowSeconds * 1000);
  await repo.countLoginFailure(deps.database.db, account, address, now, windowFloor);
}

export async function clearFailures(deps: AppDeps, account: string, address: string): Promise<void> {
  await repo.deleteLoginFailures(deps.database.db, account, address);
}

/** The account under which failed authentications of an OAuth client are counted. */
export const clientAccount = (appId: string) => `oauth-client:${appId}`;
