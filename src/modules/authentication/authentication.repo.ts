// SQL of authentication: failed logins, the status of a user's company, the revocation of sessions.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companyFacts } from '../admin/companies/companies.api.ts';
import { loginFailures } from './authentication.tables.ts';
import { sessions } from '../../shared/auth.tables.ts';

export type LoginFailureRow = typeof loginFailures.$inferSelect;

function failuresOf(account: string, address: string) {
  return and(eq(loginFailures.account, account), eq(loginFailures.address, address));
}

export async function findLoginFailures(
  exec: Executor,
  account: string,
  address: string,
): Promise<LoginFailureRow | undefined> {
  const [row] = await exec.select().from(loginFailures).where(failuresOf(account, address));
  return row;
}

/** Counts one more failure, or starts a new window at `now` when the current one began before `windowFloor`. */
export async function countLoginFailure(
  exec: Executor,
  account: string,
  address: string,
  now: Date,
  windowFloor: Date,
): Promise<void> {
  await exec
    .insert(loginFailures)
    .values({ account, address, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: [loginFailures.account, loginFailures.address],
      set: {
        count: sql`CASE WHEN ${loginFailures.windowStart} < ${windowFloor.toISOString()} THEN 1 ELSE ${loginFailures.count} + 1 END`,
        windowStart: sql`CASE WHEN ${loginFailures.windowStart} < ${windowFloor.toISOString()} THEN ${now.toISOString()}::timestamptz ELSE ${loginFailures.windowStart} END`,
      },
    });
}

export async function deleteLoginFailures(exec: Executor, account: string, address: string): Promise<void> {
  await exec.delete(loginFailures).where(failuresOf(account, address));
}

export async function companyStatus(exec: Executor, companyId: string): Promise<string | undefined> {
  return (await companyFacts(exec, companyId))?.status;
}

export async function revokeSession(exec: Executor, sessionId: string, now: Date): Promise<void> {
  await exec.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/** Revokes the session unless it already is (its first revocation date stays). */
export async function revokeLiveSession(exec: Executor, sessionId: string, now: Date): Promise<void> {
  await exec
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Revokes every live session of the user but `keep` (the caller's own, when he changes his password). */
export async function revokeOtherSessions(
  exec: Executor,
  userId: string,
  keep: string | undefined,
  now: Date,
): Promise<void> {
  const others =
    keep === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, keep));
  await exec
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(others, isNull(sessions.revokedAt)));
}
