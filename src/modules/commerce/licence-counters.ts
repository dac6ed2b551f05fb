// The licence counters of document 1 (Subscription, "Licence counters added when format is full
// (list) or always (get), only when the company has bpType IR and the subscription has
// businessModel nb_users"), from the licences table. Self-contained: licence assignment reads it too.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

export interface LicenceCounters {
  nbBPLicences: number;
  nbAssignedBPUsers: number;
  nbLicencesAssignedToECs: number;
  nbLicencesUsed: number;
  nbFreeLicences: number;
  numberAssignedUsers: number;
}

export interface CountedSubscription {
  id: string;
  maxNumberUsers: number | null;
  businessModel: string | null;
}

/** Whether document 1 gives the subscription the counters of an IR company. */
export const hasIrCounters = (company: { bpType: string | null }, s: { businessModel: string | null }): boolean => company.bpType === 'IR' && s.businessModel === 'nb_users';

/**
 * The counters of the subscriptions that have them (IR company, nb_users), by subscription id,
 * in one statement: licences held by the IR company's own users and by its End Customers' users.
 */
export async function licenceCounters(exec: Executor, company: { id: string; bpType: string | null }, subs: readonly CountedSubscription[]): Promise<Map<string, LicenceCounters>> {
  const out = new Map<string, LicenceCounters>();
  const counted = subs.filter((s) => hasIrCounters(company, s));
  if (counted.length === 0) return out;
  const res = await exec.execute(sql`SELECT l.subscription_id AS id,
      count(*) FILTER (WHERE l.user_company_id = ${company.id})::int AS own,
      count(*) FILTER (WHERE l.user_company_id <> ${company.id})::int AS ecs
    FROM licences l WHERE l.subscription_id = ANY(${sql.param(counted.map((s) => s.id))}::text[]) GROUP BY l.subscription_id`);
  const rows = new Map((res as unknown as { rows: { id: string; own: number; ecs: number }[] }).rows.map((r) => [r.id, r]));
  for (const s of counted) {
    const own = Number(rows.get(s.id)?.own ?? 0);
    const ecs = Number(rows.get(s.id)?.ecs ?? 0);
    const max = s.maxNumberUsers ?? 0;
    out.set(s.id, { nbBPLicences: max, nbAssignedBPUsers: own, nbLicencesAssignedToECs: ecs, nbLicencesUsed: own + ecs, nbFreeLicences: max - (own + ecs), numberAssignedUsers: own + ecs });
  }
  return out;
}
