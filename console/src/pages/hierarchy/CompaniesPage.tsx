// Companies, BPs and End Customers (issue 28, point 2): the list the service pages and sorts,
// with its name search and the BP filter of listCompanies.
import { Badge, Group, SegmentedControl, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Schemas } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';

type Company = Schemas['Company'];
type Kind = 'all' | 'bp' | 'ec';

const columns: Column<Company>[] = [
  { key: 'name', label: 'Name', sortField: 'name', render: (c) => c.name ?? '' },
  {
    key: 'kind',
    label: 'Kind',
    render: (c) => (c.isBP ? <Badge variant="light">BP {c.bpType ?? ''}</Badge> : <Badge color="gray">Company</Badge>),
  },
  { key: 'status', label: 'Status', sortField: 'status', render: (c) => c.status },
  { key: 'country', label: 'Country', sortField: 'country', render: (c) => c.country ?? '' },
  {
    key: 'created',
    label: 'Created',
    sortField: 'creationDate',
    render: (c) => (c.creationDate ? new Date(c.creationDate).toLocaleDateString() : ''),
  },
];

export default function CompaniesPage() {
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<Kind>('all');
  const [name] = useDebouncedValue(search.trim(), 300);
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Companies" />
      <Group mb="md" align="end">
        <TextInput
          label="Search by name"
          placeholder="keywords"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={280}
        />
        <SegmentedControl
          aria-label="Kind of company"
          value={kind}
          onChange={(v) => setKind(v === 'bp' || v === 'ec' ? v : 'all')}
          data={[
            { value: 'all', label: 'All' },
            { value: 'bp', label: 'Business partners' },
            { value: 'ec', label: 'End customers' },
          ]}
        />
      </Group>
      <ServerTable<Company>
        caption="Companies"
        queryKey={['companies', name, kind]}
        columns={columns}
        rowKey={(c) => c.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(c) => void navigate(`/companies/${c.id}`)}
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/admin/v1.0/companies', {
              params: {
                query: {
                  ...req,
                  format: 'medium',
                  ...(name ? { name } : {}),
                  ...(kind === 'bp' ? { isBP: true } : kind === 'ec' ? { isBP: false, hasBP: true } : {}),
                },
              },
            }),
          )
        }
      />
    </>
  );
}
