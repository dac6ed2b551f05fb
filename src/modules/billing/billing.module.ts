// The billing module (issue 11; docs/billing.md): the one pricing function, the charges ledger the
// subscription changes write, quotations; invoices, billing runs and the invoicing files join it.
import { defineModule } from '../module.ts';
import { billingPolicy } from './billing.policy.ts';
import { billingErrors } from './billing.errors.ts';
import { quotationsOperations } from './quotations.operations.ts';

export const billingModule = defineModule({
  name: 'billing',
  operations: [...quotationsOperations],
  policy: billingPolicy,
  errors: billingErrors,
});
