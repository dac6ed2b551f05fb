// Licences used against bought, per offer (issue 28, point 6; document 1, licence counters): the
// sums over the company's active subscriptions that carry a number of licences.
import type { Subscription } from './types.ts';

export interface OfferLicences {
  offerId: string;
  offer: string;
  Bought: number;
  Used: number;
}

export function licencesPerOffer(list: readonly Subscription[]): OfferLicences[] {
  const byOffer = new Map<string, OfferLicences>();
  for (const s of list) {
    if (s.status === 'terminated' || typeof s.maxNumberUsers !== 'number' || !s.offerId) continue;
    const row = byOffer.get(s.offerId) ?? { offerId: s.offerId, offer: s.offerName ?? s.offerId, Bought: 0, Used: 0 };
    row.Bought += s.maxNumberUsers;
    row.Used += s.numberAssignedUsers ?? 0;
    byOffer.set(s.offerId, row);
  }
  return [...byOffer.values()].sort((a, b) => a.offer.localeCompare(b.offer));
}
