// One SIP device (issue 28, point 4; document 2, getDevice, resetDevice, rebootDevice,
// deleteDevice): its credentials' facts, its live registrations, its debug session and its
// programmable keys laid out as on the phone.
import { Button, Group, Stack, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { FactsTable } from '../../components/FactsTable.tsx';
import { Loading } from '../../components/Loading.tsx';
import { DebugSession } from './DebugSession.tsx';
import { KeysEditor } from './KeysEditor.tsx';
import { pbxPath } from './paths.ts';
import { DeviceRegistrations } from './Registrations.tsx';
import { useCanManagePbx } from './roles.ts';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

export default function DevicePage() {
  const systemId = useSystemId();
  const deviceId = useParams().deviceId ?? '';
  const canManage = useCanManagePbx();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const path = { systemId, deviceId };
  const q = useQuery({
    queryKey: ['device', systemId, deviceId],
    queryFn: () =>
      unwrap(api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}', { params: { path } })),
    // While a debug session lasts, the page asks again so that its end shows when it comes.
    refetchInterval: (query) => {
      const end = query.state.data?.data.debugSessionEndDate;
      return end && new Date(end).getTime() > Date.now() ? 30_000 : false;
    },
  });
  const action = useMutation({
    mutationFn: async (what: 'reset' | 'reboot' | 'delete') => {
      if (what === 'delete')
        return unwrap(
          api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}', { params: { path } }),
        );
      if (what === 'reset')
        return unwrap(
          api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/reset', { params: { path } }),
        );
      return unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/reboot', { params: { path } }),
      );
    },
    onSuccess: async (_, what) => {
      await qc.invalidateQueries({ queryKey: ['devices', systemId] });
      notify(`Device ${what === 'delete' ? 'deleted' : what === 'reset' ? 'reset' : 'rebooting'}`);
      if (what === 'delete') void navigate(pbxPath(systemId, 'devices'));
      else await qc.invalidateQueries({ queryKey: ['device', systemId, deviceId] });
    },
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return <Loading label="Loading the device" />;
  const d = q.data.data;
  const facts: [string, ReactNode][] = [
    ['Model', `${d.deviceType.vendor} ${d.deviceType.model}`],
    ['MAC address', d.macAddress ?? '—'],
    [
      'Subscriber',
      d.phoneNumberId ? (
        <Link to={pbxPath(systemId, `subscribers/${d.phoneNumberId}`)}>
          {d.shortNumber} {d.userDisplayName}
        </Link>
      ) : (
        'none'
      ),
    ],
    ['SIP user name', d.sipUsername],
    ['SIP domain', d.sipDomain],
    ['Last reset', d.resetDate ? new Date(d.resetDate).toLocaleString() : 'never'],
  ];
  return (
    <Stack>
      <Title order={2} size="h3">
        Device {d.description}
      </Title>
      <ErrorNotice error={action.error} />
      <FactsTable caption="The device" rows={facts} />
      {canManage ? (
        <Group>
          <Button variant="default" onClick={() => action.mutate('reboot')}>
            Reboot
          </Button>
          <Button variant="default" onClick={() => action.mutate('reset')}>
            Reset its credentials
          </Button>
          <Button variant="default" color="red.9" onClick={() => action.mutate('delete')}>
            Delete the device
          </Button>
        </Group>
      ) : null}
      <DebugSession systemId={systemId} device={d} />
      <DeviceRegistrations systemId={systemId} deviceId={deviceId} />
      <KeysEditor systemId={systemId} deviceId={deviceId} deviceName={d.description} />
    </Stack>
  );
}
