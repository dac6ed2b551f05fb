// The sites module: Sites (document 3, Sites).
import { defineModule } from '../../module.ts';
import { sitesOperations } from './sites.operations.ts';
import { sitesPolicy } from './sites.policy.ts';
import { sitesErrors } from './sites.errors.ts';
import { sites } from './sites.tables.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../../authz/targets.ts';

export const sitesTargets = {
  site: targetKind(sites, {
    cols: { company: sites.companyId, site: sites.id },
    readBy: 'getSite',
    parents: { company: sites.companyId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof sitesTargets> {}
}

export const sitesModule = defineModule({
  name: 'sites',
  operations: sitesOperations,
  policy: sitesPolicy,
  errors: sitesErrors,
  targets: sitesTargets,
});
