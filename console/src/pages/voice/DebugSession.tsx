// A device's debug session (issue 28, point 4; document 2, grantDebugSession and
// revokeDebugSession): granted until a time the service sets (its default duration; only a
// superadmin may ask for another, 403830 otherwise), shown while it lasts, revoked at will.
import { Badge, Button, Group, NumberInput, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Device } from './types.ts';
import { useNow } from './useNow.ts';
import { notify } from '../../lib/notify.ts';

export function DebugSession({ systemId, device }: { systemId: string; device: Device }) {
  const canManage = useCanManagePbx();
  const isSuper = useRoles('superadmin');
  const qc = useQueryClient();
  const [minutes, setMinutes] = useState<number | string>('');
  const path = { systemId, deviceId: device.id };
  const changed = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['device', systemId, device.id] });
    await qc.invalidateQueries({ queryKey: ['devices', systemId] });
    notify(message);
  };
  const grant = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/debug', {
          params: { path },
          body: isSuper && minutes !== '' ? { duration: Number(minutes) * 60 } : {},
        }),
      ),
    onSuccess: () => changed('Debug session granted'),
  });
  const revoke = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/debug', { params: { path } }),
      ),
    onSuccess: () => changed('Debug session revoked'),
  });
  const end = device.debugSessionEndDate ? new Date(device.debugSessionEndDate) : null;
  const now = useNow();
  const active = end !== null && end.getTime() > now;
  return (
    <section aria-label="Debug session">
      <ErrorNotice error={grant.error ?? revoke.error} />
      <Group align="end">
        <Text>
          Debug session:{' '}
          {active ? <Badge color="red.9">until {end.toLocaleString()}</Badge> : <Badge color="gray.7">none</Badge>}
        </Text>
        {canManage && isSuper ? (
          <NumberInput
            label="Duration (minutes)"
            description="Empty: the service's default"
            min={1}
            max={10080}
            value={minutes}
            onChange={setMinutes}
            w={180}
          />
        ) : null}
        {canManage ? (
          <Button variant="default" onClick={() => grant.mutate()} loading={grant.isPending}>
            {active ? 'Extend the debug session' : 'Grant a debug session'}
          </Button>
        ) : null}
        {canManage && active ? (
          <Button variant="default" color="red.9" onClick={() => revoke.mutate()} loading={revoke.isPending}>
            Revoke it
          </Button>
        ) : null}
      </Group>
    </section>
  );
}
