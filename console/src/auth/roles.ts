// The caller's roles decide which menus and buttons appear (issue 28, point 1). The service
// decides what is allowed; these lists only avoid showing what would certainly be refused, and a
// refusal that still happens (403) is explained by ErrorNotice.
import { useSyncExternalStore } from 'react';
import { session, type SessionState } from './session.ts';
import { OPERATION_ROLES, ROLES } from '../api/roles.gen.ts';

export type Role = (typeof ROLES)[number];
export type OperationId = keyof typeof OPERATION_ROLES;

const isRole = (x: string): x is Role => (ROLES as readonly string[]).includes(x);

/** Every administrator role (document 1): all but `user`. */
export const ADMINS: readonly Role[] = ROLES.filter((r) => r !== 'user');

/**
 * Who sees companies beyond his own (listCompanies, getCompany): operators, BP and organisation
 * admins. A company_admin reads only his own company, so he gets no companies list nor picker.
 */
export const COMPANY_LISTERS: readonly Role[] = [
  'superadmin',
  'support',
  'business_admin',
  'bp_admin',
  'bp_finance',
  'organization_admin',
];

/**
 * The roles that, held alone, let a caller call `op`: the service's own policy table, read from
 * the OpenAPI document (`x-svc-roles`, generated into roles.gen.ts). A grant that needs two roles
 * together (an organization_admin who is also bp_finance) is left to the service to judge.
 */
export function rolesFor(op: OperationId): Role[] {
  const sets: readonly (readonly string[])[] = OPERATION_ROLES[op];
  return sets.flatMap((set) => (set.length === 1 && isRole(set[0]) ? [set[0]] : []));
}

export function useSession(): SessionState | null {
  return useSyncExternalStore(
    (l) => session.subscribe(l),
    () => session.current(),
  );
}

export function hasRole(s: SessionState | null, roles: readonly Role[] | undefined): boolean {
  if (!roles) return true;
  const held = s?.user.roles ?? [];
  return held.some((r) => (roles as readonly string[]).includes(r));
}

/** True when the signed-in user holds one of `roles`. */
export function useRoles(...roles: Role[]): boolean {
  return hasRole(useSession(), roles);
}
