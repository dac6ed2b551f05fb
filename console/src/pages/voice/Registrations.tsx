// Live SIP registrations (issue 28, point 4; document 2, listDeviceRegistrations and
// listSubscriberRegistrations): what the registrar holds now, asked again every few seconds while
// the page is open, since a phone registers and expires on its own.
import { Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import type { Registration } from './types.ts';

/** How often the registrar is asked again (ms). */
export const LIVE_MS = 5000;

function RegistrationTable({ caption, rows }: { caption: string; rows: Registration[] }) {
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm" data-testid="registrations-none">
        {caption}: none now (the page asks again every {LIVE_MS / 1000} s).
      </Text>
    );
  return (
    <Table withTableBorder striped>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">SIP URI</Table.Th>
          <Table.Th scope="col">User agent</Table.Th>
          <Table.Th scope="col">From</Table.Th>
          <Table.Th scope="col">Expires</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.id}>
            <Table.Td>{r.fullSipURI}</Table.Td>
            <Table.Td>{r.user_agent}</Table.Td>
            <Table.Td>{r.publicSourceRegistration}</Table.Td>
            <Table.Td>{new Date(r.expirationDate).toLocaleTimeString()}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function DeviceRegistrations({ systemId, deviceId }: { systemId: string; deviceId: string }) {
  const q = useQuery({
    queryKey: ['registrations', systemId, 'device', deviceId],
    refetchInterval: LIVE_MS,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/registrations', {
          params: { path: { systemId, deviceId } },
        }),
      ),
  });
  return (
    <>
      <ErrorNotice error={q.error} />
      <RegistrationTable caption="Live registrations of the device" rows={q.data?.data ?? []} />
    </>
  );
}

export function SubscriberRegistrations({ systemId, phoneNumberId }: { systemId: string; phoneNumberId: string }) {
  const q = useQuery({
    queryKey: ['registrations', systemId, 'subscriber', phoneNumberId],
    refetchInterval: LIVE_MS,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/registrations', {
          params: { path: { systemId, phoneNumberId } },
        }),
      ),
  });
  return (
    <>
      <ErrorNotice error={q.error} />
      <RegistrationTable caption="Live registrations of the subscriber's devices" rows={q.data?.data ?? []} />
    </>
  );
}

/** A device's registration in a list row: registered or not, live. */
export function RegistrationBadge({ systemId, deviceId }: { systemId: string; deviceId: string }) {
  const q = useQuery({
    queryKey: ['registrations', systemId, 'device', deviceId],
    refetchInterval: LIVE_MS * 3,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/registrations', {
          params: { path: { systemId, deviceId } },
        }),
      ),
  });
  if (!q.data) return null;
  const n = q.data.data.length;
  return n > 0 ? <Badge color="teal.9">registered ({n})</Badge> : <Badge color="gray.7">not registered</Badge>;
}
