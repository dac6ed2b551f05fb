// The charges ledger (docs/billing.md, "Charges"): what each subscription change charges,
// as the items of the one pricing function, recorded in the change's transaction; the billing run
// invoices the rows without invoice_id and sets it.
import { date, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import type { PricedItem } from './pricing.ts';

export const billingCharges = pgTable(
  'billing_charges',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull(),
    /** The subscriber. */
    companyId: text('company_id').notNull(),
    /** The BP DR or VAD that is invoiced (docs/billing.md, "Who is invoiced"). */
    invoicedCompanyId: text('invoiced_company_id').notNull(),
    currency: text('currency').notNull(),
    /** The UTC day of the change. */
    changeDate: date('change_date', { mode: 'string' }).notNull(),
    items: jsonb('items').$type<PricedItem[]>().notNull(),
    /** Set by the billing run that invoices the row. */
    invoiceId: text('invoice_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('billing_charges_invoice_idx').on(t.invoicedCompanyId, t.invoiceId),
    index('billing_charges_subscription_idx').on(t.subscriptionId),
  ],
);
