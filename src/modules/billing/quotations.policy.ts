// Who quotes (document 1, create a quotation, rule 1): "only superadmin and bp_finance may quote
// (bp_finance: own company and End Customer / BP IR companies of which it is the BP; with
// organization_admin: the whole organisation ...). Admins alone are denied." The scope relations
// are those of createSubscription's buyers (src/modules/commerce/commerce.policy.ts), plus the
// bp_finance's own company.
import { grant } from '../../authz/grant.ts';

export const quoters = [
  grant('superadmin', 'any'),
  grant('bp_finance', 'ownCompany'),
  grant('bp_finance', 'customerOfOwnBp'),
  grant(['bp_finance', 'organization_admin'], 'companyOfOwnOrganisation'),
];
