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
  createAccount(a: { companyId: string; name: string; currency: string }): Promise<BillingAccount>;
  findAccount(companyId: string): Promise<BillingAccount | undefined>;
  createSubscription(s: { accountId: string; ratePlanId: string; ratePlanChargeId?: string; quantity: number; startDate: string }): Promise<BillingSubscription>;
  updateSubscription(id: string, change: { quantity: number }): Promise<BillingSubscription>;
  cancelSubscription(id: string, endDate: string): Promise<BillingSubscription>;
  getSubscription(id: string): Promise<BillingSubscription | undefined>;
  createInvoice(i: { accountId: string; invoiceDate: string; dueDate: string; items: InvoiceItem[] }): Promise<Invoice>;
  listInvoices(accountId: string): Promise<Invoice[]>;
}
