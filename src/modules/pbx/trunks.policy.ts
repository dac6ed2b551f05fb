// Policy of the external trunks (document 2, External trunks; routes.md, CloudPBX: create,
// update and delete are supporting operations "(+)" of the route table, kept to superadmin: a
// trunk is the platform's link to an operator). Reads (docs/decisions.md, external trunks):
// superadmin and support all trunks; bp_admin "only trunks it may use" (its company in bpIds);
// company_admin and organization_admin the trunks their company may use (their company, or its
// BP, in bpIds); site_admin and user none.
import { grant, grants, type PolicyEntry } from '../../authz/grant.ts';

/** Who reads an external trunk (document 2, list external trunks). */
export const readTrunkGrants = [
  grant('superadmin', 'any'),
  grant('support', 'any'),
  grant('bp_admin', 'trunkOfOwnCompany'),
  grant('company_admin', 'trunkOfOwnCompany'),
  grant('company_admin', 'trunkOfOwnBp'),
  grant('organization_admin', 'trunkOfOwnCompany'),
  grant('organization_admin', 'trunkOfOwnBp'),
];

const manageTrunkGrants = [grant('superadmin', 'any')];

export const trunkPolicy: Record<string, PolicyEntry> = {
  listExternalTrunks: grants(readTrunkGrants),
  getExternalTrunk: grants(readTrunkGrants),
  createExternalTrunk: grants(manageTrunkGrants),
  updateExternalTrunk: grants(manageTrunkGrants),
  deleteExternalTrunk: grants(manageTrunkGrants),
};
