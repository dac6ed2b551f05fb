// SQL of the charges ledger; the company facts pricing needs (who is invoiced, in which currency,
// at which tax rate) come from companies' face.
import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowInserter } from '../../db/raw.ts';
import { billingCharges } from './charges.tables.ts';

export type ChargeRow = typeof billingCharges.$inferSelect;
export type NewCharge = typeof billingCharges.$inferInsert;

// Who is invoiced reads the company and the BPs above it: companies' face.
export { type BillingCompany, companyWithBps } from '../admin/companies/companies.api.ts';

/** A charge (one statement rendered once per set of columns: src/db/raw.ts). */
export const insertCharge: (exec: Executor, c: NewCharge) => Promise<ChargeRow> = rowInserter(billingCharges);

/** The charges of a BP not invoiced yet, changed before a day, oldest first. */
export async function uninvoiced(exec: Executor, invoicedCompanyId: string, beforeDate: string): Promise<ChargeRow[]> {
  return exec
    .select()
    .from(billingCharges)
    .where(
      and(
        eq(billingCharges.invoicedCompanyId, invoicedCompanyId),
        isNull(billingCharges.invoiceId),
        lt(billingCharges.changeDate, beforeDate),
      ),
    )
    .orderBy(asc(billingCharges.changeDate), asc(billingCharges.createdAt), asc(billingCharges.id));
}

/** Sets invoice_id on those of the charges not invoiced yet; returns the ids it set. */
export async function setInvoice(exec: Executor, chargeIds: readonly string[], invoiceId: string): Promise<string[]> {
  if (chargeIds.length === 0) return [];
  const rows = await exec
    .update(billingCharges)
    .set({ invoiceId })
    .where(and(inArray(billingCharges.id, [...chargeIds]), isNull(billingCharges.invoiceId)))
    .returning({ id: billingCharges.id });
  return rows.map((r) => r.id);
}

export async function chargesOfSubscription(exec: Executor, subscriptionId: string): Promise<ChargeRow[]> {
  return exec
    .select()
    .from(billingCharges)
    .where(eq(billingCharges.subscriptionId, subscriptionId))
    .orderBy(asc(billingCharges.createdAt), asc(billingCharges.id));
}
