// What billing lends authorising statements and other modules' reads (extras of a target
// reference, src/http/operation.ts): the BPs above a company, read in the same round trip as the
// company itself. createQuotation reads them beside its target; commerce's createSubscription
// and its synchronisation read them the same way (who orders, who is invoiced).
import { sql } from 'drizzle-orm';
import type { BillingCompany } from './charges.repo.ts';
import type { BpBusinessModel } from '../admin/companies/companies.schemas.ts';

/** A BP above a company as the BPS_EXTRA gives it: who is invoiced, and the applicant check's facts (document 1, create a quotation, rule 4). */
export interface BpFacts extends BillingCompany {
  name: string;
  bpBusinessModel: BpBusinessModel | null;
  bpApplicantNumber: string | null;
}

const BP_FACTS = (a: string) =>
  `json_build_object('id', ${a}.id, 'name', ${a}.name, 'isBP', ${a}.is_bp, 'bpType', ${a}.bp_type, 'bpId', ${a}.bp_id, 'currency', ${a}.currency, 'country', ${a}.country, 'bpBusinessModel', ${a}.bp_business_model, 'bpApplicantNumber', ${a}.bp_applicant_number)`;

/**
 * The BP of the company row `t` and that BP's BP ({parent, grandParent}, NULL when `t` has no
 * BP), as an extra of the authorising statement: what companyWithBps reads beside the company.
 */
export const BPS_EXTRA =
  sql.raw(`(SELECT json_build_object('parent', ${BP_FACTS('p')}, 'grandParent', (SELECT ${BP_FACTS('g')} FROM companies g WHERE g.id = p.bp_id))
  FROM companies p WHERE p.id = t.bp_id)`);

/** The BPS_EXTRA value: the company's BP and the BP above it (null when none). */
export function bpsFromExtra(v: unknown): { parent: BpFacts | null; grandParent: BpFacts | null } {
  const bps = v as { parent: BpFacts; grandParent: BpFacts | null } | null;
  return { parent: bps?.parent ?? null, grandParent: bps?.grandParent ?? null };
}
