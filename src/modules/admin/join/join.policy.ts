// Policy of join-company links, self-registration and join invitations (document 3, Join-company
// links: "Roles: company admin of the company"; route table: selfRegister, join invitations (+)).
// Decisions in docs/decisions.md, section "Join".
import { grant, grants, publicOp, type PolicyEntry } from '../../../authz/grant.ts';

// Document 3: company admin of the company; superadmin acts on any company (document 1), support
// reads any company. bp_admin and organization_admin are not in the document's list: not granted.
const manageLinkGrants = [grant('superadmin', 'any'), grant('company_admin', 'ownCompany')];
const readLinkGrants = [...manageLinkGrants, grant('support', 'any')];

// Invitations (+): also the administrators who create companies, so that they can bring in the
// first administrator of a company they created (the company `status` transitions of document 3).
const manageInvitationGrants = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'ownCompany'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('organization_admin', 'companyOfOwnOrganisation'),
  grant('company_admin', 'ownCompany'),
];
const readInvitationGrants = [...manageInvitationGrants, grant('support', 'any')];

export const joinPolicy: Record<string, PolicyEntry> = {
  createJoinCompanyLink: grants(manageLinkGrants, { visibleBy: 'getJoinCompanyLink' }),
  listJoinCompanyLinks: grants(readLinkGrants),
  getJoinCompanyLink: grants(readLinkGrants),
  updateJoinCompanyLink: grants(manageLinkGrants, { visibleBy: 'getJoinCompanyLink' }),
  deleteJoinCompanyLink: grants(manageLinkGrants, { visibleBy: 'getJoinCompanyLink' }),
  selfRegister: publicOp(
    'the join-company link id is the credential; the link must be enabled, unexpired and not full',
  ),
  createJoinInvitation: grants(manageInvitationGrants, { visibleBy: 'listJoinInvitations' }),
  listJoinInvitations: grants(readInvitationGrants),
  acceptJoinInvitation: publicOp('the invitation token (sent by e-mail) is the credential'),
};
