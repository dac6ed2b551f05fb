// The embedded partner order system: applicants and orders kept in port_records.
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records } from '../records.ts';
import type { Order, OrdersPort } from './orders.port.ts';

export function embeddedOrders(db: Db, now: () => Date): OrdersPort {
  const applicants = records<{ companyName: string }>(db, 'orders', 'applicant');
  const orders = records<Omit<Order, 'id'>>(db, 'orders', 'order');
  const must = async (id: string, op: string) => {
    const o = await orders.get(id);
    if (!o) throw new PortFailure('orders', op, `no order ${id}`);
    return o;
  };
  return {
    async applicantExists(applicantNumber) {
      return (await applicants.get(applicantNumber)) !== undefined;
    },
    async registerApplicant(applicantNumber, info) {
      if (!(await applicants.get(applicantNumber))) await applicants.insert({ companyName: info.companyName }, { id: applicantNumber });
    },
    async createOrder(o) {
      if (o.applicantNumber !== null && !(await applicants.get(o.applicantNumber))) throw new PortFailure('orders', 'createOrder', `unknown applicant ${o.applicantNumber}`);
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
