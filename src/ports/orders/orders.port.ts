// The partner order system: it knows the business partners' applicant numbers and takes the
// orders behind subscriptions (document 1: quotation rule 4, subscription creation rule 2 and
// the order side of the synchronisation of a subscription).

export interface Order {
  id: string;
  applicantNumber: string | null;
  companyId: string;
  offerReference: string;
  quantity: number;
  purchaseOrderNumber: string | null;
  status: 'open' | 'cancelled';
  createdAt: string;
  updatedAt: string;
}

export interface OrdersPort {
  /** GET S/companies/check-applicant-number: true when the partner order system knows it. */
  applicantExists(applicantNumber: string): Promise<boolean>;
  /** Records a partner in the order system (an operator's act there; here for the embedded one and demonstrations). */
  registerApplicant(applicantNumber: string, info: { companyName: string }): Promise<void>;
  /**
   * The order for `reference` (the caller's own name for it: a subscription's id). Idempotent: a
   * second call with the same reference makes nothing and answers the order the first one made, so
   * a synchronisation retried after an answer it never saw does not order twice.
   */
  createOrder(o: {
    reference: string;
    applicantNumber: string | null;
    companyId: string;
    offerReference: string;
    quantity: number;
    purchaseOrderNumber?: string;
  }): Promise<Order>;
  updateOrder(orderId: string, change: { quantity: number }): Promise<Order>;
  cancelOrder(orderId: string): Promise<Order>;
  getOrder(orderId: string): Promise<Order | undefined>;
}
