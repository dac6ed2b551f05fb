// Policy of telephone systems and their phone numbers (document 3, Systems and sites, Phone
// numbers of a system; decisions in docs/decisions.md, "Telephone systems").
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';

/** Document 3, get system: superadmin and support all; bp_admin End Customer systems; organization_admin; company_admin; site_admin (own site). */
const readSystemGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
  grant('site_admin', 'ownSite'),
];

/** The administrators who manage a system: those of its company, its BP and its organisation. */
const manageSystemGrants = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

/** Document 3, update a phone number: superadmin; bp_admin for End Customer systems; other admins for systems they manage (a site_admin his site's). */
const updatePhoneNumberGrants = [...manageSystemGrants, grant('site_admin', 'ownSite')];

export const systemsPolicy: Record<string, PolicyEntry> = {
  // Target: the site of the body; the system belongs to its company.
  createSystem: grants(manageSystemGrants),
  listSystems: grants(readSystemGrants),
  // Target: the site of the path.
  listSiteSystems: grants(readSystemGrants),
  getSystem: grants(readSystemGrants),
  updateSystem: grants(manageSystemGrants),
  deleteSystem: grants(manageSystemGrants),
  resetPbxAgentPassword: grants(manageSystemGrants),
  // Target: the site; document 3: site_admin is denied (403 on his own site).
  linkSystemToSite: grants(manageSystemGrants),
  unlinkSystemFromSite: grants(manageSystemGrants),
  // Target: the system of the path.
  listSystemPhoneNumbers: grants(readSystemGrants),
  createSystemPhoneNumbers: grants(manageSystemGrants),
  // Target: the phone number, under the system of the path.
  getSystemPhoneNumber: grants(readSystemGrants),
  updateSystemPhoneNumber: grants(updatePhoneNumberGrants),
};
