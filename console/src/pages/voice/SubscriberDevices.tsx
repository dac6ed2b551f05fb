// A subscriber's SIP devices (issue 28, point 4; document 2, listSubscriberDevices,
// assignDeviceToSubscriber, unassignDeviceFromSubscriber): paged by the service; each device's
// programmable keys laid out as on the phone; a manager assigns a free device or a new one.
import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { KeysEditor } from './KeysEditor.tsx';
import { NewDeviceForm, type NewDevice } from './NewDeviceForm.tsx';
import { pbxPath } from './paths.ts';
import { RegistrationBadge } from './Registrations.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Device } from './types.ts';
import { notify } from '../../lib/notify.ts';

interface Props {
  systemId: string;
  phoneNumberId: string;
  /** The ids of its devices (getSubscriber), whose keys the page lays out. */
  deviceIds: string[];
}

export function SubscriberDevices({ systemId, phoneNumberId, deviceIds }: Props) {
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [free, setFree] = useState<string | null>(null);
  const path = { systemId, phoneNumberId };
  // The CloudPBX's devices assigned to nobody (one page of them: those a manager may assign).
  const freeDevices = useQuery({
    queryKey: ['devices', systemId, 'free'],
    enabled: canManage,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices', {
          params: { path: { systemId }, query: { assigned: false, limit: 100 } },
        }),
      ),
  });
  const changed = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['subscriber-devices', systemId, phoneNumberId] });
    await qc.invalidateQueries({ queryKey: ['devices', systemId] });
    await qc.invalidateQueries({ queryKey: ['subscriber', systemId, phoneNumberId] });
    await qc.invalidateQueries({ queryKey: ['numbering-plan', systemId] });
    notify(message);
  };
  const assign = useMutation({
    mutationFn: (deviceId: string) =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/devices', {
          params: { path },
          body: { deviceId },
        }),
      ),
    onSuccess: async (d) => {
      setFree(null);
      await changed(`Device ${d.data.description} assigned`);
    },
  });
  // A new device is made in the CloudPBX first (createDevice), then assigned: assigning by MAC
  // address only finds a device the CloudPBX already has (document 2).
  const addNew = useMutation({
    mutationFn: async (d: NewDevice) => {
      const made = await unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices', {
          params: { path: { systemId } },
          body: d,
        }),
      );
      return unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/devices', {
          params: { path },
          body: { deviceId: made.data.id },
        }),
      );
    },
    onSuccess: (d) => changed(`Device ${d.data.description} added and assigned`),
    onSettled: () => qc.invalidateQueries({ queryKey: ['devices', systemId] }),
  });
  const unassign = useMutation({
    mutationFn: (deviceId: string) =>
      unwrap(
        api.DELETE(
          '/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/devices/{deviceId}',
          {
            params: { path: { ...path, deviceId } },
          },
        ),
      ),
    onSuccess: () => changed('Device unassigned'),
  });
  const columns: Column<Device>[] = [
    {
      key: 'description',
      label: 'Description',
      sortField: 'description',
      render: (d) => <Link to={pbxPath(systemId, `devices/${d.id}`)}>{d.description}</Link>,
    },
    { key: 'model', label: 'Model', render: (d) => `${d.deviceType.vendor} ${d.deviceType.model}` },
    { key: 'mac', label: 'MAC address', sortField: 'macAddress', render: (d) => d.macAddress ?? '—' },
    { key: 'live', label: 'Registration', render: (d) => <RegistrationBadge systemId={systemId} deviceId={d.id} /> },
    ...(canManage
      ? [
          {
            key: 'actions',
            label: 'Actions',
            render: (d: Device) => (
              <Button size="compact-xs" variant="default" onClick={() => unassign.mutate(d.id)}>
                Unassign
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <Stack>
      <Title order={3} size="h4">
        Devices
      </Title>
      <ErrorNotice error={assign.error ?? addNew.error ?? unassign.error} />
      {canManage ? (
        <>
          <Group align="end">
            <Select
              label="A free device"
              value={free}
              onChange={setFree}
              data={(freeDevices.data?.data ?? []).map((d) => ({
                value: d.id,
                label: `${d.description} (${d.deviceType.vendor} ${d.deviceType.model})`,
              }))}
              nothingFoundMessage="No free device"
              w={320}
            />
            <Button disabled={!free} onClick={() => free && assign.mutate(free)}>
              Assign it
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            Or a new device for this subscriber:
          </Text>
          <NewDeviceForm
            systemId={systemId}
            submitLabel="Assign a new device"
            pending={addNew.isPending}
            onSubmit={(d) => addNew.mutate(d)}
          />
        </>
      ) : null}
      <ServerTable<Device>
        caption="Devices of the subscriber"
        queryKey={['subscriber-devices', systemId, phoneNumberId]}
        columns={columns}
        rowKey={(d) => d.id}
        defaultSort={{ field: 'description', order: 1 }}
        empty="No device assigned."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/devices', {
              params: { path, query: req },
            }),
          )
        }
      />
      {deviceIds.map((id, i) => (
        <KeysEditor key={id} systemId={systemId} deviceId={id} deviceName={`device ${i + 1}`} />
      ))}
    </Stack>
  );
}
