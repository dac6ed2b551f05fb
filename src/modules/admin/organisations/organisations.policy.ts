// Policy of organisations (document 3, Organisations; decisions in docs/decisions.md).
// Document 3 does not say who manages organisations: superadmin creates, changes and deletes
// them and links or unlinks their companies; support reads; an organization_admin reads his own
// organisation (the one of his company, read on every request) and its companies.
import { grant, grants, type PolicyEntry } from '../../../authz/grant.ts';

const readOrganisationGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('organization_admin', 'ownOrganisation'),
];
const manageOrganisationGrants = [grant('superadmin', 'any')];

export const organisationsPolicy: Record<string, PolicyEntry> = {
  createOrganisation: grants(manageOrganisationGrants),
  listOrganisations: grants(readOrganisationGrants),
  getOrganisation: grants(readOrganisationGrants),
  updateOrganisation: grants(manageOrganisationGrants, { visibleBy: 'getOrganisation' }),
  deleteOrganisation: grants(manageOrganisationGrants, { visibleBy: 'getOrganisation' }),
  // The target is the organisation of the path; the company of the body is a second resource.
  linkCompanyToOrganisation: grants(manageOrganisationGrants, {
    visibleBy: 'getOrganisation',
    second: { company: manageOrganisationGrants },
  }),
  listOrganisationCompanies: grants(readOrganisationGrants),
  // The target is the company of the path, under its organisation.
  unlinkCompanyFromOrganisation: grants(manageOrganisationGrants),
};
