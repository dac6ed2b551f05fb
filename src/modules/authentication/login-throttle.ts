// Failed logins are counted per account and client address in the database, so the limit
// holds across instances. Past LOGIN_MAX_FAILURES in LOGIN_WINDOW_SECONDS the login answers 429
// with Retry-After until the window ends; a successful login clears the count.
import { and, eq, sql } from 'drizzle-orm';
import { loginFailures } from './authentication.tables.ts';
import { fail } from '../../errors/catalogue.ts';
import type { AppDeps } from '../../http/context.ts';

function where(account: string, address: string) {
  return and(eq(loginFailures.account, account), eq(loginFailures.address, address));
}

export async function assertNotThrottled(deps: AppDeps, account: string, address: string): Promise<void> {
  const [row] = await deps.database.db.select().from(loginFailures).where(where(account, address));
  if (!row || row.count < deps.config.loginMaxFailures) return;
  const windowEnd = row.windowStart.getTime() + deps.config.loginWindowSeconds * 1000;
  const wait = Math.ceil((windowEnd - deps.now().getTime()) / 1000);
  if (wait > 0) fail('TOO_MANY_LOGIN_FAILURES', { retryAfterSeconds: wait }, { 'Retry-After': String(wait) });
}

export async function recordFailure(deps: AppDeps, account: string, address: string): Promise<void> {
  const now = deps.now();
  const windowFloor = new Date(now.getTime() - deps.config.loginWindowSeconds * 1000);
  await deps.database.db
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

export async function clearFailures(deps: AppDeps, account: string, address: string): Promise<void> {
  await deps.database.db.delete(loginFailures).where(where(account, address));
}
