// Companies, BPs and End Customers (issue 28, point 2): the list the service pages and sorts,
// with its name search and the filters of listCompanies (BP or not, BP type, status).
import { Badge, Button, Group, SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useRoles } from '../../auth/roles.ts';
import { COMPANY_CREATE_ROLES } from './roles.ts';
import { useCompany } from './company/useCompany.ts';
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
  const [bpType, setBpType] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [visibility, setVisibility] = useState<string | null>(null);
  // The BP whose companies are listed (VAD > IR > End Customers): in the address, set by the
  // "Customers of this BP" link of a BP's page. No picker here: the list alone asks the service.
  const [params, setParams] = useSearchParams();
  const bpId = params.get('bpId');
  const clearBp = () => setParams({}, { replace: true });
  const bp = useCompany(bpId ?? '');
  const canCreate = useRoles(...COMPANY_CREATE_ROLES);
  const [name] = useDebouncedValue(search.trim(), 300);
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Companies">
        {canCreate ? (
          <Button component={Link} to="/companies/new">
            New company
          </Button>
        ) : null}
      </PageHeader>
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
        <Select
          label="BP type"
          placeholder="any"
          clearable
          value={bpType}
          onChange={setBpType}
          data={['VAD', 'IR', 'DR']}
          w={120}
        />
        <Select
          label="Status"
          placeholder="any"
          clearable
          value={status}
          onChange={setStatus}
          data={['initializing', 'active', 'alerting', 'hold', 'terminated']}
          w={150}
        />
        <Select
          label="Visibility"
          placeholder="any"
          clearable
          value={visibility}
          onChange={setVisibility}
          data={['public', 'private', 'organization', 'closed', 'isolated', 'hotspot']}
          w={150}
        />
      </Group>
      {bpId ? (
        <Group mb="sm">
          <Text data-testid="bp-filter">Companies of the BP {bp.data?.data.name ?? '…'}</Text>
          <Button variant="default" size="xs" onClick={clearBp}>
            Clear the BP filter
          </Button>
        </Group>
      ) : null}
      <ServerTable<Company>
        caption="Companies"
        queryKey={['companies', name, kind, bpType, status, visibility, bpId]}
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
                  ...(bpType ? { bpType } : {}),
                  ...(status ? { status } : {}),
                  ...(visibility ? { visibility } : {}),
                  ...(bpId ? { bpId } : {}),
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
