// One subscriber of a CloudPBX (issue 28, point 4; document 2, getSubscriber and the operations
// under it): who and which number, its forwards, its devices with their keys laid out as on the
// phone, and its devices' live registrations.
import { Button, Group, Stack, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { FactsTable } from '../../components/FactsTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { pbxPath } from './paths.ts';
import { SubscriberRegistrations } from './Registrations.tsx';
import { useCanManagePbx } from './roles.ts';
import { SubscriberDevices } from './SubscriberDevices.tsx';
import { SubscriberForwards } from './SubscriberForwards.tsx';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

export default function SubscriberPage() {
  const systemId = useSystemId();
  const phoneNumberId = useParams().phoneNumberId ?? '';
  const canManage = useCanManagePbx();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const path = { systemId, phoneNumberId };
  const q = useQuery({
    queryKey: ['subscriber', systemId, phoneNumberId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}', { params: { path } }),
      ),
  });
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}', {
          params: { path },
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['subscribers', systemId] });
      notify('Subscriber deleted');
      void navigate(pbxPath(systemId, 'subscribers'));
    },
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return <Loading label="Loading the subscriber" />;
  const s = q.data.data;
  const facts: [string, string][] = [
    ['Internal number', s.shortNumber],
    ['E-mail', s.loginEmail],
    ['Outgoing calls', s.barringOptions.permissions],
    ['Barred numbers', s.barringOptions.restrictions],
    ['Recording', s.recordingProfile],
    ['Created', new Date(s.creationDate).toLocaleString()],
  ];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          Subscriber {s.userDisplayName} ({s.shortNumber})
        </Title>
        {canManage ? (
          <Button variant="default" color="red.9" onClick={() => remove.mutate()} loading={remove.isPending}>
            Delete the subscriber
          </Button>
        ) : null}
      </Group>
      <ErrorNotice error={remove.error} />
      <FactsTable caption="The subscriber" rows={facts} />
      <SubscriberForwards key={s.id} systemId={systemId} s={s} />
      <SubscriberDevices systemId={systemId} phoneNumberId={phoneNumberId} deviceIds={s.devices} />
      <SubscriberRegistrations systemId={systemId} phoneNumberId={phoneNumberId} />
    </Stack>
  );
}
