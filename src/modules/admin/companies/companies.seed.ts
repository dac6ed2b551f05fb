// First-start data of the companies module: the Default and Terminated companies of document 3
// (the commerce module's seed, which runs after, gives them the default subscription).
import { eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import { companies } from './companies.tables.ts';
import { newId } from '../../../shared/ids.ts';

export const DEFAULT_COMPANY_NAME = 'Default';
export const TERMINATED_COMPANY_NAME = 'Terminated';

export async function seedCompanies(db: Db): Promise<void> {
  // Read first: a restart finds both and writes nothing (an insert that conflicts still runs the
  // table's statement triggers and commits: some 150 ms of an embedded restart).
  const present = new Set(
    (await db.select({ role: companies.systemRole }).from(companies).where(isNotNull(companies.systemRole))).map(
      (r) => r.role,
    ),
  );
  for (const [role, name] of [
    ['default', DEFAULT_COMPANY_NAME],
    ['terminated', TERMINATED_COMPANY_NAME],
  ] as const) {
    if (present.has(role)) continue;
    await db.insert(companies).values({ id: newId(), name, systemRole: role, status: 'active' }).onConflictDoNothing();
  }
}

/** The id of the Default company (it exists once the companies module is seeded). */
export async function defaultCompanyId(db: Db): Promise<string> {
  const [d] = await db.select({ id: companies.id }).from(companies).where(eq(companies.systemRole, 'default'));
  if (!d) throw new Error('the Default company is missing: seed the modules first');
  return d.id;
}
