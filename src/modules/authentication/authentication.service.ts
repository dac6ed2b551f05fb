// Tokens of the signed-in caller: renewing and logging out (doc 1, Authentication).
import type { Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../http/context.ts';
import { issueToken } from '../../shared/tokens.ts';
import * as repo from './authentication.repo.ts';

/** The caller's token is revoked and a new one, with a full lifetime, issued in one transaction. */
export function renewToken(deps: AppDeps, db: Executor, caller: Caller, now: Date): Promise<{ token: string }> {
  return db.transaction(async (tx) => {
    await repo.revokeSession(tx, caller.sessionId, now);
    const { token } = await issueToken(deps, tx, caller.userId, 'renew', caller.appId);
    return { token };
  });
}

/** Revokes the caller's token; every instance refuses it from then on. */
export async function logout(db: Executor, caller: Caller, now: Date): Promise<void> {
  await repo.revokeLiveSession(db, caller.sessionId, now);
}
