// First-start data of the users module: the first superadmin, in the Default company.
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../../db/client.ts';
import { users } from './users.tables.ts';
import { hashPassword, verifyPassword } from '../../../shared/passwords.ts';
import { newId } from '../../../shared/ids.ts';

/** A password that meets the policy: random, with each required class. */
export function generatePassword(): string {
  return `${randomBytes(18).toString('base64url')}aA1!`;
}

/**
 * Creates the first superadmin when none exists. Returns the generated password when one had
 * to be made up (the caller prints it once), undefined otherwise.
 */
export async function ensureFirstSuperadmin(
  db: Db,
  defaultCompanyId: string,
  email: string | undefined,
  password: string | undefined,
): Promise<{ email: string; generatedPassword?: string } | undefined> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`'superadmin' = ANY(${users.roles})`)
    .limit(1);
  if (existing) return undefined;
  const loginEmail = email ?? 'superadmin@localhost';
  const generated = password ? undefined : generatePassword();
  await db.insert(users).values({
    id: newId(),
    companyId: defaultCompanyId,
    loginEmail,
    passwordHash: await hashPassword(password ?? generated!),
    firstName: 'Super',
    lastName: 'Admin',
    roles: ['superadmin', 'user'],
    adminType: 'undefined',
  });
  return { email: loginEmail, generatedPassword: generated };
}

/** The superadmin whose login is `email`, when his stored password is not `password` (SUPERADMIN_PASSWORD changed after the first start). */
export async function superadminPasswordDiffers(db: Db, email: string, password: string): Promise<boolean> {
  const [u] = await db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(sql`${users.loginEmail} = ${email} AND 'superadmin' = ANY(${users.roles})`)
    .limit(1);
  return u !== undefined && !(await verifyPassword(u.hash, password));
}

/**
 * Sets the password of the superadmin `email` (npm run reset-superadmin-password). Returns false
 * when no superadmin has that login.
 */
export async function resetSuperadminPassword(db: Db, email: string, password: string): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(sql`${users.loginEmail} = ${email} AND 'superadmin' = ANY(${users.roles})`)
    .returning({ id: users.id });
  return rows.length > 0;
}
