// Join-company links of a company (document 3, Join-company links): the links a company admin
// shares so that people register themselves in the company, with their use, enabling and deletion.
import { Button, Card, Checkbox, Code, Group, NumberInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../../components/ServerTable.tsx';
import { JOIN_LINK_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';
import { ConfirmButton } from '../ConfirmButton.tsx';

type Link = Schemas['JoinCompanyLink'];

export function JoinLinks({ companyId }: { companyId: string }) {
  const canManage = useRoles(...JOIN_LINK_ROLES);
  const qc = useQueryClient();
  const [description, setDescription] = useState('');
  const [max, setMax] = useState<number | string>('');
  const [expires, setExpires] = useState('');
  const refresh = () => qc.invalidateQueries({ queryKey: ['join-links', companyId] });
  const path = { companyId };
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/admin/v1.0/companies/{companyId}/join-companies/links', {
          params: { path },
          body: {
            isEnabled: true,
            ...(description ? { description } : {}),
            ...(typeof max === 'number' ? { maxNumberUsers: max } : {}),
            ...(expires ? { expirationDate: new Date(expires).toISOString() } : {}),
          },
        }),
      ),
    onSuccess: async () => {
      setDescription('');
      setMax('');
      setExpires('');
      await refresh();
      notify('Join link created');
    },
  });
  const update = useMutation({
    mutationFn: (l: { id: string; isEnabled: boolean }) =>
      unwrap(
        api.PUT('/api/svc/admin/v1.0/companies/{companyId}/join-companies/links/{joinCompanyLinkId}', {
          params: { path: { companyId, joinCompanyLinkId: l.id } },
          body: { isEnabled: l.isEnabled },
        }),
      ),
    onSuccess: () => refresh(),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.DELETE('/api/svc/admin/v1.0/companies/{companyId}/join-companies/links/{joinCompanyLinkId}', {
          params: { path: { companyId, joinCompanyLinkId: id } },
        }),
      ),
    onSuccess: async () => {
      await refresh();
      notify('Join link deleted');
    },
  });
  const columns: Column<Link>[] = [
    { key: 'id', label: 'Link id (shared with the people joining)', render: (l) => <Code>{l.id}</Code> },
    { key: 'description', label: 'Description', sortField: 'description', render: (l) => l.description ?? '' },
    {
      key: 'used',
      label: 'Registered',
      sortField: 'nbUsersRegistered',
      render: (l) => `${l.nbUsersRegistered ?? 0}${l.maxNumberUsers != null ? ` / ${l.maxNumberUsers}` : ''}`,
    },
    {
      key: 'expires',
      label: 'Expires',
      sortField: 'expirationDate',
      render: (l) => (l.expirationDate ? new Date(l.expirationDate).toLocaleDateString() : 'never'),
    },
    {
      key: 'enabled',
      label: 'Enabled',
      render: (l) => (
        <Checkbox
          aria-label={`Link ${l.description ?? l.id} enabled`}
          checked={Boolean(l.isEnabled)}
          disabled={!canManage}
          onChange={(e) => update.mutate({ id: l.id ?? '', isEnabled: e.currentTarget.checked })}
        />
      ),
    },
    ...(canManage
      ? [
          {
            key: 'delete',
            label: 'Actions',
            render: (l: Link) => (
              <ConfirmButton
                size="xs"
                label="Delete"
                confirmLabel="Yes, delete the link"
                onConfirm={() => remove.mutate(l.id ?? '')}
              />
            ),
          },
        ]
      : []),
  ];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Join links
        </Title>
        <ErrorNotice error={create.error ?? update.error ?? remove.error} />
        {canManage ? (
          <form onSubmit={submit} aria-label="New join link">
            <Group align="end">
              <TextInput
                label="Description"
                value={description}
                onChange={(e) => setDescription(e.currentTarget.value)}
              />
              <NumberInput label="Most users" min={1} value={max} onChange={setMax} w={130} />
              <TextInput
                label="Expires on"
                type="date"
                value={expires}
                onChange={(e) => setExpires(e.currentTarget.value)}
              />
              <Button type="submit" loading={create.isPending}>
                Create join link
              </Button>
            </Group>
          </form>
        ) : null}
        <ServerTable<Link>
          caption="Join links"
          queryKey={['join-links', companyId]}
          columns={columns}
          rowKey={(l) => l.id ?? ''}
          defaultSort={{ field: 'creationDate', order: -1 }}
          fetchPage={(req) =>
            unwrap(
              api.GET('/api/svc/admin/v1.0/companies/{companyId}/join-companies/links', {
                // full: the description is a column (small has none).
                params: { path, query: { ...req, format: 'full' } },
              }),
            )
          }
        />
      </Stack>
    </Card>
  );
}
