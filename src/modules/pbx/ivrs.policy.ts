// Policy of the hosted PBX: (welcome services, office hours) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
// Document 2: reads as for a CloudPBX (superadmin, support, bp_admin of its BP, organization_admin,
// company_admin, site_admin of its site); creations, changes and deletions as for a CloudPBX's
// update (site_admin and support excluded).
import { grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants, readCloudPbxGrants } from './pbx.policy.ts';

export const ivrPolicy: Record<string, PolicyEntry> = {
  // Target: the CloudPBX of the path.
  createWelcome: grants(manageCloudPbxGrants),
  listWelcomes: grants(readCloudPbxGrants),
  createWelcomeService: grants(manageCloudPbxGrants),
  listWelcomeServices: grants(readCloudPbxGrants),
  // Target: the welcome or welcome service under the CloudPBX of the path.
  getWelcome: grants(readCloudPbxGrants),
  updateWelcome: grants(manageCloudPbxGrants),
  deleteWelcome: grants(manageCloudPbxGrants),
  getOfficeHours: grants(readCloudPbxGrants),
  updateOfficeHours: grants(manageCloudPbxGrants),
};
