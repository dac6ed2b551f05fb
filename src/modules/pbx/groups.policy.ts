// Policy of the hosted PBX: (groups, group forwards) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
// Document 2, "What the service does": the objects of a CloudPBX are read by those who read it
// (superadmin, support, bp_admin of its End Customer, organization_admin, company_admin, site_admin
// of its site) and changed by those who change it (site_admin and support excluded). A group's
// operations target the group under the CloudPBX of the path; the collection targets the CloudPBX.
import { grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants, readCloudPbxGrants } from './pbx.policy.ts';

export const groupPolicy: Record<string, PolicyEntry> = {
  createGroup: grants(manageCloudPbxGrants),
  listGroups: grants(readCloudPbxGrants),
  getGroup: grants(readCloudPbxGrants),
  updateGroup: grants(manageCloudPbxGrants),
  deleteGroup: grants(manageCloudPbxGrants),
  getGroupForwards: grants(readCloudPbxGrants),
  updateGroupForward: grants(manageCloudPbxGrants),
};
