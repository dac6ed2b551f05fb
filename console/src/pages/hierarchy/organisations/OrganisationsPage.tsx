// Organisations (issue 28, point 2; document 3, Organisations): the list the service pages and
// sorts, and a new organisation (superadmin only, organisations.policy.ts).
import { Badge, Button, Group, Select, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ServerTable, type Column } from '../../../components/ServerTable.tsx';
import { ORGANISATION_MANAGE_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';

type Organisation = Schemas['Organisation'];

const columns: Column<Organisation>[] = [
  { key: 'name', label: 'Name', sortField: 'name', render: (o) => o.name },
  {
    key: 'visibility',
    label: 'Visibility',
    sortField: 'visibility',
    render: (o) => <Badge variant="light">{o.visibility}</Badge>,
  },
  {
    key: 'created',
    label: 'Created',
    sortField: 'creationDate',
    render: (o) => (o.creationDate ? new Date(o.creationDate).toLocaleDateString() : ''),
  },
];

export default function OrganisationsPage() {
  const canManage = useRoles(...ORGANISATION_MANAGE_ROLES);
  const [name, setName] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'private'>('private');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/svc/admin/v1.0/organisations', { body: { name: name.trim(), visibility } })),
    onSuccess: async (res) => {
      setName('');
      await qc.invalidateQueries({ queryKey: ['organisations'] });
      notify(`Organisation ${res.data.name} created`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <PageHeader title="Organisations" />
      {canManage ? (
        <form onSubmit={submit} aria-label="New organisation">
          <ErrorNotice error={create.error} />
          <Group align="end" mb="md">
            <TextInput
              label="New organisation name"
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Select
              label="Visibility"
              value={visibility}
              onChange={(v) => setVisibility(v === 'public' ? 'public' : 'private')}
              data={['private', 'public']}
              allowDeselect={false}
              w={130}
            />
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create organisation
            </Button>
          </Group>
        </form>
      ) : null}
      <ServerTable<Organisation>
        caption="Organisations"
        queryKey={['organisations']}
        columns={columns}
        rowKey={(o) => o.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(o) => void navigate(`/organisations/${o.id}`)}
        fetchPage={(req) =>
          unwrap(api.GET('/api/svc/admin/v1.0/organisations', { params: { query: { ...req, format: 'full' } } }))
        }
      />
    </>
  );
}
