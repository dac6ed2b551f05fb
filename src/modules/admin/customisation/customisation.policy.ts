// Policy of customisation (document 3; choices in docs/decisions.md, Customisation).
import { anyCaller, grant, grants, type PolicyEntry } from '../../../authz/grant.ts';
import { companyManagers } from '../../../authz/company-roles.ts';

// Who sees a company, as for getCompany of document 3.
const readCompanyGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('business_admin', 'any'),
  grant('bp_admin', 'ownCompany'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('bp_finance', 'ownCompany'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

// The administrators of the company.
const manageCompanyGrants = companyManagers;

export const customisationPolicy: Record<string, PolicyEntry> = {
  getServiceDescription: grants(readCompanyGrants),
  listCustomElements: grants(readCompanyGrants),
  getFeatureCustomisation: grants(readCompanyGrants),
  setFeatureCustomisation: grants(manageCompanyGrants, { visibleBy: 'getFeatureCustomisation' }),
  listCustomisationTemplates: anyCaller('the templates are a catalogue of the platform; they hold nothing of any company'),
  getCustomisationTemplate: anyCaller('the templates are a catalogue of the platform; they hold nothing of any company'),
  // The target is the company of the body (default the caller's); a userId is a second resource,
  // on which the caller needs the same grants (through the user's company).
  applyCustomisationTemplate: grants(manageCompanyGrants, { visibleBy: 'getFeatureCustomisation', second: { user: manageCompanyGrants } }),
};
