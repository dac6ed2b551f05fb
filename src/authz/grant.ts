import type { Role } from './roles.ts';
import type { RelationName } from './relations.ts';
import type { ConditionName } from './conditions.ts';

/**
 * One line of a role list of the specification: "role (with these other roles): relation
 * to the target [only when condition]". `roles` are all required together.
 */
export interface Grant {
  roles: readonly Role[];
  relation: RelationName;
  condition?: ConditionName;
}

export function grant(role: Role | readonly Role[], relation: RelationName, condition?: ConditionName): Grant {
  return { roles: typeof role === 'string' ? [role] : role, relation, condition };
}

/** A policy entry: who may call the operation. `public` needs no caller at all. */
export type PolicyEntry =
  | { kind: 'public'; why: string }
  | { kind: 'authenticated'; why: string }
  | { kind: 'grants'; grants: readonly Grant[]; visibleBy?: string };

export const publicOp = (why: string): PolicyEntry => ({ kind: 'public', why });
export const anyCaller = (why: string): PolicyEntry => ({ kind: 'authenticated', why });
export const grants = (list: readonly Grant[], opts: { visibleBy?: string } = {}): PolicyEntry => ({
  kind: 'grants',
  grants: list,
  visibleBy: opts.visibleBy,
});
