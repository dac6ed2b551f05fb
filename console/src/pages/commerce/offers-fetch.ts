// One page of the platform's offers (listAllOffers), optionally those of one catalog.
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import type { PageRequest } from '../../components/ServerTable.tsx';

export function fetchOffers(req: PageRequest, filters: { name?: string; catalogId?: string }) {
  const { sortField, ...rest } = req;
  return unwrap(
    api.GET('/api/svc/subscription/v1.0/offers', {
      params: {
        query: {
          ...rest,
          ...(sortField === 'name' || sortField === '_id' ? { sortField } : {}),
          format: 'full',
          ...(filters.name ? { name: filters.name } : {}),
          ...(filters.catalogId ? { catalogId: filters.catalogId } : {}),
        },
      },
    }),
  );
}

/** The cache key of one offer, filled by the lists that open it. */
export const offerKey = (offerId: string) => ['offer', offerId] as const;
