// The SIP devices of a CloudPBX (issue 28, point 4; document 2, listDevices, createDevice): paged
// by the service, each with its live registration; a manager adds devices.
import { Badge, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { NewDeviceForm, type NewDevice } from './NewDeviceForm.tsx';
import { pbxPath } from './paths.ts';
import { RegistrationBadge } from './Registrations.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Device } from './types.ts';
import { useSystemId } from './usePbx.ts';
import { useNow } from './useNow.ts';
import { notify } from '../../lib/notify.ts';

export default function DevicesTab() {
  const systemId = useSystemId();
  const canManage = useCanManagePbx();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const now = useNow();
  const create = useMutation({
    mutationFn: (d: NewDevice) =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices', {
          params: { path: { systemId } },
          body: d,
        }),
      ),
    onSuccess: async (d) => {
      await qc.invalidateQueries({ queryKey: ['devices', systemId] });
      notify(`Device ${d.data.description} added`);
    },
  });
  const columns: Column<Device>[] = [
    {
      key: 'description',
      label: 'Description',
      sortField: 'description',
      render: (d) => <Link to={pbxPath(systemId, `devices/${d.id}`)}>{d.description}</Link>,
    },
    {
      key: 'model',
      label: 'Model',
      sortField: 'deviceTypeId',
      render: (d) => `${d.deviceType.vendor} ${d.deviceType.model}`,
    },
    { key: 'mac', label: 'MAC address', sortField: 'macAddress', render: (d) => d.macAddress ?? '—' },
    {
      key: 'subscriber',
      label: 'Subscriber',
      render: (d) =>
        d.phoneNumberId ? `${d.shortNumber ?? ''} ${d.userDisplayName ?? ''}` : <Badge color="gray.7">free</Badge>,
    },
    { key: 'live', label: 'Registration', render: (d) => <RegistrationBadge systemId={systemId} deviceId={d.id} /> },
    {
      key: 'debug',
      label: 'Debug',
      render: (d) =>
        d.debugSessionEndDate && new Date(d.debugSessionEndDate).getTime() > now ? <Badge color="red.9">on</Badge> : '',
    },
  ];
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        SIP devices
      </Title>
      {canManage ? (
        <>
          <ErrorNotice error={create.error} />
          <NewDeviceForm
            systemId={systemId}
            submitLabel="Add the device"
            pending={create.isPending}
            onSubmit={(d) => create.mutate(d)}
          />
        </>
      ) : null}
      <ServerTable<Device>
        caption="SIP devices"
        queryKey={['devices', systemId]}
        columns={columns}
        rowKey={(d) => d.id}
        defaultSort={{ field: 'description', order: 1 }}
        onRowClick={(d) => void navigate(pbxPath(systemId, `devices/${d.id}`))}
        empty="No device yet."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices', {
              params: { path: { systemId }, query: req },
            }),
          )
        }
      />
    </>
  );
}
