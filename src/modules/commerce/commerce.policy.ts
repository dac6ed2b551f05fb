// Policy of commerce (document 1, Commerce; the `+` operations of the route table: docs/decisions.md, Commerce).
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';
import { companyOverseers } from '../../authz/company-roles.ts';

/** Catalogs and offers are the platform's: superadmin manages them. */
const manageGrants = [grant('superadmin', 'any')];
/** Support reads them ("support: listed beside superadmin for read operations on any company"). */
const readGrants = [grant('superadmin', 'any'), grant('support', 'any')];

/**
 * Document 1, list offers of a company: "superadmin and support any company; business_admin demo
 * offers of any company (the service keeps the demo ones); bp_admin and bp_finance their own
 * company and End Customer / BP IR companies of which their company is the BP; organization_admin
 * companies of the organisation; company_admin own company". Get an offer: the same.
 */
export const companyOffersGrants = companyOverseers; // the same people document 3 lets oversee a company

// Offers and catalogs are seen by their readers only (listAllOffers, getCatalog): others get 404.
export const commercePolicy: Record<string, PolicyEntry> = {
  createOffer: grants(manageGrants),
  listAllOffers: grants(readGrants),
  updateOffer: grants(manageGrants),
  deleteOffer: grants(manageGrants),
  createCatalog: grants(manageGrants),
  listCatalogs: grants(readGrants),
  getCatalog: grants(readGrants),
  updateCatalog: grants(manageGrants),
  deleteCatalog: grants(manageGrants),
  addOfferToCatalog: grants(manageGrants),
  removeOfferFromCatalog: grants(manageGrants),
  // The target is the company of the path: who reads the company (getCompany) but is not listed gets 403.
  listCompanyOffers: grants(companyOffersGrants),
  getCompanyOffer: grants(companyOffersGrants),
  // Document 1, get subscription: the roles of list subscriptions (business_admin: demo ones).
  // Declared before its operation so that licences can name a subscription as second resource.
  getSubscription: grants(companyOffersGrants),
};
