// Who may do what in the hierarchy, from the service's policies (src/modules/admin/**/*.policy.ts).
// These lists only hide what a role would certainly be refused; the service decides on the target
// (own company, End Customer of its BP, …), and a refusal it still gives is explained (ErrorNotice).
import { COMPANY_LISTERS, rolesFor, type Role } from '../../auth/roles.ts';

/** listCompanies / getCompany of any company but their own (auth/roles.ts). */
export const COMPANY_LIST_ROLES = COMPANY_LISTERS;
/** createCompany (companies.policy.ts). */
export const COMPANY_CREATE_ROLES: readonly Role[] = rolesFor('createCompany');
/** updateCompany: every administrator of a company (superadmin-only fields are the service's rule). */
export const COMPANY_EDIT_ROLES: readonly Role[] = rolesFor('updateCompany');
/** deleteCompany: End Customers for a BP's admins, the organisation's for its admin, own for a company admin. */
export const COMPANY_DELETE_ROLES: readonly Role[] = rolesFor('deleteCompany');
/** Avatar, banner and customisation keys (companyManagers in src/authz/company-roles.ts). */
export const COMPANY_MANAGER_ROLES: Role[] = ['superadmin', 'bp_admin', 'organization_admin', 'company_admin'];
/** Join-company links (join.policy.ts: document 3, "company admin of the company"). */
export const JOIN_LINK_ROLES: readonly Role[] = rolesFor('createJoinCompanyLink');
export const JOIN_LINK_READ_ROLES: readonly Role[] = rolesFor('listJoinCompanyLinks');
/** Join invitations (+): also those who create companies. */
export const INVITATION_ROLES: readonly Role[] = rolesFor('createJoinInvitation');
export const INVITATION_READ_ROLES: readonly Role[] = rolesFor('listJoinInvitations');
/** Organisations (organisations.policy.ts): superadmin manages, support and organization_admin read. */
export const ORGANISATION_READ_ROLES: readonly Role[] = rolesFor('listOrganisations');
export const ORGANISATION_MANAGE_ROLES: readonly Role[] = rolesFor('createOrganisation');
/** listUsers (users.policy.ts): every administrator. */
export const USER_READ_ROLES: readonly Role[] = [
  'superadmin',
  'support',
  'bp_admin',
  'bp_finance',
  'organization_admin',
  'company_admin',
  'site_admin',
];
/** createUser, updateUser and deleteUser of others. */
export const USER_MANAGE_ROLES: readonly Role[] = rolesFor('createUser');
/** listCompanySites: site_admin is refused even on his own company (document 3). */
export const SITE_LIST_ROLES: readonly Role[] = rolesFor('listCompanySites');
export const SITE_MANAGE_ROLES: readonly Role[] = rolesFor('createSite');
/** Those without the companies list reach their own company through "My company". */
export const OWN_COMPANY_ROLES: readonly Role[] = ['company_admin', 'site_admin'];

/** The roles a caller may give (ASSIGNABLE_ROLES of src/authz/roles.ts); `user` is always held. */
const ASSIGNABLE: Partial<Record<Role, readonly Role[]>> = {
  superadmin: [
    'superadmin',
    'support',
    'business_admin',
    'bp_admin',
    'bp_finance',
    'organization_admin',
    'company_admin',
    'site_admin',
  ],
  bp_admin: ['bp_admin', 'bp_finance', 'company_admin', 'site_admin'],
  organization_admin: ['organization_admin', 'company_admin', 'site_admin'],
  company_admin: ['company_admin', 'site_admin'],
};

export function assignableRoles(held: readonly string[]): Role[] {
  const out = new Set<Role>();
  for (const [role, gives] of Object.entries(ASSIGNABLE)) if (held.includes(role)) for (const r of gives) out.add(r);
  return [...out];
}
