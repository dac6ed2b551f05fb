// The face of the sites module (docs/architecture.md, "Modules"): all that other modules use of
// sites. Their files import this one, never the module's repository, service or tables (a
// `*.tables.ts` may import sites.tables.ts for a foreign key).
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { sites } from './sites.tables.ts';

export { systemsOfSite } from './sites.hooks.ts';

/** Whether the company has a site (companies: a company with sites keeps its isCentrex). */
export async function hasSites(exec: Executor, companyId: string): Promise<boolean> {
  const rows = await exec.select({ id: sites.id }).from(sites).where(eq(sites.companyId, companyId)).limit(1);
  return rows.length > 0;
}

/** The sites of a company, by name (customisation: the service description). */
export async function companySites(exec: Executor, companyId: string) {
  return exec
    .select({ name: sites.name, status: sites.status, creationDate: sites.creationDate })
    .from(sites)
    .where(eq(sites.companyId, companyId))
    .orderBy(asc(sites.name), asc(sites.id));
}
