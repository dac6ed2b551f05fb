// Policy of sites (document 3, Sites; decisions in docs/decisions.md).
import { grant, grants, type Grant, type PolicyEntry } from '../grant.ts';

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
 * site (change companyId)". Not an operation: the sites service requires one of these grants to
 * reach both the site's company and the destination company (src/modules/admin/sites).
 */
export const SITE_MOVE_GRANTS: readonly Grant[] = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
];

export const sitesPolicy: Record<string, PolicyEntry> = {
  // Target: the company of the body. Those who see the company but may not add sites get 403.
  createSite: grants(manageSiteGrants, { visibleBy: 'getCompany' }),
  listAllSites: grants(readSiteGrants),
  // Target: the company of the path. A site_admin (who sees his company) gets 403.
  listCompanySites: grants(listCompanySitesGrants, { visibleBy: 'getCompany' }),
  getSite: grants(readSiteGrants),
  updateSite: grants(manageSiteGrants, { visibleBy: 'getSite' }),
  deleteSite: grants(manageSiteGrants, { visibleBy: 'getSite' }),
};
