// Policy of applications (route table, a supporting resource).
import { anyCaller, grant, grants, type PolicyEntry } from '../../authz/grant.ts';

const readApplicationGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('company_admin', 'ownCompany'),
  grant('user', 'self'),
];

const manageApplicationGrants = [
  grant('superadmin', 'any'),
  grant('company_admin', 'ownCompany'),
  grant('user', 'self'),
];

export const applicationsPolicy: Record<string, PolicyEntry> = {
  createApplication: anyCaller('every user may register an application of his own, in his company'),
  listApplications: grants(readApplicationGrants),
  getApplication: grants(readApplicationGrants),
  updateApplication: grants(manageApplicationGrants, { visibleBy: 'getApplication' }),
  deleteApplication: grants(manageApplicationGrants, { visibleBy: 'getApplication' }),
  renewApplicationSecret: grants(manageApplicationGrants, { visibleBy: 'getApplication' }),
};
