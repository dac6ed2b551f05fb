// The groups of a CloudPBX (issue 28, point 4; document 2, listGroups, createGroup, deleteGroup):
// hunting groups and manager-assistant groups, paged by the service; choosing one shows its
// forwards. A manager makes groups from the subscribers and deletes them.
import { Button, Group, Select, TextInput, Title } from '@mantine/core';
import { SubscribersMultiSelect } from './SubscriberPicker.tsx';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { FreeNumberPicker } from './FreeNumberPicker.tsx';
import { GroupForwards } from './GroupForwards.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Group as PbxGroup } from './types.ts';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

const POLICIES: { value: PbxGroup['policy']; label: string }[] = [
  { value: 'parallel', label: 'All at once' },
  { value: 'sequential', label: 'In order' },
  { value: 'circular', label: 'In turn' },
];
const policyOf = (v: string | null) => POLICIES.find((p) => p.value === v)?.value ?? 'parallel';

export default function GroupsTab() {
  const systemId = useSystemId();
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [type, setType] = useState<string | null>('hunting_group');
  const [shortNumber, setShortNumber] = useState<string | null>(null);
  const [policy, setPolicy] = useState<string | null>('parallel');
  const [members, setMembers] = useState<string[]>([]);
  const refresh = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['groups', systemId] });
    await qc.invalidateQueries({ queryKey: ['numbering-plan', systemId] });
    notify(message);
  };
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups', {
          params: { path: { systemId } },
          body:
            type === 'manager_assistant'
              ? { name: name.trim(), type: 'manager_assistant' }
              : {
                  name: name.trim(),
                  type: 'hunting_group',
                  ...(shortNumber ? { shortNumber } : {}),
                  policy: policyOf(policy),
                  members: members.map((phoneNumberId) => ({ phoneNumberId })),
                },
        }),
      ),
    onSuccess: async (g) => {
      setName('');
      setMembers([]);
      setShortNumber(null);
      await refresh(`Group ${g.data.name} created`);
    },
  });
  const remove = useMutation({
    mutationFn: (groupId: string) =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups/{groupId}', {
          params: { path: { systemId, groupId } },
        }),
      ),
    onSuccess: async () => {
      setChosen(null);
      await refresh('Group deleted');
    },
  });
  const columns: Column<PbxGroup>[] = [
    { key: 'name', label: 'Name', sortField: 'name', render: (g) => g.name },
    { key: 'type', label: 'Type', sortField: 'type', render: (g) => g.type.replace('_', ' ') },
    { key: 'number', label: 'Number', sortField: 'shortNumber', render: (g) => g.shortNumber ?? '—' },
    { key: 'policy', label: 'Ringing', render: (g) => POLICIES.find((p) => p.value === g.policy)?.label ?? g.policy },
    {
      key: 'members',
      label: 'Members',
      render: (g) => g.members.map((m) => m.userDisplayName).join(', ') || '—',
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (g) => (
        <Group gap="xs">
          <Button size="compact-xs" variant="default" onClick={() => setChosen(g.id)} aria-pressed={chosen === g.id}>
            Forwards
          </Button>
          {canManage ? (
            <Button size="compact-xs" variant="default" color="red.9" onClick={() => remove.mutate(g.id)}>
              Delete
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Groups
      </Title>
      <ErrorNotice error={create.error ?? remove.error} />
      {canManage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Group align="end" mb="md">
            <TextInput label="Group name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Select
              label="Type"
              data={[
                { value: 'hunting_group', label: 'Hunting group' },
                { value: 'manager_assistant', label: 'Manager and assistants' },
              ]}
              value={type}
              onChange={setType}
              allowDeselect={false}
              w={210}
            />
            {type === 'hunting_group' ? (
              <>
                <FreeNumberPicker systemId={systemId} value={shortNumber} onChange={setShortNumber} required />
                <Select
                  label="Ringing"
                  data={POLICIES}
                  value={policy}
                  onChange={setPolicy}
                  allowDeselect={false}
                  w={140}
                />
                <SubscribersMultiSelect
                  systemId={systemId}
                  label="Members"
                  value={members}
                  onChange={setMembers}
                  w={280}
                />
              </>
            ) : null}
            <Button type="submit" loading={create.isPending}>
              Create the group
            </Button>
          </Group>
        </form>
      ) : null}
      <ServerTable<PbxGroup>
        caption="Groups"
        queryKey={['groups', systemId]}
        columns={columns}
        rowKey={(g) => g.id}
        defaultSort={{ field: 'name', order: 1 }}
        empty="No group yet."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups', {
              params: { path: { systemId }, query: req },
            }),
          )
        }
      />
      {chosen ? <GroupForwards systemId={systemId} groupId={chosen} /> : null}
    </>
  );
}
