// The evaluator: applies the policy table to a caller and a target, in SQL.
// Outcome rule of the route table: a caller who may not know that the target exists gets the
// same 404 as for a missing one; a caller who can see it but may not act gets 403.
import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { fail } from '../errors/catalogue.js';
import type { Grant } from './grant.js';
import { CONDITIONS } from './conditions.js';
import { POLICY } from './policy.js';
import { RELATIONS, type RelationName, type TargetColumns } from './relations.js';
import type { Caller } from './roles.js';
import { TARGETS, type TargetKindName } from './targets.js';

function heldGrants(list: readonly Grant[], caller: Caller): Grant[] {
  return list.filter((g) => g.roles.every((r) => caller.roles.includes(r)));
}

function grantsOf(operationId: string): readonly Grant[] {
  const entry = POLICY[operationId];
  if (!entry) throw new Error(`operation ${operationId} has no policy entry`);
  return entry.kind === 'grants' ? entry.grants : [];
}

/**
 * Loads the target row by id with one boolean per relation the caller's grants name, and decides.
 * Returns the row (plain columns) when the caller may act.
 */
export async function authorizeTarget(
  exec: Executor,
  caller: Caller,
  operationId: string,
  kindName: TargetKindName,
  id: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const entry = POLICY[operationId];
  const kind = TARGETS[kindName];
  const opGrants = heldGrants(grantsOf(operationId), caller);
  const visibleBy = entry?.kind === 'grants' ? entry.visibleBy : undefined;
  const visGrants = visibleBy ? heldGrants(grantsOf(visibleBy), caller) : [];
  const relations = [...new Set([...opGrants, ...visGrants].map((g) => g.relation))];

  const selection: Record<string, unknown> = { ...kind.columns };
  for (const r of relations) selection[`rel:${r}`] = sql<boolean>`(${RELATIONS[r](caller, kind.cols)})`.mapWith(Boolean);
  const rows = (await exec
    .select(selection as never)
    .from(kind.table)
    .where(eq(kind.id, id))
    .limit(1)) as Record<string, unknown>[];
  const row = rows[0];
  if (!row) fail('NOT_FOUND', { target: kindName, id });

  const holds = (r: RelationName) => row[`rel:${r}`] === true;
  const target: Record<string, unknown> = {};
  for (const k of Object.keys(kind.columns)) target[k] = row[k];

  const allowed = opGrants.some(
    (g) => holds(g.relation) && (!g.condition || CONDITIONS[g.condition]({ caller, target, body })),
  );
  if (allowed) return target;
  const visible = visGrants.some((g) => holds(g.relation)) || opGrants.some((g) => holds(g.relation));
  return fail(visible ? 'FORBIDDEN' : 'NOT_FOUND', visible ? { operationId } : { target: kindName, id });
}

/**
 * The WHERE clause restricting a list to what the caller may see through the operation's grants,
 * or undefined when a held grant reaches any target. A caller with no grant at all gets 403.
 */
export function scopeFilter(caller: Caller, operationId: string, cols: TargetColumns): SQL | undefined {
  const held = heldGrants(grantsOf(operationId), caller);
  if (held.length === 0) fail('FORBIDDEN', { operationId });
  if (held.some((g) => g.relation === 'any')) return undefined;
  const parts = [...new Set(held.map((g) => g.relation))].map((r) => RELATIONS[r](caller, cols));
  return or(...parts);
}

/** For targetless operations: true when at least one grant of the caller's roles applies. */
export function holdsAnyGrant(caller: Caller, operationId: string): boolean {
  return heldGrants(grantsOf(operationId), caller).length > 0;
}
