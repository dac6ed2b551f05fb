// The embedded partner order system: applicants and orders kept in port_records.
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records } from '../records.ts';
import type { Order, OrdersPort } from './orders.port.ts';

/**
 * The embedded system knows the applicants registered in it, those of its configuration
 * (ORDERS_APPLICANT_NUMBERS) and the bpApplicantNumber of every BP company: a superadmin sets
 * that number once the partner exists in the order system, which the embedded one takes as given.
 */
const KNOWN_TEXT = `SELECT (EXISTS (SELECT 1 FROM port_records WHERE port = 'orders' AND kind = 'applicant' AND id = $1)
  OR EXISTS (SELECT 1 FROM companies WHERE is_bp AND bp_applicant_number = $1)) AS known`;

export function embeddedOrders(db: Db, now: () => Date, configured: readonly string[] = [], prepared?: Database['prepared']): OrdersPort {
  const known = new Set(configured);
  // Registered here, or the number of a BP company: one statement, two index lookups (the primary
  // key of port_records, companies_bp_applicant_idx). Not cached: a BP's number can change or go
  // on any instance, and the answer must follow at once.
  // A named prepared statement where the database gives one (quotations and subscriptions ask it
  // on every request: issue 11, point 8).
  const registeredOrOnBpCompany = async (n: string) => {
    if (prepared) return (await prepared<{ known: boolean }>('orders_applicant_known', KNOWN_TEXT, [n]))[0]?.known === true;
    const res = await db.execute(sql`SELECT (EXISTS (SELECT 1 FROM port_records WHERE port = 'orders' AND kind = 'applicant' AND id = ${n})
      OR EXISTS (SELECT 1 FROM companies WHERE is_bp AND bp_applicant_number = ${n})) AS known`);
    return (res as unknown as { rows: { known: boolean }[] }).rows[0]?.known === true;
  };
  const applicants = records<{ companyName: string }>(db, 'orders', 'applicant');
  const orders = records<Omit<Order, 'id'>>(db, 'orders', 'order');
  const must = async (id: string, op: string) => {
    const o = await orders.get(id);
    if (!o) throw new PortFailure('orders', op, `no order ${id}`);
    return o;
  };
  const exists = async (n: string) => known.has(n) || (await registeredOrOnBpCompany(n));
  return {
    applicantExists: exists,
    async registerApplicant(applicantNumber, info) {
      if (!(await applicants.get(applicantNumber))) await applicants.insert({ companyName: info.companyName }, { id: applicantNumber });
    },
    async createOrder(o) {
      if (o.applicantNumber !== null && !(await exists(o.applicantNumber))) throw new PortFailure('orders', 'createOrder', `unknown applicant ${o.applicantNumber}`);
      const at = now().toISOString();
      return orders.insert({ applicantNumber: o.applicantNumber, companyId: o.companyId, offerReference: o.offerReference, quantity: o.quantity, purchaseOrderNumber: o.purchaseOrderNumber ?? null, status: 'open', createdAt: at, updatedAt: at }, { parentId: o.companyId });
    },
    async updateOrder(orderId, change) {
      const o = await must(orderId, 'updateOrder');
      if (o.status !== 'open') throw new PortFailure('orders', 'updateOrder', `order ${orderId} is ${o.status}`);
      return (await orders.update(orderId, { quantity: change.quantity, updatedAt: now().toISOString() }))!;
    },
    async cancelOrder(orderId) {
      await must(orderId, 'cancelOrder');
      return (await orders.update(orderId, { status: 'cancelled', updatedAt: now().toISOString() }))!;
    },
    getOrder: (orderId) => orders.get(orderId),
  };
}
