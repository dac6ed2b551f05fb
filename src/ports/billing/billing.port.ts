// The billing system: accounts of the invoiced companies (BP DR and VAD, document 1), their
// subscriptions to rate plans, and the invoices it issues. Amounts are decimal strings, never floats.

export interface BillingAccount {
  id: string;
  accountNumber: string;
  companyId: string;
  name: string;
  currency: string;
  createdAt: string;
}

export interface BillingSubscription {
  id: string;
  accountId: string;
  ratePlanId: string;
  ratePlanChargeId: string | null;
  quantity: number;
  /** Price of one unit for one period in the account's currency (decimal text), from the rate plan; null when it has none in that currency. */
  unitPrice: string | null;
  status: 'active' | 'cancelled';
  startDate: string;
  endDate: string | null;
}

export interface InvoiceItem {
  subscriptionId: string;
  chargeName: string;
  chargeDescription?: string;
  productName?: string;
  unitOfMeasure?: string;
  quantity: number;
  /** Decimal string in the account's currency. */
  chargeAmount: string;
  taxAmount: string;
  serviceStartDate: string;
  serviceEndDate: string;
}

export interface Invoice {
  id: string;
  accountId: string;
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  currency: string;
  amount: string;
  status: 'Posted';
  items: InvoiceItem[];
}

export interface BillingPort {
  /**
   * The price of a rate plan in a currency (decimal text): per user per month (nb_users,
   * nb_services), per month (flat_fee). Undefined when the rate plan has no price in it.
   */
  ratePlanPrice(ratePlanId: string, currency: string): Promise<string | undefined>;
  createAccount(a: { companyId: string; name: string; currency: string }): Promise<BillingAccount>;
  findAccount(companyId: string): Promise<BillingAccount | undefined>;
  /** Idempotent by `reference`, as OrdersPort.createOrder: a repeated call answers the subscription the first one made. */
  createSubscription(s: {
    reference: string;
    accountId: string;
    ratePlanId: string;
    ratePlanChargeId?: string;
    quantity: number;
    startDate: string;
  }): Promise<BillingSubscription>;
  updateSubscription(id: string, change: { quantity: number }): Promise<BillingSubscription>;
  cancelSubscription(id: string, endDate: string): Promise<BillingSubscription>;
  getSubscription(id: string): Promise<BillingSubscription | undefined>;
  createInvoice(i: { accountId: string; invoiceDate: string; dueDate: string; items: InvoiceItem[] }): Promise<Invoice>;
  listInvoices(accountId: string): Promise<Invoice[]>;
}
