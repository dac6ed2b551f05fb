// First-start data: the Default and Terminated companies of document 3 and the first superadmin.
import { eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from './db/client.ts';
import { companies, users } from './db/schema.ts';
import { hashPassword } from './shared/passwords.ts';
import { newId } from './shared/ids.ts';
import { ensureDefaultOffer } from './modules/admin/companies/companies.repo.ts';
import { ensureCustomisationTemplates } from './modules/admin/customisation/customisation.keys.ts';

export const DEFAULT_COMPANY_NAME = 'Default';
export const TERMINATED_COMPANY_NAME = 'Terminated';

export async function ensureSystemCompanies(db: Db): Promise<{ defaultCompanyId: string }> {
  for (const [role, name] of [['default', DEFAULT_COMPANY_NAME], ['terminated', TERMINATED_COMPANY_NAME]] as const) {
    await db.insert(companies).values({ id: newId(), name, systemRole: role, status: 'active' }).onConflictDoNothing();
  }
  await ensureCustomisationTemplates(db);
  // Document 3, create company rule 7: the default offer, and a subscription to it for every company.
  await ensureDefaultOffer(db);
  const [d] = await db.select({ id: companies.id }).from(companies).where(eq(companies.systemRole, 'default'));
  return { defaultCompanyId: d!.id };
}

/** A password that meets the policy: random, with each required class. */
export function generatePassword(): string {
  return `${randomBytes(18).toString('base64url')}aA1!`;
}

/**
 * Creates the first superadmin when none exists. Returns the generated password when one had
 * to be made up (the caller prints it once), undefined otherwise.
 */
export async function ensureSuperadmin(db: Db, email: string | undefined, password: string | undefined): Promise<{ email: string; generatedPassword?: string } | undefined> {
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`'superadmin' = ANY(${users.roles})`).limit(1);
  if (existing) return undefined;
  const { defaultCompanyId } = await ensureSystemCompanies(db);
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
