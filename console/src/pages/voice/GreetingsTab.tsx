// The greetings of a CloudPBX (issue 28, point 4; document 2, Greetings; issue 26, point 3): for a
// scope (the company, a welcome service, a hunting group, the console attendant), each greeting
// with its files: the default of the CloudPBX's language and those uploaded; each file played in
// the page, a stored one made active or deleted, and the default restored. Changes are for the
// CloudPBX's managers (greetings.policy.ts); its readers listen.
import { Badge, Button, Group, Select, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { AudioPlayer } from './AudioPlayer.tsx';
import { scopeOf, scopeQuery, type GreetingScope } from './greeting-scope.ts';
import { GreetingUpload } from './GreetingUpload.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Greeting } from './types.ts';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

function useScopes(systemId: string) {
  // The welcome services and hunting groups that have greetings (first page of each: a scope is picked among them).
  const services = useQuery({
    queryKey: ['welcome-services', systemId, 'for-greetings'],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/welcomeservices', {
          params: { path: { systemId }, query: { limit: 100 } },
        }),
      ),
  });
  const groups = useQuery({
    queryKey: ['groups', systemId, 'for-greetings'],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/groups', {
          params: { path: { systemId }, query: { limit: 100 } },
        }),
      ),
  });
  return [
    {
      group: 'The CloudPBX',
      items: [
        { value: 'company', label: 'The company' },
        { value: 'attendant', label: 'The console attendant' },
      ],
    },
    {
      group: 'Welcome services',
      items: (services.data?.data ?? []).map((w) => ({ value: `ivr:${w.id}`, label: w.name })),
    },
    {
      group: 'Hunting groups',
      items: (groups.data?.data ?? [])
        .filter((g) => g.type === 'hunting_group')
        .map((g) => ({ value: `group:${g.id}`, label: g.name })),
    },
  ];
}

interface RowProps {
  systemId: string;
  scope: GreetingScope;
  g: Greeting;
  onActivate: (fileId: string) => void;
  onDelete: (fileId: string) => void;
}

function FileRow({ systemId, scope, g, onActivate, onDelete }: RowProps) {
  const canManage = useCanManagePbx();
  return (
    <Table.Tr>
      <Table.Td>{g.fileName}</Table.Td>
      <Table.Td>{g.duration.toFixed(1)} s</Table.Td>
      <Table.Td>
        <Group gap={4}>
          {g.isActive ? <Badge color="teal.9">active</Badge> : null}
          {g.isDefault ? <Badge color="gray.7">default</Badge> : null}
        </Group>
      </Table.Td>
      <Table.Td>
        <AudioPlayer
          url={`/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}/greetings/${g.fileId}/audio${scopeQuery(scope)}`}
          label={`${g.greetingId}: ${g.fileName}`}
        />
      </Table.Td>
      <Table.Td>
        {canManage && !g.isActive ? (
          <Group gap={4}>
            <Button size="compact-xs" variant="default" onClick={() => onActivate(g.fileId)}>
              Make active
            </Button>
            {!g.isDefault ? (
              <Button size="compact-xs" variant="default" color="red.9" onClick={() => onDelete(g.fileId)}>
                Delete
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

export default function GreetingsTab() {
  const systemId = useSystemId();
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [scopeKey, setScopeKey] = useState('company');
  const scope = scopeOf(scopeKey);
  const scopes = useScopes(systemId);
  const q = useQuery({
    queryKey: ['greetings', systemId, scopeKey],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/greetings', {
          params: { path: { systemId }, query: scope },
        }),
      ),
  });
  const done = async (message: string) => {
    await qc.invalidateQueries({ queryKey: ['greetings', systemId, scopeKey] });
    notify(message);
  };
  const activate = useMutation({
    mutationFn: (fileId: string) =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/greetings/{fileId}/activate', {
          params: { path: { systemId, fileId }, query: scope },
        }),
      ),
    onSuccess: (g) => done(`${g.data.fileName} is now active`),
  });
  const remove = useMutation({
    mutationFn: (fileId: string) =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/greetings/{fileId}', {
          params: { path: { systemId, fileId }, query: scope },
        }),
      ),
    onSuccess: () => done('File deleted'),
  });
  const restore = useMutation({
    mutationFn: (greetingId: string) =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/greetings/{greetingId}/restore', {
          params: { path: { systemId, greetingId }, query: scope },
        }),
      ),
    onSuccess: (g) => done(`The default ${g.data.greetingId} greeting is restored`),
  });
  const all = q.data?.data.greetings ?? [];
  const ids = [...new Set(all.map((g) => g.greetingId))];
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Greetings
      </Title>
      <Select
        label="Greetings of"
        data={scopes}
        value={scopeKey}
        onChange={(v) => setScopeKey(v ?? 'company')}
        allowDeselect={false}
        w={320}
        mb="md"
      />
      <ErrorNotice error={q.error ?? activate.error ?? remove.error ?? restore.error} />
      {!q.data ? (
        <Loading label="Loading the greetings" />
      ) : (
        <>
          {canManage ? (
            <GreetingUpload key={scopeKey} systemId={systemId} scope={scope} scopeKey={scopeKey} greetingIds={ids} />
          ) : null}
          {ids.map((id) => {
            const files = all.filter((g) => g.greetingId === id);
            const active = files.find((g) => g.isActive);
            return (
              <section key={id} aria-label={`Greeting ${id}`} data-testid={`greeting-${id}`}>
                <Group justify="space-between" mt="md">
                  <div>
                    <Title order={3} size="h4">
                      {id}
                    </Title>
                    <Text size="sm" c="dimmed">
                      {files[0]?.description}
                    </Text>
                  </div>
                  {canManage && active && !active.isDefault ? (
                    <Button variant="default" size="xs" onClick={() => restore.mutate(id)}>
                      Restore the default {id}
                    </Button>
                  ) : null}
                </Group>
                <Table withTableBorder mt="xs">
                  <Table.Caption>Files of the {id} greeting</Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">File</Table.Th>
                      <Table.Th scope="col">Duration</Table.Th>
                      <Table.Th scope="col">State</Table.Th>
                      <Table.Th scope="col">Listen</Table.Th>
                      <Table.Th scope="col">Actions</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {files.map((g) => (
                      <FileRow
                        key={g.fileId}
                        systemId={systemId}
                        scope={scope}
                        g={g}
                        onActivate={(f) => activate.mutate(f)}
                        onDelete={(f) => remove.mutate(f)}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </section>
            );
          })}
        </>
      )}
    </>
  );
}
