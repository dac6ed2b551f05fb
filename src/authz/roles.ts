import { isOneOf } from '../shared/json-values.ts';

// The roles of document 1. A user may hold several.
export const ROLES = [
  'superadmin',
  'support',
  'business_admin',
  'bp_admin',
  'bp_finance',
  'organization_admin',
  'company_admin',
  'site_admin',
  'user',
] as const;

export type Role = (typeof ROLES)[number];

export const ADMIN_ROLES: readonly Role[] = ROLES.filter((r) => r !== 'user');

export function isRole(x: string): x is Role {
  return isOneOf(ROLES, x);
}

/** Who is calling: loaded once per request from the token's session, in one query. */
export interface Caller {
  userId: string;
  /** The session of the token; null for a caller a job acts for (an import runs as its requester). */
  sessionId: string | null;
  appId: string | null;
  loginEmail: string;
  companyId: string;
  roles: readonly Role[];
  siteId: string | null;
  organisationId: string | null;
  companyIsBP: boolean;
  companyBpType: string | null;
  companyBpId: string | null;
}

/**
 * Which roles a caller may give to others (createUser, updateUser). Document 1 names the roles;
 * that an administrator can only hand out roles at or below his own is the rule users expect
 * of such a service (docs/decisions.md).
 */
export const ASSIGNABLE_ROLES: Record<Role, readonly Role[]> = {
  superadmin: ROLES,
  support: [],
  business_admin: [],
  bp_admin: ['bp_admin', 'bp_finance', 'company_admin', 'site_admin', 'user'],
  bp_finance: [],
  organization_admin: ['organization_admin', 'company_admin', 'site_admin', 'user'],
  company_admin: ['company_admin', 'site_admin', 'user'],
  site_admin: ['user'],
  user: [],
};

/** The caller's session, for the operations only a signed-in request performs (renew, logout). */
export function sessionOf(caller: Caller): string {
  if (caller.sessionId === null) throw new Error('this operation needs a signed-in session: a job cannot run it');
  return caller.sessionId;
}
