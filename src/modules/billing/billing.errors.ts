// Errors of the billing module: n = 700..799 (pricing, charges and quotations from 700;
// invoices, billing runs and invoicing files from 750).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const billingErrors = {
  // Pricing and charges (docs/billing.md, Pricing rules).
  OFFER_NO_PRICE_IN_CURRENCY: {
    status: 400,
    code: 400700,
    message: 'Bad Request: the offer has no price in the currency of the invoiced BP; it cannot be quoted or charged',
  },
  // Quotations (document 1, create a quotation, rules 2, 3 and 6).
  QUOTATION_MODEL_NOT_QUOTABLE: {
    status: 400,
    code: 400701,
    message:
      'Bad Request: only nb_users, flat_fee and nb_services offers with a price can be quoted (usage offers are billed on consumption)',
  },
  QUOTATION_NO_BP: {
    status: 400,
    code: 400702,
    message: 'Bad Request: the company is neither a BP company nor linked to one (a BP DR or VAD to invoice)',
  },
  QUOTATION_OFFER_OR_SUBSCRIPTION: {
    status: 400,
    code: 400703,
    message:
      'Bad Request: give offerId (a new subscription) or subscriptionId (a change to one), not both, not neither',
  },
  QUOTATION_INCREASE_ONLY: {
    status: 400,
    code: 400704,
    message:
      'Bad Request: a quotation of a change raises maxNumberUsers and/or prepaidDuration (12 to 60 months, prepaid offers); it lowers nothing',
  },
  QUOTATION_SUBSCRIPTION_TERMINATED: {
    status: 400,
    code: 400705,
    message: 'Bad Request: the subscription is terminated',
  },
  QUOTATION_QUANTITY_REQUIRED: {
    status: 400,
    code: 400706,
    message: 'Bad Request: maxNumberUsers (0 or more) is required to quote a new nb_users or nb_services subscription',
  },
  QUOTATION_PREPAID_DURATION_OF_SUBSCRIPTION: {
    status: 400,
    code: 400707,
    message:
      "Bad Request: prepaidDuration quotes the extension of an existing prepaid subscription (subscriptionId); a new one takes its offer's prepaidDuration",
  },
  // Invoices, billing runs and invoicing files (docs/billing.md, Invoices and Files), from 750.
  BILLING_PERIOD_INVALID: {
    status: 400,
    code: 400750,
    message: 'Bad Request: billingPeriod is a month of the form YYYY-MM, not later than next month',
  },
  INVOICES_BP_ONLY: {
    status: 400,
    code: 400751,
    message: 'Bad Request: only BP DR and BP VAD companies have invoices',
  },
  INVOICE_FILE_NOT_FOUND: {
    status: 404,
    code: 404750,
    message: 'Not Found: no invoice file of this company has this id',
  },
  INVOICING_FILE_NOT_FOUND: {
    status: 404,
    code: 404751,
    message: 'Not Found: no invoicing file you may read has this path',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof billingErrors, true> {}
}
