// Policy of customisation (document 3; choices in docs/decisions.md, Customisation).
import { anyCaller, grants, type PolicyEntry } from '../../../authz/grant.ts';
import { companyManagers, companyOverseers } from '../../../authz/company-roles.ts';

// Who sees a company's customisation: as for getCompany of document 3, without its BP's readers.
const readCompanyGrants = companyOverseers;

// The administrators of the company.
const manageCompanyGrants = companyManagers;

export const customisationPolicy: Record<string, PolicyEntry> = {
  getServiceDescription: grants(readCompanyGrants),
  listCustomElements: grants(readCompanyGrants),
  getFeatureCustomisation: grants(readCompanyGrants),
  setFeatureCustomisation: grants(manageCompanyGrants, { visibleBy: 'getFeatureCustomisation' }),
  listCustomisationTemplates: anyCaller(
    'the templates are a catalogue of the platform; they hold nothing of any company',
  ),
  getCustomisationTemplate: anyCaller(
    'the templates are a catalogue of the platform; they hold nothing of any company',
  ),
  // The target is the company of the body (default the caller's); a userId is a second resource,
  // on which the caller needs the same grants (through the user's company).
  applyCustomisationTemplate: grants(manageCompanyGrants, {
    visibleBy: 'getFeatureCustomisation',
    second: { user: manageCompanyGrants },
  }),
};
