// The DDIs of a CloudPBX (issue 28, point 4; document 2, listDdis, createDdi, setDefaultDdi,
// deleteDdi, assignDdiToUser, unassignDdiFromUser): the external numbers, paged by the service,
// with what each is assigned to; its managers add numbers, assign them to users of the company,
// choose the default one and delete them.
import { Badge, Button, Group, SegmentedControl, Select, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Ddi } from './types.ts';
import { usePbx, useSystemId } from './usePbx.ts';
import { UserPicker } from './UserPicker.tsx';
import { notify } from '../../lib/notify.ts';

type Filter = 'all' | 'assigned' | 'free';

export default function DdisTab() {
  const systemId = useSystemId();
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  const [number, setNumber] = useState('');
  const [toAssign, setToAssign] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const { pbx } = usePbx();
  // The free DDIs a manager may assign (one page of them).
  const free = useQuery({
    queryKey: ['ddis', systemId, 'free-for-users'],
    enabled: canManage,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi', {
          params: { path: { systemId }, query: { isAssigned: false, limit: 100 } },
        }),
      ),
  });
  const done = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['ddis', systemId] });
    notify(message);
  };
  const path = { systemId };
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi', {
          params: { path },
          body: { number: number.trim() },
        }),
      ),
    onSuccess: async (d) => {
      setNumber('');
      await done(`DDI ${d.data.numberE164} added`);
    },
  });
  const makeDefault = useMutation({
    mutationFn: (phoneNumberId: string) =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi/{phoneNumberId}/default', {
          params: { path: { ...path, phoneNumberId } },
        }),
      ),
    onSuccess: () => done('Default DDI set'),
  });
  const assign = useMutation({
    mutationFn: ({ phoneNumberId, userId }: { phoneNumberId: string; userId: string }) =>
      unwrap(
        api.POST(
          '/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi/{phoneNumberId}/users/{userId}',
          {
            params: { path: { ...path, phoneNumberId, userId } },
          },
        ),
      ),
    onSuccess: async () => {
      setToAssign(null);
      setUserId(null);
      await done('DDI assigned');
    },
  });
  const unassign = useMutation({
    mutationFn: ({ phoneNumberId, userId }: { phoneNumberId: string; userId: string }) =>
      unwrap(
        api.DELETE(
          '/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi/{phoneNumberId}/users/{userId}',
          {
            params: { path: { ...path, phoneNumberId, userId } },
          },
        ),
      ),
    onSuccess: () => done('DDI unassigned'),
  });
  const remove = useMutation({
    mutationFn: (phoneNumberId: string) =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi/{phoneNumberId}', {
          params: { path: { ...path, phoneNumberId } },
        }),
      ),
    onSuccess: () => done('DDI deleted'),
  });
  const columns: Column<Ddi>[] = [
    { key: 'number', label: 'Number', sortField: 'numberE164', render: (d) => d.numberE164 },
    {
      key: 'assigned',
      label: 'Assigned to',
      render: (d) => d.names.join(', ') || d.welcomeName || <Badge color="gray.7">free</Badge>,
    },
    { key: 'default', label: 'Default', render: (d) => (d.isCloudPbxDefault ? <Badge>default</Badge> : '') },
    {
      key: 'created',
      label: 'Added',
      sortField: 'creationDate',
      render: (d) => new Date(d.creationDate).toLocaleDateString(),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            label: 'Actions',
            render: (d: Ddi) => (
              <Group gap="xs">
                {d.userId ? (
                  <Button
                    size="compact-xs"
                    variant="default"
                    onClick={() => unassign.mutate({ phoneNumberId: d.id, userId: d.userId ?? '' })}
                    aria-label={`Unassign ${d.numberE164}`}
                  >
                    Unassign
                  </Button>
                ) : null}
                {!d.isCloudPbxDefault ? (
                  <Button size="compact-xs" variant="default" onClick={() => makeDefault.mutate(d.id)}>
                    Make default
                  </Button>
                ) : null}
                <Button
                  size="compact-xs"
                  variant="default"
                  color="red.9"
                  onClick={() => remove.mutate(d.id)}
                  aria-label={`Delete ${d.numberE164}`}
                >
                  Delete
                </Button>
              </Group>
            ),
          },
        ]
      : []),
  ];
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        DDIs
      </Title>
      <ErrorNotice error={add.error ?? assign.error ?? unassign.error ?? makeDefault.error ?? remove.error} />
      {canManage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Group align="end" mb="md">
            <TextInput
              label="New DDI"
              description="National or international form"
              value={number}
              onChange={(e) => setNumber(e.currentTarget.value)}
              required
            />
            <Button type="submit" loading={add.isPending}>
              Add the DDI
            </Button>
          </Group>
        </form>
      ) : null}
      {canManage && pbx ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (toAssign && userId) assign.mutate({ phoneNumberId: toAssign, userId });
          }}
        >
          <Group align="end" mb="md">
            <Select
              label="Free DDI"
              value={toAssign}
              onChange={setToAssign}
              data={(free.data?.data ?? []).map((d) => ({ value: d.id, label: d.numberE164 }))}
              nothingFoundMessage="No free DDI"
              w={200}
            />
            <UserPicker companyId={pbx.companyId ?? ''} value={userId} onChange={setUserId} label="Assign to user" />
            <Button type="submit" variant="default" loading={assign.isPending} disabled={!toAssign || !userId}>
              Assign the DDI
            </Button>
          </Group>
        </form>
      ) : null}
      <SegmentedControl
        mb="sm"
        aria-label="Which DDIs"
        value={filter}
        onChange={(v) => setFilter(v === 'assigned' || v === 'free' ? v : 'all')}
        data={[
          { value: 'all', label: 'All' },
          { value: 'assigned', label: 'Assigned' },
          { value: 'free', label: 'Free' },
        ]}
      />
      <ServerTable<Ddi>
        caption="DDIs"
        queryKey={['ddis', systemId, filter]}
        columns={columns}
        rowKey={(d) => d.id}
        defaultSort={{ field: 'numberE164', order: 1 }}
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/ddi', {
              params: { path, query: { ...req, ...(filter === 'all' ? {} : { isAssigned: filter === 'assigned' }) } },
            }),
          )
        }
      />
    </>
  );
}
