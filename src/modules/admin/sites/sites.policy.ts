// Policy of sites (document 3, Sites; decisions in docs/decisions.md).
import { grant, grants, type Grant, type PolicyEntry } from '../../../authz/grant.ts';

/** Document 3, list sites of a company: site_admin is denied (403 on his own company). */
const listCompanySitesGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

/** Document 3, get site: superadmin, support, bp_admin (End Customers), organization_admin, company_admin, site_admin (own site). */
const readSiteGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
  grant('site_admin', 'ownSite'),
];

/** The administrators of a site's company: create, update (rename, status) and delete sites. */
const manageSiteGrants = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

/**
 * Document 3, update site: "only a bp admin or an admin of the site's organisation may move a
 * site (change companyId)", and only to a company he administers too (the destination).
 */
const moveSiteGrants: readonly Grant[] = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
];

export const sitesPolicy: Record<string, PolicyEntry> = {
  // Target: the company of the body. Those who see the company but may not add sites get 403.
  createSite: grants(manageSiteGrants),
  listAllSites: grants(readSiteGrants),
  // Target: the company of the path. A site_admin (who sees his company) gets 403.
  listCompanySites: grants(listCompanySitesGrants),
  getSite: grants(readSiteGrants),
  // A company_admin renames his sites or changes their status; moving one is for the movers.
  updateSite: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'customerOfOwnBp'),
      grant('organization_admin', 'companyOfOwnOrganisation'),
      grant('company_admin', 'ownCompany', 'siteStaysInItsCompany'),
    ],
    { second: { destination: moveSiteGrants } },
  ),
  deleteSite: grants(manageSiteGrants),
};
