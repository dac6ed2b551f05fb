// Errors of the billing module (issue 11): n = 700..799 (invoices and invoicing files from 750).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const billingErrors = {
  // Invoices, billing runs and invoicing files (docs/billing.md, Invoices and Files), from 750.
  BILLING_PERIOD_INVALID: { status: 400, code: 400750, message: 'Bad Request: billingPeriod is a month of the form YYYY-MM, not later than the current month' },
  INVOICES_BP_ONLY: { status: 400, code: 400751, message: 'Bad Request: only BP DR and BP VAD companies have invoices' },
  INVOICE_FILE_NOT_FOUND: { status: 404, code: 404750, message: 'Not Found: no invoice file of this company has this id' },
  INVOICING_FILE_NOT_FOUND: { status: 404, code: 404751, message: 'Not Found: no invoicing file you may read has this path' },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof billingErrors, true> {}
}
