// The embedded partner order system: applicants and orders kept in port_records.
import { sql, type Placeholder } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records } from '../records.ts';
import { idFor } from '../../shared/ids.ts';
import { statement } from '../../db/raw.ts';
import type { Order, OrdersPort } from './orders.port.ts';

/**
 * The embedded system knows the applicants registered in it, those of its configuration
 * (ORDERS_APPLICANT_NUMBERS) and the bpApplicantNumber of every BP company: a superadmin sets
 * that number once the partner exists in the order system, which the embedded one takes as given.
 */
const knownApplicant = (
  n: Placeholder,
) => sql`(EXISTS (SELECT 1 FROM port_records WHERE port = 'orders' AND kind = 'applicant' AND id = ${n})
  OR EXISTS (SELECT 1 FROM companies WHERE is_bp AND bp_applicant_number = ${n}))`;

const KNOWN = statement<'n'>(sql`SELECT ${knownApplicant(sql.placeholder('n'))} AS known`);

/**
 * An order, written only when its applicant is known (`checked`: known to the configuration, or
 * none), under the id its reference names; the order already made for that reference otherwise.
 * (A row inserted by this statement is not in its snapshot: the last SELECT finds only an older one.)
 */
const INSERT_ORDER = statement<'id' | 'companyId' | 'data' | 'checked' | 'applicant'>(sql`WITH made AS (
    INSERT INTO port_records (port, kind, id, parent_id, data)
    SELECT 'orders', 'order', ${sql.placeholder('id')}, ${sql.placeholder('companyId')}, ${sql.placeholder('data')}::jsonb
    WHERE ${sql.placeholder('checked')}::boolean OR ${knownApplicant(sql.placeholder('applicant'))}
    ON CONFLICT DO NOTHING RETURNING data)
  SELECT data FROM made UNION ALL SELECT data FROM port_records WHERE port = 'orders' AND kind = 'order' AND id = ${sql.placeholder('id')}`);

export function embeddedOrders(
  db: Db,
  now: () => Date,
  configured: readonly string[] = [],
  database?: Pick<Database, 'prepared'>,
): OrdersPort {
  const known = new Set(configured);
  // Registered here, or the number of a BP company: one statement, two index lookups (the primary
  // key of port_records, companies_bp_applicant_idx). Not cached: a BP's number can change or go
  // on any instance, and the answer must follow at once.
  // A named prepared statement where the database gives one (quotations and subscriptions ask it
  // on every request: docs/decisions.md, Quotations: round trips and the organisation's BPs).
  const registeredOrOnBpCompany = async (n: string) => {
    const rows = database
      ? await database.prepared<{ known: boolean }>('orders_applicant_known', KNOWN.text, KNOWN.bind({ n }))
      : await KNOWN.rows<{ known: boolean }>(db, { n });
    return rows[0]?.known === true;
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
      if (!(await applicants.get(applicantNumber)))
        await applicants.insert({ companyName: info.companyName }, { id: applicantNumber });
    },
    // The applicant's check and the order in one statement: nothing is written for an unknown
    // applicant. The order's id is named after its reference (idempotent: OrdersPort.createOrder).
    async createOrder(o) {
      const at = now().toISOString();
      const order = {
        applicantNumber: o.applicantNumber,
        companyId: o.companyId,
        offerReference: o.offerReference,
        quantity: o.quantity,
        purchaseOrderNumber: o.purchaseOrderNumber ?? null,
        status: 'open' as const,
        createdAt: at,
        updatedAt: at,
      };
      const id = idFor(`orders/order/${o.reference}`);
      const n = o.applicantNumber;
      const checked = n === null || known.has(n);
      const [row] = await INSERT_ORDER.rows<{ data: Omit<Order, 'id'> }>(db, {
        id,
        companyId: o.companyId,
        data: JSON.stringify(order),
        checked,
        applicant: n ?? '',
      });
      if (!row) throw new PortFailure('orders', 'createOrder', `unknown applicant ${n}`);
      return { ...row.data, id };
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
