// SQL of OAuth: authorization codes and refresh tokens, stored by their SHA-256.
import { and, eq, isNull, lt, ne, or } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { oauthCodes, oauthRefreshTokens } from './oauth.tables.ts';
import { sessions } from '../../../shared/auth.tables.ts';
import { userIsTerminated } from '../../admin/users/users.api.ts';

export type NewCode = typeof oauthCodes.$inferInsert;
export type CodeRow = typeof oauthCodes.$inferSelect;
export type NewRefreshToken = typeof oauthRefreshTokens.$inferInsert;
export type RefreshTokenRow = typeof oauthRefreshTokens.$inferSelect;

export async function deleteExpiredCodes(exec: Executor, now: Date): Promise<void> {
  await exec.delete(oauthCodes).where(lt(oauthCodes.expiresAt, now));
}

export async function insertCode(exec: Executor, code: NewCode): Promise<void> {
  await exec.insert(oauthCodes).values(code);
}

/** The code and whether its user is terminated. */
export async function findCode(
  exec: Executor,
  codeHash: string,
): Promise<{ code: CodeRow; terminated: boolean } | undefined> {
  const [row] = await exec
    .select({ code: oauthCodes, terminated: userIsTerminated(oauthCodes.userId) })
    .from(oauthCodes)
    .where(eq(oauthCodes.codeHash, codeHash));
  return row;
}

/** True when this call deleted the code (DELETE ... RETURNING: of two concurrent calls, one wins). */
export async function deleteCode(exec: Executor, codeHash: string): Promise<boolean> {
  const gone = await exec
    .delete(oauthCodes)
    .where(eq(oauthCodes.codeHash, codeHash))
    .returning({ h: oauthCodes.codeHash });
  return gone.length > 0;
}

export async function deleteExpiredRefreshTokens(exec: Executor, userId: string, now: Date): Promise<void> {
  await exec
    .delete(oauthRefreshTokens)
    .where(and(eq(oauthRefreshTokens.userId, userId), lt(oauthRefreshTokens.expiresAt, now)));
}

export async function insertRefreshToken(exec: Executor, token: NewRefreshToken): Promise<void> {
  await exec.insert(oauthRefreshTokens).values(token);
}

/** The refresh token, whether its user is terminated and when the session it is bound to was revoked. */
export async function findRefreshToken(
  exec: Executor,
  tokenHash: string,
): Promise<{ token: RefreshTokenRow; terminated: boolean; sessionRevokedAt: Date | null } | undefined> {
  const [row] = await exec
    .select({
      token: oauthRefreshTokens,
      terminated: userIsTerminated(oauthRefreshTokens.userId),
      sessionRevokedAt: sessions.revokedAt,
    })
    .from(oauthRefreshTokens)
    .leftJoin(sessions, eq(sessions.id, oauthRefreshTokens.sessionId))
    .where(eq(oauthRefreshTokens.tokenHash, tokenHash));
  return row;
}

/** True when this call deleted the refresh token (of two concurrent calls, one wins). */
export async function deleteRefreshToken(exec: Executor, tokenHash: string): Promise<boolean> {
  const gone = await exec
    .delete(oauthRefreshTokens)
    .where(eq(oauthRefreshTokens.tokenHash, tokenHash))
    .returning({ h: oauthRefreshTokens.tokenHash });
  return gone.length > 0;
}

/** Deletes the user's refresh tokens but those bound to the session `keep`. */
export async function deleteOtherRefreshTokens(
  exec: Executor,
  userId: string,
  keep: string | undefined,
): Promise<void> {
  const bound =
    keep === undefined ? undefined : or(isNull(oauthRefreshTokens.sessionId), ne(oauthRefreshTokens.sessionId, keep));
  await exec.delete(oauthRefreshTokens).where(and(eq(oauthRefreshTokens.userId, userId), bound));
}
