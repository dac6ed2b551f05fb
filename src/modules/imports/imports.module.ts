// The imports module: bulk import of users and devices from CSV (document 3, Bulk import of users
// and devices; route table, Bulk import; issue 27). The work of an import runs as a job
// (imports.jobs.ts) that acts for the administrator who asked.
import { defineModule } from '../module.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';
import { importsOperations } from './imports.operations.ts';
import { importsPolicy } from './imports.policy.ts';
import { importErrors } from './imports.errors.ts';
import { importCommands, imports } from './imports.tables.ts';
import { defineImportJobs } from './imports.jobs.ts';

export const importsTargets = {
  // An import request (its report) belongs to the company imported into.
  importRequest: targetKind(imports, {
    cols: { company: imports.companyId },
    readBy: 'getImportReport',
    parents: { company: imports.companyId },
  }),
  // The last results of a commandId, of the company of the check or import that recorded them.
  importCommand: targetKind(importCommands, {
    cols: { company: importCommands.companyId },
    readBy: 'getImportReportForCommand',
    parents: { company: importCommands.companyId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof importsTargets> {}
}

export const importsModule = defineModule({
  name: 'imports',
  operations: importsOperations,
  policy: importsPolicy,
  errors: importErrors,
  targets: importsTargets,
  jobs: defineImportJobs,
});
