// The roles of document 1, as the service names them.
export const ROLE_NAMES = [
  'superadmin',
  'support',
  'business_admin',
  'bp_admin',
  'bp_finance',
  'organization_admin',
  'company_admin',
  'site_admin',
  'user',
];
