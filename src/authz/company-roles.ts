// Role lists that several sections of the policy speak of, defined once.
import { grant } from './grant.ts';

/**
 * The administrators of a company: superadmin any; bp_admin his own company and his End
 * Customers; organization_admin the companies of his organisation; company_admin his company.
 */
export const companyManagers = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'ownCompany'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];

/**
 * Those who see a company's administrators and its customisation (document 3): the operators
 * any company; bp_admin and bp_finance their own company and End Customers; organization_admin
 * the companies of his organisation; company_admin his company.
 */
export const companyOverseers = [
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
