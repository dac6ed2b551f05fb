// The device models a CloudPBX drives (listDeviceModels): the same for every page of a CloudPBX.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';

/** Document 2: the generic SIP model, which needs no MAC address and has no key. */
export const GENERIC_SIP_MODEL = 999999;

export function useDeviceModels(systemId: string) {
  return useQuery({
    queryKey: ['device-models', systemId],
    staleTime: 10 * 60_000,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devicemodels', { params: { path: { systemId } } }),
      ),
  });
}
