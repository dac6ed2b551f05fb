// The companies module: Companies (document 3, Companies).
import { defineModule } from '../../module.ts';
import { companiesOperations } from './companies.operations.ts';
import { companiesPolicy } from './companies.policy.ts';
import { companiesErrors } from './companies.errors.ts';
import { seedCompanies } from './companies.seed.ts';
import { companies } from './companies.tables.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../../authz/targets.ts';
import { companyFacts } from './companies.api.ts';
import { companyOrganisationShared as sharedOrganisation } from './companies.repo.ts';
import { companyIsBP, companyOrganisationShared } from '../users/users.api.ts';

// Installed with the module: users asks whether a company is a BP (users' hook).
companyIsBP.provide(async (exec, companyId) => (await companyFacts(exec, companyId))?.isBP === true);
companyOrganisationShared.provide(sharedOrganisation);

export const companiesTargets = {
  company: targetKind(companies, {
    cols: { company: companies.id, companyBp: companies.bpId, companyOrganisation: companies.organisationId },
    readBy: 'getCompany',
    parents: { organisation: companies.organisationId, company: companies.bpId },
  }),
} satisfies Record<string, TargetKind>;

declare module '../../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof companiesTargets> {}
}

export const companiesModule = defineModule({
  name: 'companies',
  operations: companiesOperations,
  policy: companiesPolicy,
  errors: companiesErrors,
  targets: companiesTargets,
  seed: seedCompanies,
});
