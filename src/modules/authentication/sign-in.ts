// Signing in with a login email and a password: the one path of login and of OAuth's authorize.
// Failed attempts count towards the per account and address limit; a terminated user, or a user
// of a terminated company (document 3: a deleted company is disabled), cannot sign in.
import { fail } from '../../errors/catalogue.ts';
import type { AppDeps } from '../../http/context.ts';
import { findUserByLoginEmail, type UserRow } from '../admin/users/users.api.ts';
import * as repo from './authentication.repo.ts';
import { assertNotThrottled, clearFailures, recordFailure } from './login-throttle.ts';
import { verifyPassword } from '../../shared/passwords.ts';

async function companyTerminated(deps: AppDeps, companyId: string): Promise<boolean> {
  return (await repo.companyStatus(deps.database.db, companyId)) === 'terminated';
}

export async function signInWithPassword(
  deps: AppDeps,
  email: string,
  password: string,
  address: string,
  challenge?: Record<string, string>,
): Promise<UserRow> {
  const account = email.toLowerCase();
  await assertNotThrottled(deps, account, address);
  const user = await findUserByLoginEmail(deps.database.db, email);
  const ok = await verifyPassword(user?.passwordHash, password);
  if (!ok || !user || user.isTerminated || (await companyTerminated(deps, user.companyId))) {
    await recordFailure(deps, account, address);
    fail('BAD_CREDENTIALS', undefined, challenge);
  }
  await clearFailures(deps, account, address);
  return user;
}
