// The CloudPBX of the page's address, shared by its tabs (one query, cached under one key).
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';

export function useSystemId(): string {
  return useParams().systemId ?? '';
}

export function usePbx() {
  const systemId = useSystemId();
  const q = useQuery({
    queryKey: ['cloudpbx', systemId],
    queryFn: () =>
      unwrap(api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}', { params: { path: { systemId } } })),
  });
  return { systemId, pbx: q.data?.data, query: q };
}
