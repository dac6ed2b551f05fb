// First-start data: each module's seed (the Default and Terminated companies of document 3, the
// default offer, the customisation templates...), then the first superadmin.
import type { Db } from './db/client.ts';
import { MODULES, defaultCompanyId, ensureFirstSuperadmin, generatePassword } from './modules/index.ts';

export { generatePassword };

/** Runs every module's seed, in the order of the modules; each is idempotent. */
export async function ensureSystemCompanies(db: Db): Promise<{ defaultCompanyId: string }> {
  for (const m of MODULES) await m.seed?.(db);
  return { defaultCompanyId: await defaultCompanyId(db) };
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
