// Policy of billing (issue 11): quotations (document 1, create a quotation, rule 1); the invoices
// and billing runs join this table.
import { grants, type PolicyEntry } from '../../authz/grant.ts';
import { quoters } from './quotations.policy.ts';

export const billingPolicy: Record<string, PolicyEntry> = {
  createQuotation: grants(quoters),
};
