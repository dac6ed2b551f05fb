// Policy of users (route table, a supporting resource; rules in docs/decisions.md).
import { grant, grants, type PolicyEntry } from '../../../authz/grant.ts';

const readUserGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'ownCompany'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('bp_finance', 'ownCompany'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
  grant('site_admin', 'ownSite'),
  grant('user', 'self'),
];

const manageUserGrants = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'ownCompany', 'targetHasNoHigherRole'),
  grant('bp_admin', 'customerOfOwnBp', 'targetHasNoHigherRole'),
  grant('organization_admin', 'companyOfOwnOrganisation', 'targetHasNoHigherRole'),
  grant('company_admin', 'ownCompany', 'targetHasNoHigherRole'),
  grant('site_admin', 'ownSite', 'targetHasNoHigherRole'),
];

export const usersPolicy: Record<string, PolicyEntry> = {
  // The target of createUser is the company named in the body.
  createUser: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'ownCompany'),
      grant('bp_admin', 'customerOfOwnBp'),
      grant('organization_admin', 'companyOfOwnOrganisation'),
      grant('company_admin', 'ownCompany'),
    ],
    { visibleBy: 'getCompany' },
  ),
  listUsers: grants(readUserGrants),
  getUser: grants(readUserGrants),
  updateUser: grants([...manageUserGrants, grant('user', 'self', 'selfServiceFieldsOnly')], { visibleBy: 'getUser' }),
  deleteUser: grants(manageUserGrants, { visibleBy: 'getUser' }),
};
