// The join module: Join-company links, self-registration and join invitations (document 3).
import { defineModule } from '../../module.ts';
import { joinOperations } from './join.operations.ts';
import { joinPolicy } from './join.policy.ts';
import { joinErrors } from './join.errors.ts';
import { joinCompanyLinks, joinInvitations } from './join.tables.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../../authz/targets.ts';

export const joinTargets = {
  joinLink: targetKind(joinCompanyLinks, {
    cols: { company: joinCompanyLinks.companyId },
    readBy: 'getJoinCompanyLink',
    parents: { company: joinCompanyLinks.companyId },
  }),
  joinInvitation: targetKind(joinInvitations, {
    cols: { company: joinInvitations.companyId },
    readBy: 'listJoinInvitations',
    parents: { company: joinInvitations.companyId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof joinTargets> {}
}

export const joinModule = defineModule({
  name: 'join',
  operations: joinOperations,
  policy: joinPolicy,
  errors: joinErrors,
  targets: joinTargets,
});
