// Whether some of a caller's grants, taken from a list that is not an operation's (a rule inside
// an operation: who may move a site, who may set a company's subscription flags), reach a given
// company. One indexed statement over the same relations as the policy table.
import { and, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { companies } from './companies.tables.ts';
import { heldGrants } from '../../../authz/evaluate.ts';
import type { Grant } from '../../../authz/grant.ts';
import { callerParams, relationSql } from '../../../authz/relations.ts';
import type { Caller } from '../../../authz/roles.ts';

/** True when one of the caller's grants among `list` reaches the company (it must exist). */
export async function grantsReachCompany(exec: Executor, caller: Caller, list: readonly Grant[], companyId: string): Promise<boolean> {
  const held = heldGrants(list, caller);
  if (held.length === 0) return false;
  if (held.some((g) => g.relation === 'any')) return true;
  const c = callerParams(caller);
  const scope = or(...[...new Set(held.map((g) => g.relation))].map((r) => relationSql(r, c, { company: companies.id })));
  const rows = await exec.select({ id: companies.id }).from(companies).where(and(eq(companies.id, companyId), scope ?? sql`FALSE`)).limit(1);
  return rows.length > 0;
}
