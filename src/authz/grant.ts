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

/**
 * A policy entry: who may call the operation. `public` needs no caller at all; `authenticated`
 * any signed-in caller. `grants` lists who may act on the target (or, for a list, whose rows he
 * sees); `visibleBy` names another operation whose grants also make the target visible (403
 * rather than 404), beside the read operation of the target's kind and of its parent; `second`
 * gives, per second resource the operation acts on (a destination company, a subscription to
 * assign), the grants the caller needs on that resource too.
 */
export type PolicyEntry =
  | { kind: 'public'; why: string }
  | { kind: 'authenticated'; why: string }
  | {
      kind: 'grants';
      grants: readonly Grant[];
      visibleBy?: string;
      second?: Readonly<Record<string, readonly Grant[]>>;
    };

export type GrantsEntry = Extract<PolicyEntry, { kind: 'grants' }>;

export const publicOp = (why: string): PolicyEntry => ({ kind: 'public', why });
export const anyCaller = (why: string): PolicyEntry => ({ kind: 'authenticated', why });
export const grants = (
  list: readonly Grant[],
  opts: { visibleBy?: string; second?: Record<string, readonly Grant[]> } = {},
): PolicyEntry => ({
  kind: 'grants',
  grants: list,
  visibleBy: opts.visibleBy,
  second: opts.second,
});
