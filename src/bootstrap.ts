// First-start data: each module's seed (the Default and Terminated companies of document 3, the
// default offer, the customisation templates...), the built-in applications (the console, in the
// Default company), then the first superadmin.
import type { Db } from './db/client.ts';
import {
  MODULES,
  defaultCompanyId,
  ensureBuiltInApplications,
  ensureFirstSuperadmin,
  generatePassword,
} from './modules/index.ts';

export { generatePassword };

/**
 * Runs every module's seed, in the order of the modules, then creates the built-in applications,
 * which need the Default company the companies module's seed makes; each step is idempotent.
 */
export async function ensureSystemCompanies(db: Db): Promise<{ defaultCompanyId: string }> {
  for (const m of MODULES) await m.seed?.(db);
  const companyId = await defaultCompanyId(db);
  await ensureBuiltInApplications(db, companyId);
  return { defaultCompanyId: companyId };
}

/**
 * Creates the first superadmin when none exists. Returns the generated password when one had
 * to be made up (the caller prints it once), undefined otherwise.
 */
export async function ensureSuperadmin(
  db: Db,
  email: string | undefined,
  password: string | undefined,
  seeded?: { defaultCompanyId: string },
) {
  // The seeds run once per start: the caller that just ran them passes their result.
  const { defaultCompanyId: companyId } = seeded ?? (await ensureSystemCompanies(db));
  return ensureFirstSuperadmin(db, companyId, email, password);
}
