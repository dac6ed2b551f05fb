// Whether some of a caller's grants, taken from a list that is not an operation's own (a rule
// inside an operation: who may move a site, who sees every offer of a company rather than its
// demo offers), reach a given target. One indexed statement over the relations of the policy.
import { and, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { heldGrants } from './evaluate.ts';
import type { Grant } from './grant.ts';
import { callerParams, relationSql } from './relations.ts';
import type { Caller } from './roles.ts';
import { kindColumns, TARGETS, type TargetKindName } from './targets.ts';

/** True when one of the caller's grants among `list` reaches the target of `kind` with that id (it must exist). */
export async function grantsReach(
  exec: Executor,
  caller: Caller,
  list: readonly Grant[],
  kind: TargetKindName,
  id: string,
): Promise<boolean> {
  const held = heldGrants(list, caller);
  if (held.length === 0) return false;
  if (held.some((g) => g.relation === 'any')) return true;
  const t = TARGETS[kind];
  const c = callerParams(caller);
  const scope = or(...[...new Set(held.map((g) => g.relation))].map((r) => relationSql(r, c, kindColumns(kind))));
  const rows = await exec
    .select({ id: sql<string>`${t.id}` })
    .from(t.table)
    .where(and(eq(t.id, id), scope ?? sql`FALSE`))
    .limit(1);
  return rows.length > 0;
}
