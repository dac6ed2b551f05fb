// Company features (document 1, list company features; Company feature): "aggregates the
// features of all subscriptions of the company". From every active subscription's
// offer, a number feature takes the highest limitMax, a boolean one is enabled if any grants it.
import type { Executor } from '../../db/client.ts';
import * as repo from './features.repo.ts';

export interface CompanyFeature {
  featureId: string;
  featureUniqueRef: string;
  featureName: string;
  featureType: 'number' | 'boolean';
  limitMax?: number;
  isEnabled?: boolean;
  addedDate: Date;
  lastUpdateDate: Date;
}

const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/**
 * One entry per featureUniqueRef (its id: features live on offers, not in a table of their own).
 * addedDate: the first active subscription that brought it; lastUpdateDate: the latest such
 * subscription or change of an offer declaring it (docs/decisions.md, Licences). A reference
 * declared with both types keeps the type it was first seen with; the other declarations are
 * left out rather than mixed.
 */
export async function listCompanyFeatures(exec: Executor, companyId: string): Promise<CompanyFeature[]> {
  const byRef = new Map<string, CompanyFeature>();
  for (const s of await repo.activeSubscriptionFeatures(exec, companyId)) {
    const touched = later(s.subscribedAt, s.offerUpdatedAt);
    for (const f of s.features) {
      const seen = byRef.get(f.featureUniqueRef);
      if (!seen) {
        byRef.set(f.featureUniqueRef, {
          featureId: f.featureUniqueRef,
          featureUniqueRef: f.featureUniqueRef,
          featureName: f.featureName,
          featureType: f.featureType,
          ...(f.featureType === 'number' ? { limitMax: f.limitMax ?? 0 } : { isEnabled: f.isEnabled === true }),
          addedDate: s.subscribedAt,
          lastUpdateDate: touched,
        });
        continue;
      }
      if (seen.featureType !== f.featureType) continue;
      if (f.featureType === 'number') seen.limitMax = Math.max(seen.limitMax ?? 0, f.limitMax ?? 0);
      else seen.isEnabled = seen.isEnabled || f.isEnabled === true;
      if (s.subscribedAt.getTime() < seen.addedDate.getTime()) seen.addedDate = s.subscribedAt;
      seen.lastUpdateDate = later(seen.lastUpdateDate, touched);
    }
  }
  return [...byRef.values()].sort((a, b) => a.featureUniqueRef.localeCompare(b.featureUniqueRef));
}
