// The caller's roles decide which menus and buttons appear (issue 28, point 1). The service
// decides what is allowed; these lists only avoid showing what would certainly be refused, and a
// refusal that still happens (403) is explained by ErrorNotice.
import { useSyncExternalStore } from 'react';
import { session, type SessionState } from './session.ts';

export type Role =
  | 'superadmin'
  | 'support'
  | 'business_admin'
  | 'bp_admin'
  | 'bp_finance'
  | 'organization_admin'
  | 'company_admin'
  | 'site_admin'
  | 'user';

/** Every administrator role (document 1): all but `user`. */
export const ADMINS: readonly Role[] = [
  'superadmin',
  'support',
  'business_admin',
  'bp_admin',
  'bp_finance',
  'organization_admin',
  'company_admin',
  'site_admin',
];

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
