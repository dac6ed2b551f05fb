// Policy of companies (document 3, Companies).
import { anyCaller, grant, grants, publicOp, type Grant, type PolicyEntry } from '../../../authz/grant.ts';
import { companyOverseers } from '../../../authz/company-roles.ts';

// GET A/companies/{companyId}: "superadmin, support and business_admin any company; admin roles
// only own company and companies they manage, plus their BP company; bp_admin and bp_finance
// own company, their End Customers and BP company; those of a BP VAD also EC companies linked to
// their BP IR companies" (customerOfOwnBp covers the VAD case).
const readCompanyGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('business_admin', 'any'),
  grant('bp_admin', 'ownCompany'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('bp_admin', 'ownBpCompany'),
  grant('bp_finance', 'ownCompany'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant('bp_finance', 'ownBpCompany'),
  grant('organization_admin', 'ownCompany'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('organization_admin', 'ownBpCompany'),
  grant('company_admin', 'ownCompany'),
  grant('company_admin', 'ownBpCompany'),
  grant('site_admin', 'ownCompany'),
  grant('site_admin', 'ownBpCompany'),
];

/**
 * Doc 1, update subscription, rule 5 ("a bp_admin or bp_finance can forbid its EC administrators
 * to update subscriptions, or to do more than increase maxNumberUsers") and create subscription,
 * rule 7 (a VAD sets adminHasRightToUpdateSubscriptions on its BP IR companies): who sets the
 * flags adminHasRightToUpdateSubscriptions and adminAllowedUpdateSubscriptionsOps of a company.
 * The companies service lets these grants, and only these, change the flags.
 */
export const SUBSCRIPTION_FLAG_GRANTS: readonly Grant[] = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('bp_finance', 'customerOfOwnBp'),
];

export const companiesPolicy: Record<string, PolicyEntry> = {
  // Rule 1. The target is the company the new one is created under: the company named by bpId,
  // or the caller's own company when the body has none.
  createCompany: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'ownCompany'),
      grant('bp_finance', 'ownCompany'),
      grant('organization_admin', 'companyOfOwnOrganisation'),
    ],
    { visibleBy: 'getCompany' },
  ),
  // Rule 1: users of the Default company. The target is always the caller's own company (the
  // request names none), so every signed-in user reaches it; the service refuses with 403101
  // when it is not the Default company.
  createOwnCompany: grants([grant('user', 'any')]),
  listCompanies: grants(readCompanyGrants),
  getDefaultCompany: anyCaller(
    'every signed-in user reads the Default company (numberUsers only for its own users and operators)',
  ),
  getCompany: grants(readCompanyGrants),
  // "superadmin any company; other admins only their own company"; and the BP's bp_admin and
  // bp_finance on the companies of which it is the BP, for the subscription flags only (doc 1,
  // update subscription, rule 5). Superadmin-only fields stay a rule of the service (403102).
  updateCompany: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'ownCompany'),
      grant('bp_admin', 'customerOfOwnBp', 'subscriptionFlagsOnly'),
      grant('bp_finance', 'ownCompany'),
      grant('bp_finance', 'customerOfOwnBp', 'subscriptionFlagsOnly'),
      grant('organization_admin', 'ownCompany'),
      grant('company_admin', 'ownCompany'),
    ],
    { visibleBy: 'getCompany' },
  ),
  // "superadmin any company except Default and Terminated (a rule of the service, 403103);
  // bp_admin and bp_finance their End Customers; organization_admin companies of his
  // organisation; company_admin his company".
  deleteCompany: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'customerOfOwnBp'),
      grant('bp_finance', 'customerOfOwnBp'),
      grant('organization_admin', 'companyOfOwnOrganisation'),
      grant('company_admin', 'ownCompany'),
    ],
    { visibleBy: 'getCompany' },
  ),
  // Roles not given: those who manage the company (docs/decisions.md, Companies).
  setCompanyCustomData: grants(
    [
      grant('superadmin', 'any'),
      grant('bp_admin', 'ownCompany'),
      grant('bp_admin', 'customerOfOwnBp'),
      grant('bp_finance', 'ownCompany'),
      grant('bp_finance', 'customerOfOwnBp'),
      grant('organization_admin', 'companyOfOwnOrganisation'),
      grant('company_admin', 'ownCompany'),
    ],
    { visibleBy: 'getCompany' },
  ),
  listCompanyAdministrators: grants(companyOverseers, { visibleBy: 'getCompany' }),
  listCountries: publicOp('the list of allowed countries is public data (registration forms)'),
};
