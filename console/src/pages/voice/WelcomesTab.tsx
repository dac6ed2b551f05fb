// Welcomes and welcome services of a CloudPBX (issue 28, point 4; document 2, Welcome services;
// issue 26, points 6 and 7): a welcome holds the office hours (opened on the week grid); a welcome
// service answers calls with a welcome's hours and overflows them to a destination of the
// CloudPBX. Both are paged by the service; a manager makes and deletes them.
import { Anchor, Button, Group, Select, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { pbxPath } from './paths.ts';
import { useCanManagePbx } from './roles.ts';
import type { Welcome, WelcomeService } from './types.ts';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

type OverflowType = NonNullable<WelcomeService['openHoursOverflow']>['type'];
const OVERFLOW_TYPES: { value: OverflowType; label: string }[] = [
  { value: 'user', label: 'A subscriber' },
  { value: 'voicemail', label: "A subscriber's voicemail" },
  { value: 'hunting_group', label: 'A hunting group' },
  { value: 'auto_attendant', label: 'Another welcome service' },
];
const overflowTypeOf = (v: string | null) => OVERFLOW_TYPES.find((o) => o.value === v)?.value;

/** The destinations of an overflow type (first page of each kind). */
function useDestinations(systemId: string, type: string | null) {
  const subs = useQuery({
    queryKey: ['subscribers', systemId, 'for-welcomes'],
    enabled: type === 'user' || type === 'voicemail',
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers', {
          params: { path: { systemId }, query: { limit: 100 } },
        }),
      ),
  });
  const groups = useQuery({
    queryKey: ['groups', systemId, 'for-welcomes'],
    enabled: type === 'hunting_group',
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups', {
          params: { path: { systemId }, query: { limit: 100 } },
        }),
      ),
  });
  const services = useQuery({
    queryKey: ['welcome-services', systemId, 'for-welcomes'],
    enabled: type === 'auto_attendant',
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomeservices', {
          params: { path: { systemId }, query: { limit: 100 } },
        }),
      ),
  });
  if (type === 'user' || type === 'voicemail')
    return (subs.data?.data ?? []).map((s) => ({ value: s.id, label: `${s.shortNumber} ${s.userDisplayName}` }));
  if (type === 'hunting_group')
    return (groups.data?.data ?? [])
      .filter((g) => g.type === 'hunting_group')
      .map((g) => ({ value: g.id, label: g.name }));
  if (type === 'auto_attendant') return (services.data?.data ?? []).map((w) => ({ value: w.id, label: w.name }));
  return [];
}

function Welcomes({ systemId, canManage }: { systemId: string; canManage: boolean }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const done = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['welcomes', systemId] });
    notify(message);
  };
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomes', {
          params: { path: { systemId } },
          body: { name: name.trim() },
        }),
      ),
    onSuccess: async (w) => {
      setName('');
      await done(`Welcome ${w.data.name} created`);
    },
  });
  const remove = useMutation({
    mutationFn: (ivrId: string) =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/{ivrId}', {
          params: { path: { systemId, ivrId } },
        }),
      ),
    onSuccess: () => done('Welcome deleted'),
  });
  const columns: Column<Welcome>[] = [
    { key: 'name', label: 'Name', sortField: 'name', render: (w) => w.name },
    { key: 'tz', label: 'Time zone', render: (w) => w.timezone },
    {
      key: 'hours',
      label: 'Office hours',
      render: (w) => (
        <Anchor component={Link} to={pbxPath(systemId, `welcome/${w.id}`)}>
          Office hours of {w.name}
        </Anchor>
      ),
    },
    ...(canManage
      ? [
          {
            key: 'actions',
            label: 'Actions',
            render: (w: Welcome) => (
              <Button size="compact-xs" variant="default" color="red.9" onClick={() => remove.mutate(w.id)}>
                Delete
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <section aria-labelledby="welcomes-title">
      <Title order={3} size="h4" id="welcomes-title" mb="xs">
        Welcomes (office hours)
      </Title>
      <ErrorNotice error={create.error ?? remove.error} />
      {canManage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Group align="end" mb="sm">
            <TextInput label="Welcome name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Button type="submit" loading={create.isPending}>
              Create the welcome
            </Button>
          </Group>
        </form>
      ) : null}
      <ServerTable<Welcome>
        caption="Welcomes"
        queryKey={['welcomes', systemId]}
        columns={columns}
        rowKey={(w) => w.id}
        defaultSort={{ field: 'name', order: 1 }}
        empty="No welcome yet."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomes', {
              params: { path: { systemId }, query: req },
            }),
          )
        }
      />
    </section>
  );
}

function Services({ systemId, canManage }: { systemId: string; canManage: boolean }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [welcomeId, setWelcomeId] = useState<string | null>(null);
  const [type, setType] = useState<string | null>('user');
  const [destinationId, setDestinationId] = useState<string | null>(null);
  const destinations = useDestinations(systemId, type);
  const welcomes = useQuery({
    queryKey: ['welcomes', systemId, 'for-services'],
    enabled: canManage,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomes', {
          params: { path: { systemId }, query: { limit: 100 } },
        }),
      ),
  });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomeservices', {
          params: { path: { systemId } },
          body: {
            name: name.trim(),
            welcomeId: welcomeId ?? '',
            openHoursOverflow: { type: overflowTypeOf(type), ...(destinationId ? { destinationId } : {}) },
          },
        }),
      ),
    onSuccess: async (w) => {
      setName('');
      await qc.invalidateQueries({ queryKey: ['welcome-services', systemId] });
      notify(`Welcome service ${w.data.name} created`);
    },
  });
  const columns: Column<WelcomeService>[] = [
    { key: 'name', label: 'Name', sortField: 'name', render: (w) => w.name },
    {
      key: 'welcome',
      label: 'Hours of',
      render: (w) => (
        <Anchor component={Link} to={pbxPath(systemId, `welcome/${w.welcomeId}`)}>
          {w.welcomeName}
        </Anchor>
      ),
    },
    { key: 'number', label: 'External number', render: (w) => w.externalNumber ?? '—' },
    {
      key: 'open',
      label: 'Open hours go to',
      render: (w) =>
        w.openHoursOverflow
          ? `${w.openHoursOverflow.type}: ${w.openHoursOverflow.userDisplayName ?? w.openHoursOverflow.name ?? w.openHoursOverflow.number ?? ''}`
          : '—',
    },
  ];
  return (
    <section aria-labelledby="services-title">
      <Title order={3} size="h4" id="services-title" mt="xl" mb="xs">
        Welcome services
      </Title>
      <ErrorNotice error={create.error} />
      {canManage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <Group align="end" mb="sm">
            <TextInput label="Service name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Select
              label="Welcome (office hours)"
              required
              value={welcomeId}
              onChange={setWelcomeId}
              data={(welcomes.data?.data ?? []).map((w) => ({ value: w.id, label: w.name }))}
            />
            <Select
              label="In open hours, calls go to"
              data={OVERFLOW_TYPES}
              value={type}
              onChange={(v) => {
                setType(v);
                setDestinationId(null);
              }}
              allowDeselect={false}
            />
            <Select
              label="Destination"
              required
              value={destinationId}
              onChange={setDestinationId}
              data={destinations}
            />
            <Button type="submit" loading={create.isPending} disabled={!welcomeId || !destinationId}>
              Create the service
            </Button>
          </Group>
        </form>
      ) : null}
      <ServerTable<WelcomeService>
        caption="Welcome services"
        queryKey={['welcome-services', systemId]}
        columns={columns}
        rowKey={(w) => w.id}
        defaultSort={{ field: 'name', order: 1 }}
        empty="No welcome service yet."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomeservices', {
              params: { path: { systemId }, query: req },
            }),
          )
        }
      />
    </section>
  );
}

export default function WelcomesTab() {
  const systemId = useSystemId();
  const canManage = useCanManagePbx();
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Welcome services
      </Title>
      <Welcomes systemId={systemId} canManage={canManage} />
      <Services systemId={systemId} canManage={canManage} />
    </>
  );
}
