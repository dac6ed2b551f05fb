// The face of the organisations module (docs/architecture.md, "Modules"): all that other modules
// use of organisations. Their files import this one, never the module's repository, service or
// tables (a `*.tables.ts` may import organisations.tables.ts for a foreign key).
import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { organisations } from './organisations.tables.ts';

/** The name of the organisation of that id (customisation: the service description). */
export async function organisationName(exec: Executor, id: string): Promise<string | undefined> {
  const [row] = await exec.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, id));
  return row?.name;
}
