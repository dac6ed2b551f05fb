// The billing module (docs/billing.md): the one pricing function, the charges ledger the
// subscription changes write, quotations; invoices, billing runs and the invoicing files.
import { defineModule, type JobDeps } from '../module.ts';
import { targetKind, type TablesOf, type TargetKind } from '../../authz/targets.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { billingPolicy } from './billing.policy.ts';
import { billingErrors } from './billing.errors.ts';
import { quotationsOperations } from './quotations.operations.ts';
import { invoicingFiles } from './invoices.tables.ts';
import { invoicesOperations } from './invoices.operations.ts';
import { periodOf, runBilling } from './billing-runs.service.ts';
import { recordSubscriptionChange } from './charges.service.ts';
import { subscriptionChanged } from '../commerce/commerce.api.ts';

// Installed with the module: a subscription bought or changed records its charges (commerce's hook).
subscriptionChanged.register(recordSubscriptionChange);

export const billingTargets = {
  // The invoicing module's files belong to the invoiced company (docs/decisions.md, Invoicing files).
  invoicingFile: targetKind(invoicingFiles, {
    cols: { company: invoicingFiles.companyId },
    readBy: 'listInvoicingFiles',
  }),
} satisfies Record<string, TargetKind>;

declare module '../../authz/targets.ts' {
  interface TargetTables extends TablesOf<typeof billingTargets> {}
}

export const BILLING_RUN_JOB = 'billing.run';

/** The monthly billing run: on the 1st at 00:00 UTC, for the month that starts (docs/billing.md, Invoices). */
async function defineBillingJobs(queue: JobQueue, deps: JobDeps): Promise<void> {
  await queue.define(
    BILLING_RUN_JOB,
    async (data: { billingPeriod?: string }) => {
      await runBilling(
        { db: deps.db, ports: deps.ports, config: deps.config, now: deps.now, ...(deps.log ? { log: deps.log } : {}) },
        data.billingPeriod ?? periodOf(deps.now()),
        'billing-run',
      );
    },
    { retryLimit: 3, retryDelaySeconds: 300, expireInSeconds: 3600 },
  );
  await queue.schedule(BILLING_RUN_JOB, '0 0 1 * *');
}

export const billingModule = defineModule({
  name: 'billing',
  operations: [...quotationsOperations, ...invoicesOperations],
  policy: billingPolicy,
  errors: billingErrors,
  targets: billingTargets,
  jobs: defineBillingJobs,
});
