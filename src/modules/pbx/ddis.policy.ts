// Policy of the hosted PBX: (DDI numbers) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
// Document 2, "What the service does": reads as for a CloudPBX (superadmin, support, bp_admin of
// its BP, organization_admin, company_admin, site_admin of its site); creations, deletions and
// changes as for a CloudPBX's update (site_admin and support excluded). The ddiReadOnly rule of
// create and delete (a BP IR's bp_admin) reads the companies' flags: in ddis.service.ts.
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants, readCloudPbxGrants } from './pbx.policy.ts';

/**
 * The user of the path of assignDdiToUser and unassignDdiFromUser: one the caller may read
 * (document 3's readers of a user, as getUser), else 404 as for any resource out of reach.
 */
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

export const ddiPolicy: Record<string, PolicyEntry> = {
  // Target: the CloudPBX of the path.
  listDdis: grants(readCloudPbxGrants),
  createDdi: grants(manageCloudPbxGrants),
  // Target: the DDI under the CloudPBX of the path.
  deleteDdi: grants(manageCloudPbxGrants),
  setDefaultDdi: grants(manageCloudPbxGrants),
  assignDdiToUser: grants(manageCloudPbxGrants, { second: { user: readUserGrants } }),
  unassignDdiFromUser: grants(manageCloudPbxGrants, { second: { user: readUserGrants } }),
};
