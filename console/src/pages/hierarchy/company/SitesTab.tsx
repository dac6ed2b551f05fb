// The sites of a company (document 3, Sites): the list the service pages and sorts, and a new site.
import { Badge, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../../components/ServerTable.tsx';
import { SITE_MANAGE_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';

type Site = Schemas['Site'];

const columns: Column<Site>[] = [
  { key: 'name', label: 'Name', sortField: 'name', render: (s) => s.name },
  { key: 'status', label: 'Status', sortField: 'status', render: (s) => <Badge variant="light">{s.status}</Badge> },
  {
    key: 'created',
    label: 'Created',
    sortField: 'creationDate',
    render: (s) => (s.creationDate ? new Date(s.creationDate).toLocaleDateString() : ''),
  },
];

export function SitesTab({ companyId }: { companyId: string }) {
  const canManage = useRoles(...SITE_MANAGE_ROLES);
  const [name, setName] = useState('');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/svc/admin/v1.0/sites', { body: { companyId, name: name.trim() } })),
    onSuccess: async (res) => {
      setName('');
      await qc.invalidateQueries({ queryKey: ['sites', companyId] });
      notify(`Site ${res.data.name} created`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Stack>
      <ErrorNotice error={create.error} />
      {canManage ? (
        <form onSubmit={submit} aria-label="New site">
          <Group align="end">
            <TextInput label="New site name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create site
            </Button>
          </Group>
        </form>
      ) : null}
      <ServerTable<Site>
        caption="Sites"
        queryKey={['sites', companyId]}
        columns={columns}
        rowKey={(s) => s.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(s) => void navigate(`/companies/${companyId}/sites/${s.id}`)}
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/admin/v1.0/companies/{companyId}/sites', {
              params: { path: { companyId }, query: { ...req, format: 'medium' } },
            }),
          )
        }
      />
    </Stack>
  );
}
