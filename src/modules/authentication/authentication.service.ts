// Tokens of the signed-in caller: renewing and logging out (doc 1, Authentication).
import { sessionOf, type Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';
import { issueToken, type TokenIssuer } from '../../shared/tokens.ts';
import * as repo from './authentication.repo.ts';
import { endOtherRefreshTokens } from './oauth/oauth.service.ts';

/** The caller's token is revoked and a new one, with a full lifetime, issued in one transaction. */
export function renewToken(issuer: TokenIssuer, db: Executor, caller: Caller): Promise<{ token: string }> {
  return db.transaction(async (tx) => {
    await repo.revokeSession(tx, sessionOf(caller), issuer.now);
    const { token } = await issueToken(issuer, tx, caller.userId, 'renew', caller.appId);
    return { token };
  });
}

/** Revokes the caller's token; every instance refuses it from then on. */
export async function logout(db: Executor, caller: Caller, now: Date): Promise<void> {
  await repo.revokeLiveSession(db, sessionOf(caller), now);
}

/**
 * A password change ends the account's other sessions (docs/security.md, Work, sessions and client
 * authentication). Every token of the user but the session `keep` is revoked and every refresh token not
 * bound to it deleted, in the caller's transaction; `keep` is the caller's own session when he changes his
 * own password.
 */
export async function endOtherSessions(
  exec: Executor,
  userId: string,
  keep: string | undefined,
  now: Date,
): Promise<void> {
  await repo.revokeOtherSessions(exec, userId, keep, now);
  await endOtherRefreshTokens(exec, userId, keep);
}
