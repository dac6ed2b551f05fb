// SQL of the offer counters of a BP company (document 1, Offer counter): one row per offer
// subscribed by the BP or by the companies it sells to, with the licences bought and assigned.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { bpScope } from '../admin/companies/companies.api.ts';
import type { BusinessModel } from './offers.schemas.ts';
import { rowsOf } from '../../db/raw.ts';

export interface OfferCounterRow {
  offerId: string;
  offerName: string;
  offerReference: string | null;
  erpReference: string | null;
  groupName: string | null;
  businessModel: BusinessModel | null;
  isDefault: boolean;
  canBeSold: boolean;
  isDemo: boolean;
  isExclusive: boolean;
  isPrepaid: boolean;
  isBundle: boolean;
  hasConference: boolean;
  hasVoice: boolean;
  prepaidDuration: number | null;
  myCompanyNbLicences: number;
  myCompanyNumberAssignedUsers: number;
  myResellersNbLicences: number;
  myResellersNumberAssignedUsers: number;
}

/**
 * The BP's own subscriptions (myCompany*) and those of the companies under it (myResellers*: its
 * End Customers and BP IR companies, and for a VAD the End Customers of those), terminated ones
 * aside. Licences bought are the maxNumberUsers of the subscriptions that have one.
 */
export async function offerCounters(
  exec: Executor,
  bp: { id: string; bpType: string | null },
): Promise<OfferCounterRow[]> {
  const r = await exec.execute(sql`WITH scope AS ${bpScope(bp)}
    SELECT o.id AS "offerId", o.name AS "offerName", o.offer_reference AS "offerReference", o.erp_reference AS "erpReference",
      o.group_name AS "groupName", o.business_model AS "businessModel", o.is_default AS "isDefault", o.can_be_sold AS "canBeSold",
      o.is_demo AS "isDemo", o.is_exclusive AS "isExclusive", o.is_prepaid AS "isPrepaid", o.is_bundle AS "isBundle",
      o.has_conference AS "hasConference", o.has_voice AS "hasVoice", o.prepaid_duration AS "prepaidDuration",
      COALESCE(sum(s.max_number_users) FILTER (WHERE sc.mine), 0)::int AS "myCompanyNbLicences",
      COALESCE(sum(s.number_assigned_users) FILTER (WHERE sc.mine), 0)::int AS "myCompanyNumberAssignedUsers",
      COALESCE(sum(s.max_number_users) FILTER (WHERE NOT sc.mine), 0)::int AS "myResellersNbLicences",
      COALESCE(sum(s.number_assigned_users) FILTER (WHERE NOT sc.mine), 0)::int AS "myResellersNumberAssignedUsers"
    FROM subscriptions s JOIN scope sc ON sc.id = s.company_id JOIN offers o ON o.id = s.offer_id
    WHERE s.status <> 'terminated'
    GROUP BY o.id
    ORDER BY lower(o.name), o.id`);
  return rowsOf<OfferCounterRow>(r);
}
