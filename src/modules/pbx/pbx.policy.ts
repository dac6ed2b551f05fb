// Policy of the CloudPBX (document 2, "What the service does", roles): read by superadmin and
// support (all), bp_admin (CloudPBXs of sites of End Customers of its BP company),
// organization_admin (companies of its organisation), company_admin (its company), site_admin
// (its site). Create, update and delete: superadmin, bp_admin (its End Customer companies),
// organization_admin, company_admin; "site_admin is excluded unless stated", support reads only.
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';

/** Document 2: who reads a CloudPBX. */
export const readCloudPbxGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
  grant('site_admin', 'ownSite'),
];

/** Document 2: who creates, updates and deletes a CloudPBX. */
export const manageCloudPbxGrants = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

export const pbxPolicy: Record<string, PolicyEntry> = {
  // Target: the company named in the body (its site, a reference of the body).
  createCloudPbx: grants(manageCloudPbxGrants),
  listCloudPbxs: grants(readCloudPbxGrants),
  getCloudPbx: grants(readCloudPbxGrants),
  updateCloudPbx: grants(manageCloudPbxGrants),
  deleteCloudPbx: grants(manageCloudPbxGrants),
  // Options and reference data (options.operations.ts): target the CloudPBX of the path; reads as
  // getCloudPbx, updates as updateCloudPbx.
  listLanguages: grants(readCloudPbxGrants),
  getBarringOptions: grants(readCloudPbxGrants),
  getCustomNumbersRestriction: grants(readCloudPbxGrants),
  updateCustomNumbersRestriction: grants(manageCloudPbxGrants),
  getCliOptions: grants(readCloudPbxGrants),
  updateCliOptions: grants(manageCloudPbxGrants),
  getPeerAuthentication: grants(readCloudPbxGrants),
  updatePeerAuthentication: grants(manageCloudPbxGrants),
  updateOverflowOptions: grants(manageCloudPbxGrants),
  getEmergencyNumbers: grants(readCloudPbxGrants),
  listDeviceModels: grants(readCloudPbxGrants),
  getDeviceModel: grants(readCloudPbxGrants),
};
