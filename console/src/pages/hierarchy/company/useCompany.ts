// One company in full (getCompany, format=full), shared by the tabs of its page. The key starts
// with ['company', id], so invalidating that prefix refreshes every view of the company.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';

export const companyKey = (companyId: string) => ['company', companyId, 'full'] as const;

export function useCompany(companyId: string) {
  return useQuery({
    queryKey: companyKey(companyId),
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/companies/{companyId}', {
          params: { path: { companyId }, query: { format: 'full' } },
        }),
      ),
    enabled: Boolean(companyId),
  });
}
