// Policy of the hosted PBX: (greetings, group voicemail greetings) (document 2, roles; pbx.policy.ts for the CloudPBX's grants).
// Document 2, "What the service does": reads as for a CloudPBX (superadmin, support, bp_admin of
// its BP, organization_admin, company_admin, site_admin of its site); uploads, activations,
// restorations and deletions as for a CloudPBX's update (site_admin and support excluded).
import { grants, type PolicyEntry } from '../../authz/grant.ts';
import { manageCloudPbxGrants, readCloudPbxGrants } from './pbx.policy.ts';

export const greetingPolicy: Record<string, PolicyEntry> = {
  // Target: the CloudPBX of the path.
  listGreetings: grants(readCloudPbxGrants),
  getGreeting: grants(readCloudPbxGrants),
  getGreetingAudio: grants(readCloudPbxGrants),
  resetGreetings: grants(manageCloudPbxGrants),
  deleteGreeting: grants(manageCloudPbxGrants),
  activateGreeting: grants(manageCloudPbxGrants),
  restoreGreeting: grants(manageCloudPbxGrants),
  uploadGreeting: grants(manageCloudPbxGrants),
  // Target: the group under the CloudPBX of the path.
  listGroupGreetings: grants(readCloudPbxGrants),
  getGroupGreetingAudio: grants(readCloudPbxGrants),
  createGroupGreeting: grants(manageCloudPbxGrants),
  deleteGroupGreeting: grants(manageCloudPbxGrants),
  updateGroupGreetingAudio: grants(manageCloudPbxGrants),
};
