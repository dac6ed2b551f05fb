// Licence counters of subscriptions (document 1, Subscription, licence counters), for a page of
// subscriptions at once: one statement whatever their number.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bpTypeSql } from '../admin/companies/companies.api.ts';
import { rowsOf } from '../../db/raw.ts';

/** Document 1: the IR counters for a BP IR company's nb_users subscription, numberAssignedUsers otherwise. */
export type LicenceCounters =
  | {
      nbBPLicences: number;
      nbAssignedBPUsers: number;
      nbLicencesAssignedToECs: number;
      nbLicencesUsed: number;
      nbFreeLicences: number;
      numberAssignedUsers: number;
    }
  | { numberAssignedUsers: number };

interface Row {
  id: string;
  irNbUsers: boolean;
  maxNumberUsers: number | null;
  own: number;
  ecs: number;
}

/**
 * The counters of each subscription, by id (unknown ids are absent). A licence row keeps the
 * company of its user: those of the subscription's company are the BP's own users
 * (nbAssignedBPUsers), the others the users of its End Customers (nbLicencesAssignedToECs).
 * "For other companies, numberAssignedUsers is the number of licences assigned to the company's
 * users": the licences of users of the subscription's own company.
 */
export async function licenceCounters(
  exec: Executor,
  subscriptions: readonly { id: string }[],
): Promise<Map<string, LicenceCounters>> {
  const out = new Map<string, LicenceCounters>();
  if (subscriptions.length === 0) return out;
  const ids = subscriptions.map((s) => s.id);
  const r =
    await exec.execute(sql`SELECT s.id, (${bpTypeSql(sql`s.company_id`)} = 'IR' AND o.business_model = 'nb_users') AS "irNbUsers", s.max_number_users AS "maxNumberUsers",
      count(l.user_id) FILTER (WHERE l.user_company_id = s.company_id)::int AS own,
      count(l.user_id) FILTER (WHERE l.user_company_id <> s.company_id)::int AS ecs
    FROM subscriptions s JOIN offers o ON o.id = s.offer_id
    LEFT JOIN licences l ON l.subscription_id = s.id
    WHERE s.id = ANY(${sql.param(ids)}::text[])
    GROUP BY s.id, o.business_model`);
  for (const row of rowsOf<Row>(r)) out.set(row.id, countersOf(row));
  return out;
}

/** The counters from the counts of licences: those of the subscription's company's users (own) and of other companies' (ecs). */
export function countersOf(row: Omit<Row, 'id'>): LicenceCounters {
  if (!row.irNbUsers) return { numberAssignedUsers: row.own };
  const nbBPLicences = row.maxNumberUsers ?? 0;
  const used = row.own + row.ecs;
  return {
    nbBPLicences,
    nbAssignedBPUsers: row.own,
    nbLicencesAssignedToECs: row.ecs,
    nbLicencesUsed: used,
    nbFreeLicences: nbBPLicences - used,
    numberAssignedUsers: used,
  };
}

/**
 * The counts of countersOf for the subscription row `t`, as an extra of the authorising statement
 * (getSubscription answers in one round trip): the same counts as licenceCounters.
 */
export const LICENCE_COUNTS_EXTRA = sql<{ irNbUsers: boolean; own: number; ecs: number }>`(SELECT json_build_object(
    'irNbUsers', COALESCE(${bpTypeSql(sql`t.company_id`)} = 'IR', FALSE) AND COALESCE((SELECT o.business_model = 'nb_users' FROM offers o WHERE o.id = t.offer_id), FALSE),
    'own', count(l.user_id) FILTER (WHERE l.user_company_id = t.company_id),
    'ecs', count(l.user_id) FILTER (WHERE l.user_company_id <> t.company_id))
  FROM licences l WHERE l.subscription_id = t.id)`;
