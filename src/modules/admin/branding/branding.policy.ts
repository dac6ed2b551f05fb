// Policy of branding (document 3, Avatar and banner; choices in docs/decisions.md, Branding).
import { grants, publicOp, type PolicyEntry } from '../../../authz/grant.ts';
import { companyManagers } from '../../../authz/company-roles.ts';

// The administrators of the company. Only a superadmin handles the Default and Terminated
// companies: a rule of the service (403 SYSTEM_COMPANY_IMAGE), checked on the loaded company.
const manageImageGrants = companyManagers;

const publicImage = publicOp(
  'company avatars and banners are shown to everyone who sees the company, including in <img> elements that carry no token; company ids are unguessable',
);

export const brandingPolicy: Record<string, PolicyEntry> = {
  setCompanyAvatar: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  deleteCompanyAvatar: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  setCompanyBanner: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  deleteCompanyBanner: grants(manageImageGrants, { visibleBy: 'getServiceDescription' }),
  getCompanyAvatar: publicImage,
  getCompanyBanner: publicImage,
};
