// Policy of branding (document 3, Avatar and banner; choices in docs/decisions.md, Branding).
import { grant, grants, publicOp, type PolicyEntry } from '../grant.js';

// The administrators of the company. Only a superadmin handles the Default and Terminated
// companies: a rule of the service (403 SYSTEM_COMPANY_IMAGE), checked on the loaded company.
const manageImageGrants = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'ownCompany'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

const publicImage = publicOp('company avatars and banners are shown to everyone who sees the company, including in <img> elements that carry no token; company ids are unguessable');

export const brandingPolicy: Record<string, PolicyEntry> = {
  setCompanyAvatar: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  deleteCompanyAvatar: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  setCompanyBanner: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  deleteCompanyBanner: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  getCompanyAvatar: publicImage,
  getCompanyBanner: publicImage,
};
