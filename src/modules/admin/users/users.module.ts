// The users module: Users (document 1, Users and roles).
import { defineModule } from '../../module.ts';
import { userOperations } from './users.operations.ts';
import { usersPolicy } from './users.policy.ts';
import { usersErrors } from './users.errors.ts';
import { users } from './users.tables.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../../authz/targets.ts';

export const usersTargets = {
  user: targetKind(users, {
    cols: { company: users.companyId, site: users.siteId, owner: users.id },
    readBy: 'getUser',
    parents: { company: users.companyId, site: users.siteId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof usersTargets> {}
}

export const usersModule = defineModule({
  name: 'users',
  operations: userOperations,
  policy: usersPolicy,
  errors: usersErrors,
  targets: usersTargets,
});
