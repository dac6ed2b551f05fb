// The evaluator: applies the policy table to a caller and a target.
// Outcome rule of the route table: a caller who may not know that the target exists gets the
// same 404 as for a missing one; a caller who can see it but may not act gets 403.
import { or, type SQL } from 'drizzle-orm';
import { fail } from '../errors/catalogue.ts';
import type { Grant } from './grant.ts';
import { CONDITIONS } from './conditions.ts';
import { POLICY } from './policy.ts';
import { callerParams, relationSql, type RelationName, type TargetColumns } from './relations.ts';
import type { Caller, Role } from './roles.ts';

export function heldGrants(list: readonly Grant[], caller: Caller): Grant[] {
  return list.filter((g) => g.roles.every((r) => caller.roles.includes(r)));
}

export function grantsOf(operationId: string): readonly Grant[] {
  const entry = POLICY[operationId];
  if (!entry) throw new Error(`operation ${operationId} has no policy entry`);
  return entry.kind === 'grants' ? entry.grants : [];
}

export function visibilityGrantsOf(operationId: string): readonly Grant[] {
  const entry = POLICY[operationId];
  return entry?.kind === 'grants' && entry.visibleBy ? grantsOf(entry.visibleBy) : [];
}

/** Every relation an operation's decision may need, with the roles whose grants name it. */
export function relationsOf(operationId: string): Map<RelationName, Set<Role>> {
  const out = new Map<RelationName, Set<Role>>();
  for (const g of [...grantsOf(operationId), ...visibilityGrantsOf(operationId)]) {
    const roles = out.get(g.relation) ?? new Set<Role>();
    g.roles.forEach((r) => roles.add(r));
    out.set(g.relation, roles);
  }
  return out;
}

/**
 * Decides on a loaded target, given which relations hold between the caller and it.
 * Returns normally when the caller may act; throws 403 or 404 otherwise.
 */
export function decide(
  caller: Caller,
  operationId: string,
  holds: (r: RelationName) => boolean,
  target: Record<string, unknown>,
  body: unknown,
  targetKind: string,
): void {
  const opGrants = heldGrants(grantsOf(operationId), caller);
  const allowed = opGrants.some((g) => holds(g.relation) && (!g.condition || CONDITIONS[g.condition]({ caller, target, body })));
  if (allowed) return;
  const visible = opGrants.some((g) => holds(g.relation)) || heldGrants(visibilityGrantsOf(operationId), caller).some((g) => holds(g.relation));
  if (visible) fail('FORBIDDEN', { operationId });
  fail('NOT_FOUND', { target: targetKind, id: target.id });
}

/**
 * The WHERE clause restricting a list to what the caller may see through the operation's grants,
 * or undefined when a held grant reaches any target. A caller with no grant at all gets 403.
 */
export function scopeFilter(caller: Caller, operationId: string, cols: TargetColumns): SQL | undefined {
  const held = heldGrants(grantsOf(operationId), caller);
  if (held.length === 0) fail('FORBIDDEN', { operationId });
  if (held.some((g) => g.relation === 'any')) return undefined;
  const c = callerParams(caller);
  return or(...[...new Set(held.map((g) => g.relation))].map((r) => relationSql(r, c, cols)));
}

/** For targetless operations: true when at least one grant of the caller's roles applies. */
export function holdsAnyGrant(caller: Caller, operationId: string): boolean {
  return heldGrants(grantsOf(operationId), caller).length > 0;
}
