// A device's programmable keys (issue 28, point 4; document 2, listProgrammableKeys,
// createProgrammableKey, deleteProgrammableKey): the grid as on the phone, and for a manager the
// form of a key on the one chosen in the grid: a speed dial to a number, or the monitoring of a
// subscriber's line. Only keys set by an administrator may be removed (the service's rule, 409833).
import { Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { SubscriberSelect } from './SubscriberPicker.tsx';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { KeysGrid } from './KeysGrid.tsx';
import { useCanManagePbx } from './roles.ts';
import { notify } from '../../lib/notify.ts';

export function KeysEditor({
  systemId,
  deviceId,
  deviceName,
}: {
  systemId: string;
  deviceId: string;
  deviceName: string;
}) {
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [selected, setSelected] = useState<number | null>(null);
  const [keyType, setKeyType] = useState<string | null>('speeddial');
  const [label, setLabel] = useState('');
  const [number, setNumber] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const path = { systemId, deviceId };
  const keys = useQuery({
    queryKey: ['keys', systemId, deviceId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/keys', { params: { path } }),
      ),
  });
  const refresh = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['keys', systemId, deviceId] });
    notify(message);
  };
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/keys', {
          params: { path },
          body:
            keyType === 'monitor'
              ? { keyNum: selected ?? 0, keyType: 'monitor', phoneNumberId: target, displayName: label.trim() || null }
              : {
                  keyNum: selected ?? 0,
                  keyType: 'speeddial',
                  number: number.trim(),
                  displayName: label.trim() || null,
                },
        }),
      ),
    onSuccess: async () => {
      setLabel('');
      setNumber('');
      await refresh(`Key ${selected ?? ''} set`);
    },
  });
  const remove = useMutation({
    mutationFn: (keyNum: number) =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/devices/{deviceId}/keys/{keyNum}', {
          params: { path: { ...path, keyNum } },
        }),
      ),
    onSuccess: () => refresh(`Key ${selected ?? ''} cleared`),
  });
  if (keys.error) return <ErrorNotice error={keys.error} />;
  if (!keys.data) return <Loading label="Loading the keys" />;
  const k = keys.data.data;
  const current = k.keys.find((x) => x.keyNum === selected);
  return (
    <section aria-label={`Keys of ${deviceName}`}>
      <Title order={3} size="h4" mb="xs">
        Programmable keys of {deviceName} ({k.deviceType.vendor} {k.deviceType.model}: {k.availableKeys} of{' '}
        {k.programmableKeys} free)
      </Title>
      <KeysGrid
        deviceName={`${k.deviceType.vendor} ${k.deviceType.model}`}
        count={k.programmableKeys}
        keys={k.keys}
        selected={selected}
        onSelect={canManage ? setSelected : undefined}
      />
      <ErrorNotice error={add.error ?? remove.error} />
      {canManage && selected !== null ? (
        current ? (
          <Group mt="sm">
            <Button
              variant="default"
              color="red.9"
              disabled={current.keyOwner !== 'admin'}
              onClick={() => remove.mutate(current.keyNum)}
            >
              Clear key {current.keyNum}
            </Button>
          </Group>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              add.mutate();
            }}
          >
            <Stack mt="sm" maw={620}>
              <Group align="end">
                <Select
                  label={`What key ${selected} does`}
                  data={[
                    { value: 'speeddial', label: 'Speed dial' },
                    { value: 'monitor', label: 'Monitor a line' },
                  ]}
                  value={keyType}
                  onChange={setKeyType}
                  allowDeselect={false}
                  w={170}
                />
                <TextInput label="Label" value={label} onChange={(e) => setLabel(e.currentTarget.value)} w={160} />
                {keyType === 'monitor' ? (
                  <SubscriberSelect
                    systemId={systemId}
                    label="Subscriber"
                    required
                    value={target}
                    onChange={setTarget}
                    w={220}
                  />
                ) : (
                  <TextInput
                    label="Number"
                    required
                    value={number}
                    onChange={(e) => setNumber(e.currentTarget.value)}
                    w={160}
                  />
                )}
                <Button type="submit" loading={add.isPending}>
                  Set key {selected}
                </Button>
              </Group>
            </Stack>
          </form>
        )
      ) : null}
    </section>
  );
}
