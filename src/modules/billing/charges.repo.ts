// SQL of the charges ledger, and the company facts pricing needs (who is invoiced, in which
// currency, at which tax rate).
import { and, asc, eq, inArray, isNull, lt } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.ts';
import { rowInserter } from '../../db/raw.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import { billingCharges } from './charges.tables.ts';

export type ChargeRow = typeof billingCharges.$inferSelect;
export type NewCharge = typeof billingCharges.$inferInsert;

export interface BillingCompany {
  id: string;
  isBP: boolean;
  bpType: string | null;
  bpId: string | null;
  currency: string | null;
  country: string;
}

export async function billingCompany(exec: Executor, id: string | null): Promise<BillingCompany | undefined> {
  if (!id) return undefined;
  const [row] = await exec
    .select({
      id: companies.id,
      isBP: companies.isBP,
      bpType: companies.bpType,
      bpId: companies.bpId,
      currency: companies.currency,
      country: companies.country,
    })
    .from(companies)
    .where(eq(companies.id, id));
  return row;
}

const cols = (t: Record<'id' | 'isBP' | 'bpType' | 'bpId' | 'currency' | 'country', AnyPgColumn>) => ({
  id: t.id,
  isBP: t.isBP,
  bpType: t.bpType,
  bpId: t.bpId,
  currency: t.currency,
  country: t.country,
});

/** A company, its BP and its BP's BP, in one statement (who is invoiced: charges.service.ts). */
export async function companyWithBps(
  exec: Executor,
  id: string,
): Promise<{ company: BillingCompany; parent: BillingCompany | null; grandParent: BillingCompany | null } | undefined> {
  const parent = alias(companies, 'parent');
  const grand = alias(companies, 'grand');
  const [row] = await exec
    .select({ company: cols(companies), parent: cols(parent), grandParent: cols(grand) })
    .from(companies)
    .leftJoin(parent, eq(parent.id, companies.bpId))
    .leftJoin(grand, eq(grand.id, parent.bpId))
    .where(eq(companies.id, id));
  return row as
    { company: BillingCompany; parent: BillingCompany | null; grandParent: BillingCompany | null } | undefined;
}

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
