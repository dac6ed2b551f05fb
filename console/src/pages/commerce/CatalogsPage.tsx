// The platform's catalogs (issue 28, point 3; route table listCatalogs, createCatalog): paged and
// sorted by the service; a superadmin creates one, then adds offers to it on its page.
import { Badge, Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { day } from './format.ts';
import { CATALOG_MANAGERS } from './roles.ts';
import type { Catalog } from './types.ts';

const columns: Column<Catalog>[] = [
  {
    key: 'name',
    label: 'Name',
    sortField: 'name',
    render: (c) => (
      <Group gap={6}>
        {c.name}
        {c.isDefault ? <Badge variant="dot">default</Badge> : null}
      </Group>
    ),
  },
  { key: 'description', label: 'Description', render: (c) => c.description ?? '' },
  { key: 'offers', label: 'Offers', render: (c) => c.offerIds?.length ?? 0 },
  { key: 'created', label: 'Created', sortField: 'creationDate', render: (c) => day(c.creationDate) },
];

export default function CatalogsPage() {
  const navigate = useNavigate();
  const canManage = useRoles(...CATALOG_MANAGERS);
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader title="Catalogs">
        {canManage ? <Button onClick={() => setCreating(true)}>New catalog</Button> : null}
      </PageHeader>
      <ServerTable<Catalog>
        caption="Catalogs"
        queryKey={['catalogs']}
        columns={columns}
        rowKey={(c) => c.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(c) => void navigate(`/catalogs/${c.id}`)}
        fetchPage={({ sortField, ...req }) =>
          unwrap(
            api.GET('/api/svc/subscription/v1.0/catalogs', {
              params: {
                query: {
                  ...req,
                  ...(sortField === 'name' || sortField === 'creationDate' ? { sortField } : {}),
                  format: 'full',
                },
              },
            }),
          )
        }
      />
      <Modal opened={creating} onClose={() => setCreating(false)} title="New catalog">
        {creating ? <NewCatalog onDone={() => setCreating(false)} /> : null}
      </Modal>
    </>
  );
}

function NewCatalog({ onDone }: { onDone: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/subscription/v1.0/catalogs', {
          body: { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) },
        }),
      ),
    onSuccess: async (r) => {
      notifications.show({ message: `Catalog ${r.data.name} created` });
      await client.invalidateQueries({ queryKey: ['catalogs'] });
      onDone();
      void navigate(`/catalogs/${r.data.id}`);
    },
  });
  return (
    <Stack>
      <ErrorNotice error={create.error} />
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button disabled={!name.trim()} loading={create.isPending} onClick={() => create.mutate()}>
          Create
        </Button>
      </Group>
    </Stack>
  );
}
