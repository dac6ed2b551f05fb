// A company's subscriptions with their live state (issue 28, point 3): `creating`, then `active`,
// without a reload. The console asks the API again every second while one is still being
// synchronised with the order and billing systems (status `creating` or syncOngoing, document 1,
// states and transitions), and stops once every one has settled.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import type { Page, PageRequest } from '../../components/ServerTable.tsx';
import type { Subscription } from './types.ts';

export const subscriptionsKey = (companyId: string) => ['subscriptions', companyId] as const;
/** The table's pages: under the whole list's key, so that every change invalidating it reaches them. */
export const subscriptionsPageKey = (companyId: string) => [...subscriptionsKey(companyId), 'page'] as const;

/** One page of the table (issue 28, point 9: limit/offset of listSubscriptions), in creation order. */
export async function fetchSubscriptionsPage(companyId: string, req: PageRequest): Promise<Page<Subscription>> {
  const r = await unwrap(
    api.GET('/api/svc/subscription/v1.0/companies/{companyId}/subscriptions', {
      params: {
        path: { companyId },
        query: { format: 'full', showTerminated: true, limit: req.limit, offset: req.offset },
      },
    }),
  );
  return { data: r.data, total: r.total };
}

/** Still moving: created and not yet confirmed, or a change being synchronised (and not given up). */
export const pending = (s: Subscription): boolean =>
  (s.status === 'creating' || s.syncOngoing === true) && !s.syncError;

export function useSubscriptions(companyId: string) {
  return useQuery({
    queryKey: subscriptionsKey(companyId),
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/subscription/v1.0/companies/{companyId}/subscriptions', {
          // full: the licence counters (document 1); terminated ones too, for the chart over time.
          params: { path: { companyId }, query: { format: 'full', showTerminated: true } },
        }),
      ),
    refetchInterval: (q) => (q.state.data?.data.some(pending) ? 1000 : false),
  });
}

export function useCompanyName(companyId: string): string {
  const q = useQuery({
    queryKey: ['company', companyId],
    queryFn: () => unwrap(api.GET('/api/svc/admin/v1.0/companies/{companyId}', { params: { path: { companyId } } })),
  });
  return q.data?.data.name ?? '…';
}
