// The authorisation policy: one entry per operationId, written in the form of the
// specification's role lists ("bp_admin: End Customer companies of which its company is the
// BP"). `npm run policy` prints it as markdown; test/authz/matrix.test.ts derives one case per
// operation x role x (in scope, out of scope) from it.
import { anyCaller, grant, grants, publicOp, type PolicyEntry } from './grant.js';

// Reused role lists: each is the wording of one specification line, defined once.
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

const readApplicationGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('company_admin', 'ownCompany'),
  grant('user', 'self'),
];

const manageApplicationGrants = [grant('superadmin', 'any'), grant('company_admin', 'ownCompany'), grant('user', 'self')];

export const POLICY: Record<string, PolicyEntry> = {
  // Authentication (doc 1)
  login: publicOp('credentials are the request itself (Basic)'),
  renewToken: anyCaller('any valid token may be renewed'),
  logout: anyCaller('any valid token may be revoked by its holder'),
  validateToken: anyCaller('tells whether the presented token is valid'),
  oauthAuthorize: publicOp('the user signs in on the request (Basic or Bearer)'),
  oauthToken: publicOp('the client authenticates with its appId and appSecret'),

  // Applications (+)
  createApplication: anyCaller('every user may register an application of his own, in his company'),
  listApplications: grants(readApplicationGrants),
  getApplication: grants(readApplicationGrants),
  updateApplication: grants(manageApplicationGrants, { visibleBy: 'getApplication' }),
  deleteApplication: grants(manageApplicationGrants, { visibleBy: 'getApplication' }),
  renewApplicationSecret: grants(manageApplicationGrants, { visibleBy: 'getApplication' }),

  // Users (+): the target of createUser is the company named in the body.
  createUser: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'ownCompany'),
      grant('bp_admin', 'customerOfOwnBp'),
      grant('organization_admin', 'companyOfOwnOrganisation'),
      grant('company_admin', 'ownCompany'),
    ],
    { visibleBy: 'getUser' },
  ),
  listUsers: grants(readUserGrants),
  getUser: grants(readUserGrants),
  updateUser: grants([...manageUserGrants, grant('user', 'self', 'selfServiceFieldsOnly')], { visibleBy: 'getUser' }),
  deleteUser: grants(manageUserGrants, { visibleBy: 'getUser' }),
};
