// The evaluator: applies the policy table to a caller and the resources of a request.
// Outcome rule of the route table: a caller who may not know that the target exists gets the
// same 404 as for a missing one; a caller who can see it (or a parent its path names) but may not
// act gets 403.
// Seeing is reading: the grants of the read operation of the target's kind (TARGETS.readBy), of
// the parent's kind, and of the entry's `visibleBy`.
import { or, type SQL } from 'drizzle-orm';
import { fail } from '../errors/catalogue.ts';
import type { Grant, GrantsEntry } from './grant.ts';
import { CONDITION_ERRORS, CONDITIONS } from './conditions.ts';
import { POLICY } from './policy.ts';
import { callerParams, callerValues, relationSql, type RelationName, type TargetColumns } from './relations.ts';
import type { Caller, Role } from './roles.ts';
import { TARGETS, type TargetKindName } from './targets.ts';

export type Holds = (r: RelationName) => boolean;

/** A grant is held by a caller holding every role it names. */
const heldBy = (g: Grant, roles: readonly Role[]) => g.roles.every((r) => roles.includes(r));

export function heldGrants(list: readonly Grant[], caller: Caller): Grant[] {
  return list.filter((g) => heldBy(g, caller.roles));
}

export function grantsEntry(operationId: string): GrantsEntry | undefined {
  const entry = POLICY[operationId];
  if (!entry) throw new Error(`operation ${operationId} has no policy entry`);
  return entry.kind === 'grants' ? entry : undefined;
}

export function grantsOf(operationId: string): readonly Grant[] {
  return grantsEntry(operationId)?.grants ?? [];
}

/** The grants that make a target of `kind` visible to a caller (its kind's read operation). */
export function readGrantsOf(kind: TargetKindName): readonly Grant[] {
  const entry = POLICY[TARGETS[kind].readBy];
  return entry?.kind === 'grants' ? entry.grants : [];
}

/** The grants besides the operation's own that make its target visible: visibleBy and the kind's readers. */
export function visibilityGrantsOf(operationId: string, kind: TargetKindName): readonly Grant[] {
  const visibleBy = grantsEntry(operationId)?.visibleBy;
  return [...(visibleBy ? grantsOf(visibleBy) : []), ...readGrantsOf(kind)];
}

export function secondGrantsOf(operationId: string, name: string): readonly Grant[] {
  const list = grantsEntry(operationId)?.second?.[name];
  if (!list)
    throw new Error(
      `operation ${operationId} declares a second resource '${name}' that its policy entry does not grant`,
    );
  return list;
}

function collect(lists: readonly (readonly Grant[])[]): Map<RelationName, Set<Role>> {
  const out = new Map<RelationName, Set<Role>>();
  for (const g of lists.flat()) {
    const roles = out.get(g.relation) ?? new Set<Role>();
    g.roles.forEach((r) => roles.add(r));
    out.set(g.relation, roles);
  }
  return out;
}

/**
 * Every relation the decision may need on each loaded resource, with the roles whose grants name
 * it; with `roles`, only those of the grants a caller holding exactly these roles holds (the
 * decision of such a caller reads no other).
 */
export function relationsNeeded(
  operationId: string,
  kind: TargetKindName,
  parentKinds: readonly TargetKindName[],
  second: { name: string; kind: TargetKindName }[],
  roles?: readonly Role[],
) {
  const held = (lists: readonly (readonly Grant[])[]) =>
    collect(roles ? lists.map((l) => l.filter((g) => heldBy(g, roles))) : lists);
  return {
    target: held([grantsOf(operationId), visibilityGrantsOf(operationId, kind)]),
    // A parent of the path is loaded to tell 403 from 404: who may read it sees its children.
    parents: parentKinds.map((k) => held([readGrantsOf(k)])),
    second: second.map((s) => held([secondGrantsOf(operationId, s.name), readGrantsOf(s.kind)])),
  };
}

/** Whether the caller may read a loaded resource of `kind` (the grants of its kind's read operation). */
export function canRead(caller: Caller, kind: TargetKindName, holds: Holds): boolean {
  return heldGrants(readGrantsOf(kind), caller).some((g) => holds(g.relation));
}

/**
 * Decides on a loaded target, given which relations hold between the caller and it (and its
 * parents named by the path). Returns normally when the caller may act; throws 403 or 404 otherwise.
 */
export function decide(
  caller: Caller,
  operationId: string,
  kind: TargetKindName,
  holds: Holds,
  target: Record<string, unknown>,
  body: unknown,
  parents: readonly { kind: TargetKindName; holds: Holds }[] = [],
): void {
  const own = heldGrants(grantsOf(operationId), caller);
  const input = { caller, target, body };
  if (own.some((g) => holds(g.relation) && (!g.condition || CONDITIONS[g.condition](input)))) return;
  // A grant that reaches the target but whose condition refused: that condition's own error.
  const refusedBy = own.find((g) => holds(g.relation) && g.condition)?.condition;
  if (refusedBy) fail(CONDITION_ERRORS[refusedBy] ?? 'FORBIDDEN', { operationId, condition: refusedBy });
  const visible =
    own.some((g) => holds(g.relation)) ||
    heldGrants(visibilityGrantsOf(operationId, kind), caller).some((g) => holds(g.relation)) ||
    parents.some((p) => heldGrants(readGrantsOf(p.kind), caller).some((g) => p.holds(g.relation)));
  if (visible) fail('FORBIDDEN', { operationId });
  fail('NOT_FOUND', { target: kind, id: target.id });
}

/** A second resource: the caller needs one of its grants on it; seeing it without one is 403. */
export function decideSecond(
  caller: Caller,
  operationId: string,
  name: string,
  kind: TargetKindName,
  holds: Holds,
  id: string | undefined,
): void {
  if (heldGrants(secondGrantsOf(operationId, name), caller).some((g) => holds(g.relation))) return;
  if (heldGrants(readGrantsOf(kind), caller).some((g) => holds(g.relation)))
    fail('FORBIDDEN', { operationId, resource: name });
  fail('NOT_FOUND', { target: kind, id });
}

/**
 * The WHERE clause restricting a list to what the caller may see through the operation's grants,
 * or undefined when a held grant reaches any target. A caller with no grant at all gets 403.
 */
export function scopeFilter(
  caller: Caller,
  operationId: string,
  cols: TargetColumns,
): { where: SQL | undefined; key: string } {
  const held = heldGrants(grantsOf(operationId), caller);
  if (held.length === 0) fail('FORBIDDEN', { operationId });
  return { where: grantsScope(held, caller, cols), key: scopeKey(held, caller) };
}

/**
 * What grantsScope's clause depends on, as a string: the held relations and the caller's values
 * they read (callerValues, the same values callerParams binds). Two callers with the same key get
 * the same clause for an operation, so a list statement built for one serves the other
 * (src/db/list-count.ts, `buildKey`).
 */
function scopeKey(held: readonly Grant[], caller: Caller): string {
  if (held.some((g) => g.relation === 'any')) return 'any';
  const relations = [...new Set(held.map((g) => g.relation))].sort().join(',');
  return JSON.stringify([relations, callerValues(caller)]);
}

/** The WHERE clause of some held grants over a kind's columns: undefined when one is `any`. */
export function grantsScope(held: readonly Grant[], caller: Caller, cols: TargetColumns): SQL | undefined {
  if (held.some((g) => g.relation === 'any')) return undefined;
  const c = callerParams(caller);
  return or(...[...new Set(held.map((g) => g.relation))].map((r) => relationSql(r, c, cols)));
}
