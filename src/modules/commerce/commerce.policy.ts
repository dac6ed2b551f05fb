// Policy of commerce (document 1, Commerce; the `+` operations of the route table: docs/decisions.md, Commerce).
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';
import { companyManagers, companyOverseers } from '../../authz/company-roles.ts';

/** Catalogs and offers are the platform's: superadmin manages them. */
const manageGrants = [grant('superadmin', 'any')];
/** Support reads them ("support: listed beside superadmin for read operations on any company"). */
const readGrants = [grant('superadmin', 'any'), grant('support', 'any')];

/**
 * Document 1, list offers of a company: "superadmin and support any company; business_admin demo
 * offers of any company (the service keeps the demo ones); bp_admin and bp_finance their own
 * company and End Customer / BP IR companies of which their company is the BP; organization_admin
 * companies of the organisation; company_admin own company; a user who is both bp_admin or
 * bp_finance and organization_admin: organisation companies plus the End Customers / BP IR linked
 * to BP companies of the organisation". Get an offer: the same.
 */
export const companyOffersGrants = [
  ...companyOverseers, // the same people document 3 lets oversee a company
  grant(['bp_admin', 'organization_admin'], 'customerOfOrganisationBp'),
  grant(['bp_finance', 'organization_admin'], 'customerOfOrganisationBp'),
];

/** Document 1, list and get subscriptions: those who oversee the company (no combined roles in their wording). */
const subscriptionReaders = companyOverseers;

/**
 * Licences (route table, Users; document 1 names no roles: docs/decisions.md, Licences): those who
 * administer the user's company (document 3: companyManagers) and its BP's bp_finance, who buys
 * and resizes its subscriptions (document 1, update subscription rule 7 sends him to unassign
 * users first). The caller needs the same grant over the subscription's company: a company_admin
 * of an End Customer of a BP IR does not hand out the IR's licences, the IR's administrators do.
 */
const licenceGrants = [...companyManagers, grant('bp_finance', 'ownCompany'), grant('bp_finance', 'customerOfOwnBp')];

/**
 * Document 1, list company features: "superadmin, support (any company); bp_admin, bp_finance
 * (End Customers of their company); organization_admin (organisation companies); company_admin
 * and user (own company)".
 */
const companyFeaturesGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
  grant('user', 'ownCompany'),
];

/**
 * Offer counters of a BP company (document 1 names no roles: docs/decisions.md, Licences): the
 * operators, and the BP's own bp_admin and bp_finance (a VAD's also those of its BP IR companies).
 */
const offerCountersGrants = companyOverseers.filter((g) =>
  g.roles.some((r) => r === 'superadmin' || r === 'support' || r === 'bp_admin' || r === 'bp_finance'),
);

/**
 * Who buys subscriptions for a company (document 1, create subscription rules 3 to 7), and
 * updates or deletes them. Rule 7: a BP IR's bp_finance buys for its End Customers
 * (customerOfOwnBp) or for its own BP IR company; a VAD's or DR's bp_finance never for its own
 * company (rule 1: resell only). Prepaid offers only and the VAD's flag: in the service.
 */
const buyers = [
  grant('superadmin', 'any'),
  grant('business_admin', 'any'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant('bp_finance', 'ownCompany', 'callerCompanyIsBpIr'),
  grant(['bp_finance', 'organization_admin'], 'companyOfOwnOrganisation'),
];

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
  // Licences name a subscription as second resource.
  getSubscription: grants(subscriptionReaders),
  // Licences (docs/decisions.md, Licences): the user's administrators, with the same grants on
  // the subscription the licence comes from.
  assignUserLicence: grants(licenceGrants, { second: { subscription: licenceGrants } }),
  unassignUserLicence: grants(licenceGrants, { second: { subscription: licenceGrants } }),
  listCompanyFeatures: grants(companyFeaturesGrants),
  listOfferCounters: grants(offerCountersGrants),
  // Document 1, list subscriptions: "superadmin, business_admin (demo subscriptions only) and
  // support any company; bp_admin and bp_finance their End Customers; organization_admin
  // organisation companies; company_admin own company"; get the default subscription: the same.
  listSubscriptions: grants(subscriptionReaders),
  getDefaultSubscription: grants(subscriptionReaders),
  // Document 1, create rules 3 to 6: superadmin and business_admin (demo offers: in the service)
  // any company; bp_finance End Customer / BP IR companies of which its company is the BP, with
  // organization_admin also the organisation's companies; other admins are denied.
  createSubscription: grants(buyers),
  // Document 1, update rule 4: bp_finance its End Customers (a BP IR's also its own company, as
  // create rule 7: docs/decisions.md); company_admin his own company (rule 5's flags in the service).
  updateSubscription: grants([...buyers, grant('company_admin', 'ownCompany')]),
  // Document 1, delete: superadmin any company; business_admin demo offers; bp_finance its End
  // Customers (a BP IR's also its own company, as create rule 7: docs/decisions.md).
  deleteSubscription: grants(buyers),
  // Route table +: the operators' retry of a synchronisation that gave up (docs/decisions.md, Subscriptions).
  retrySubscriptionSync: grants([grant('superadmin', 'any')]),
  // Document 1, check a BP applicant number (shape and callers: docs/decisions.md, Subscriptions).
  checkApplicantNumber: grants([
    grant('superadmin', 'any'),
    grant('support', 'any'),
    grant('bp_admin', 'any'),
    grant('bp_finance', 'any'),
  ]),
};
