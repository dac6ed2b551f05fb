// The CloudPBXs the caller may read (issue 28, point 4), paged and sorted by the service, filtered
// by company (?companyId=, so that a company's page can link here).
import { Badge, Button, Group } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { CompanyPicker } from '../../components/CompanyPicker.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { useCanManagePbx } from './roles.ts';
import type { CloudPbx } from './types.ts';
import { pbxPath } from './paths.ts';

const columns: Column<CloudPbx>[] = [
  { key: 'name', label: 'Name', sortField: 'name', render: (p) => <Link to={pbxPath(p.id ?? '')}>{p.name}</Link> },
  { key: 'status', label: 'Status', render: (p) => <Badge variant="light">{p.status}</Badge> },
  {
    key: 'numbering',
    label: 'Numbering',
    render: (p) =>
      p.cloudpbx ? `${p.cloudpbx.numberingPrefixes.join(', ')} + ${p.cloudpbx.numberingDigits ?? '?'} digits` : '',
  },
  { key: 'country', label: 'Country', render: (p) => p.country ?? '' },
  {
    key: 'created',
    label: 'Created',
    sortField: 'creationDate',
    render: (p) => (p.creationDate ? new Date(p.creationDate).toLocaleDateString() : ''),
  },
];

export default function CloudPbxsPage() {
  const [params, setParams] = useSearchParams();
  const companyId = params.get('companyId');
  const canManage = useCanManagePbx();
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="CloudPBXs">
        {canManage ? (
          <Button component={Link} to={companyId ? `/cloudpbxs/new?companyId=${companyId}` : '/cloudpbxs/new'}>
            New CloudPBX
          </Button>
        ) : null}
      </PageHeader>
      <Group mb="md" align="end">
        <CompanyPicker
          label="Filter by company"
          value={companyId}
          onChange={(id) => setParams(id ? { companyId: id } : {})}
        />
      </Group>
      <ServerTable<CloudPbx>
        caption="CloudPBXs"
        queryKey={['cloudpbxs', companyId]}
        columns={columns}
        rowKey={(p) => p.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(p) => void navigate(pbxPath(p.id ?? ''))}
        empty="No CloudPBX here yet."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs', {
              params: { query: { ...req, ...(companyId ? { companyId } : {}) } },
            }),
          )
        }
      />
    </>
  );
}
