// Offer counters of a BP company (document 1, List offer counters of a BP company: "BP companies
// only, whatever bpType"; Offer counter).
import type { Static } from 'typebox';
import type { Executor } from '../../db/client.ts';
import type { OfferCounter } from './offer-counters.schemas.ts';
import { fail } from '../../errors/catalogue.ts';
import * as repo from './offer-counters.repo.ts';

export async function listOfferCounters(
  exec: Executor,
  company: { id: string; isBP: boolean; bpType: string | null },
): Promise<Static<typeof OfferCounter>[]> {
  if (!company.isBP) fail('OFFER_COUNTERS_BP_ONLY', { companyId: company.id });
  const rows = await repo.offerCounters(exec, company);
  return rows.map((r) => ({
    ...r,
    totalNbLicences: r.myCompanyNbLicences + r.myResellersNbLicences,
    totalNumberAssignedUsers: r.myCompanyNumberAssignedUsers + r.myResellersNumberAssignedUsers,
  }));
}
