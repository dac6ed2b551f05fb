// The embedded billing system: accounts, subscriptions and invoices kept in port_records.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { PortFailure } from '../control.ts';
import { records } from '../records.ts';
import { idFor, newId } from '../../shared/ids.ts';
import { rowsOf, statement } from '../../db/raw.ts';
import type { BillingAccount, BillingPort, BillingSubscription, Invoice } from './billing.port.ts';

/** Sum of decimal strings, exact to the cent and beyond (scaled integers, no floats). */
function sum(values: string[]): string {
  const scale = 6;
  const total = values.reduce((acc, v) => {
    const [i = '0', f = ''] = v.replace(/^-/, '').split('.');
    const n = BigInt(i + f.padEnd(scale, '0').slice(0, scale));
    return acc + (v.startsWith('-') ? -n : n);
  }, 0n);
  const neg = total < 0n;
  const abs = (neg ? -total : total).toString().padStart(scale + 1, '0');
  const out = `${abs.slice(0, -scale)}.${abs.slice(-scale)}`.replace(/0+$/, '').replace(/\.$/, '');
  return `${neg ? '-' : ''}${out.includes('.') ? out.padEnd(out.indexOf('.') + 3, '0') : `${out}.00`}`;
}

const ACCOUNT_OF_COMPANY = statement<'companyId'>(sql`SELECT a.id, a.data FROM port_records l
  JOIN port_records a ON a.port = 'billing' AND a.kind = 'account' AND a.id = l.data->>'accountId'
  WHERE l.port = 'billing' AND l.kind = 'account-of-company' AND l.id = ${sql.placeholder('companyId')}`);

const INSERT_ACCOUNT = statement<'id' | 'companyId' | 'data'>(sql`WITH link AS (
    INSERT INTO port_records (port, kind, id, data) VALUES ('billing', 'account-of-company', ${sql.placeholder('companyId')}, jsonb_build_object('accountId', ${sql.placeholder('id')}::text))
    ON CONFLICT DO NOTHING RETURNING id)
  INSERT INTO port_records (port, kind, id, data) SELECT 'billing', 'account', ${sql.placeholder('id')}, ${sql.placeholder('data')}::jsonb FROM link RETURNING id`);

/**
 * The account, the rate plan's price in its currency and the new subscription, under the id its
 * reference names; the subscription already made for that reference otherwise (as INSERT_ORDER).
 */
const INSERT_SUBSCRIPTION = statement<'id' | 'accountId' | 'ratePlanId' | 'data'>(sql`WITH account AS (
    SELECT id, data->>'currency' AS currency FROM port_records WHERE port = 'billing' AND kind = 'account' AND id = ${sql.placeholder('accountId')}),
  made AS (
    INSERT INTO port_records (port, kind, id, parent_id, data)
    SELECT 'billing', 'subscription', ${sql.placeholder('id')}, account.id, ${sql.placeholder('data')}::jsonb || jsonb_build_object('unitPrice',
      (SELECT p->>'amount' FROM offers o, jsonb_array_elements(o.prices) p WHERE o.billing_product_rate_plan_id = ${sql.placeholder('ratePlanId')} AND p->>'currency' = account.currency LIMIT 1))
    FROM account ON CONFLICT DO NOTHING RETURNING data)
  SELECT data FROM made UNION ALL SELECT data FROM port_records WHERE port = 'billing' AND kind = 'subscription' AND id = ${sql.placeholder('id')}`);

export function embeddedBilling(db: Db, now: () => Date): BillingPort {
  const accounts = records<Omit<BillingAccount, 'id'>>(db, 'billing', 'account');
  const subscriptions = records<Omit<BillingSubscription, 'id'>>(db, 'billing', 'subscription');
  const invoices = records<Omit<Invoice, 'id'>>(db, 'billing', 'invoice');
  const mustSub = async (id: string, op: string) => {
    const s = await subscriptions.get(id);
    if (!s) throw new PortFailure('billing', op, `no subscription ${id}`);
    return s;
  };
  // The embedded billing system's product catalogue is the offers' prices (document 1, Offer;
  // docs/decisions.md, Commerce: catalogs and offers): a rate plan is an offer's billingProductRatePlanId,
  // its prices the offer's. Read as text, never through a float.
  const ratePlanPrice = async (ratePlanId: string, currency: string): Promise<string | undefined> => {
    const rows = rowsOf<{ amount: string }>(
      await db.execute(sql`SELECT p->>'amount' AS amount FROM offers o, jsonb_array_elements(o.prices) p
      WHERE o.billing_product_rate_plan_id = ${ratePlanId} AND p->>'currency' = ${currency} LIMIT 1`),
    );
    return rows[0]?.amount;
  };
  return {
    ratePlanPrice,
    // The company's link and its account in one statement: of two creations at once for one
    // company, one makes the account and the other is refused, and no account is left unlinked.
    async createAccount(a) {
      const account = {
        accountNumber: `A${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`,
        companyId: a.companyId,
        name: a.name,
        currency: a.currency,
        createdAt: now().toISOString(),
      };
      const id = newId();
      const [made] = await INSERT_ACCOUNT.rows(db, { id, companyId: a.companyId, data: JSON.stringify(account) });
      if (!made) throw new PortFailure('billing', 'createAccount', `company ${a.companyId} already has an account`);
      return { ...account, id };
    },
    // The company's account through its link, in one statement (every synchronisation asks it).
    async findAccount(companyId) {
      const [row] = await ACCOUNT_OF_COMPANY.rows<{ id: string; data: Omit<BillingAccount, 'id'> }>(db, { companyId });
      return row ? { ...row.data, id: row.id } : undefined;
    },
    // One statement (INSERT_SUBSCRIPTION): nothing is written when the account does not exist.
    async createSubscription(s) {
      const id = idFor(`billing/subscription/${s.reference}`);
      const data = {
        accountId: s.accountId,
        ratePlanId: s.ratePlanId,
        ratePlanChargeId: s.ratePlanChargeId ?? null,
        quantity: s.quantity,
        status: 'active' as const,
        startDate: s.startDate,
        endDate: null,
      };
      const [row] = await INSERT_SUBSCRIPTION.rows<{ data: Omit<BillingSubscription, 'id'> }>(db, {
        id,
        accountId: s.accountId,
        ratePlanId: s.ratePlanId,
        data: JSON.stringify(data),
      });
      if (!row) throw new PortFailure('billing', 'createSubscription', `no account ${s.accountId}`);
      return { ...row.data, id };
    },
    async updateSubscription(id, change) {
      const s = await mustSub(id, 'updateSubscription');
      if (s.status !== 'active')
        throw new PortFailure('billing', 'updateSubscription', `subscription ${id} is ${s.status}`);
      return (await subscriptions.update(id, { quantity: change.quantity }))!;
    },
    async cancelSubscription(id, endDate) {
      await mustSub(id, 'cancelSubscription');
      return (await subscriptions.update(id, { status: 'cancelled', endDate }))!;
    },
    getSubscription: (id) => subscriptions.get(id),
    async createInvoice(i) {
      const account = await accounts.get(i.accountId);
      if (!account) throw new PortFailure('billing', 'createInvoice', `no account ${i.accountId}`);
      const count = (await invoices.children(i.accountId)).length;
      return invoices.insert(
        {
          accountId: i.accountId,
          invoiceNumber: `${account.accountNumber}-${String(count + 1).padStart(5, '0')}`,
          invoiceDate: i.invoiceDate,
          dueDate: i.dueDate,
          currency: account.currency,
          amount: sum(i.items.flatMap((x) => [x.chargeAmount, x.taxAmount])),
          status: 'Posted',
          items: i.items,
        },
        { parentId: i.accountId },
      );
    },
    async listInvoices(accountId) {
      return (await invoices.children(accountId)).sort((a, b) => b.invoiceDate.localeCompare(a.invoiceDate));
    },
  };
}
