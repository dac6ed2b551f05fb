// The organisations module: Organisations (document 3, Organisations).
import { defineModule } from '../../module.ts';
import { organisationsOperations } from './organisations.operations.ts';
import { organisationsPolicy } from './organisations.policy.ts';
import { organisationsErrors } from './organisations.errors.ts';
import { organisations } from './organisations.tables.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../../authz/targets.ts';

export const organisationsTargets = {
  organisation: targetKind(organisations, {
    cols: { organisation: organisations.id },
    readBy: 'getOrganisation',
  }),
} satisfies Record<string, TargetKind>;

declare module '../../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof organisationsTargets> {}
}

export const organisationsModule = defineModule({
  name: 'organisations',
  operations: organisationsOperations,
  policy: organisationsPolicy,
  errors: organisationsErrors,
  targets: organisationsTargets,
});
