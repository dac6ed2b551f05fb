// A group's forwards (issue 28, point 4; document 2, getGroupForwards and updateGroupForward): the
// immediate forward and the overflow (after a delay), each active or not, to an internal or
// external number, a welcome service or the group's voicemail.
import { Badge, Button, Group, NumberInput, Select, Stack, Switch, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useCanManagePbx } from './roles.ts';
import type { GroupForward } from './types.ts';
import { notify } from '../../lib/notify.ts';

type Destination = NonNullable<GroupForward['destinationType']>;
const DESTINATIONS: { value: Destination; label: string }[] = [
  { value: 'internalnumber', label: 'An internal number' },
  { value: 'externalnumber', label: 'An external number' },
  { value: 'autoattendant', label: 'A welcome service' },
  { value: 'voicemail', label: "The group's voicemail" },
];
const destinationOf = (v: string | null) => DESTINATIONS.find((d) => d.value === v)?.value;

function ForwardForm({ systemId, groupId, f }: { systemId: string; groupId: string; f: GroupForward }) {
  const qc = useQueryClient();
  const [activate, setActivate] = useState(f.activate);
  const [dest, setDest] = useState<string | null>(f.destinationType);
  const [number, setNumber] = useState(f.number ?? '');
  const [ws, setWs] = useState(f.vcpAutoAttendantId ?? '');
  const [delay, setDelay] = useState<number | string>(f.noReplyDelay ?? 20);
  const save = useMutation({
    mutationFn: () => {
      const destinationType = destinationOf(dest);
      return unwrap(
        api.PUT('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups/{groupId}/forwards', {
          params: { path: { systemId, groupId }, query: { callForwardType: f.type } },
          body: {
            activate,
            ...(destinationType ? { destinationType } : {}),
            ...(destinationType === 'internalnumber' || destinationType === 'externalnumber' ? { number } : {}),
            ...(destinationType === 'autoattendant' ? { vcpAutoAttendantId: ws } : {}),
            ...(f.type === 'overflow' && delay !== '' ? { noReplyDelay: Number(delay) } : {}),
          },
        }),
      );
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['group-forwards', systemId, groupId] });
      notify(`The ${f.type} forward is saved`);
    },
  });
  const label = f.type === 'immediate' ? 'Immediate forward' : 'Overflow';
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <ErrorNotice error={save.error} />
      <Group align="end">
        <Switch label={`${label} active`} checked={activate} onChange={(e) => setActivate(e.currentTarget.checked)} />
        <Select label={`${label} to`} data={DESTINATIONS} value={dest} onChange={setDest} w={210} />
        {dest === 'internalnumber' || dest === 'externalnumber' ? (
          <TextInput
            label={`${label} number`}
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
            w={160}
          />
        ) : null}
        {dest === 'autoattendant' ? (
          <TextInput label={`${label} welcome service id`} value={ws} onChange={(e) => setWs(e.currentTarget.value)} />
        ) : null}
        {f.type === 'overflow' ? (
          <NumberInput label="After (seconds)" min={10} max={60} value={delay} onChange={setDelay} w={130} />
        ) : null}
        <Button type="submit" variant="default" loading={save.isPending}>
          Save the {f.type === 'immediate' ? 'immediate forward' : 'overflow'}
        </Button>
      </Group>
    </form>
  );
}

export function GroupForwards({ systemId, groupId }: { systemId: string; groupId: string }) {
  const canManage = useCanManagePbx();
  const q = useQuery({
    queryKey: ['group-forwards', systemId, groupId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups/{groupId}/forwards', {
          params: { path: { systemId, groupId } },
        }),
      ),
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return null;
  const { name, groupForwards } = q.data.data;
  return (
    <Stack mt="md">
      <Title order={3} size="h4">
        Forwards of {name}
      </Title>
      <Table withTableBorder maw={820}>
        <Table.Caption>Forwards of the group</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Forward</Table.Th>
            <Table.Th scope="col">State</Table.Th>
            <Table.Th scope="col">To</Table.Th>
            <Table.Th scope="col">After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groupForwards.map((f) => (
            <Table.Tr key={f.type}>
              <Table.Td>{f.type}</Table.Td>
              <Table.Td>{f.activate ? <Badge>active</Badge> : <Badge color="gray.7">inactive</Badge>}</Table.Td>
              <Table.Td>{[f.destinationType, f.number ?? f.name].filter(Boolean).join(': ') || '—'}</Table.Td>
              <Table.Td>{f.noReplyDelay ? `${f.noReplyDelay} s` : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {canManage
        ? groupForwards.map((f) => (
            <ForwardForm key={`${f.type}-${q.dataUpdatedAt}`} systemId={systemId} groupId={groupId} f={f} />
          ))
        : null}
    </Stack>
  );
}
