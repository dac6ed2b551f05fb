// The company's imports, the latest first (listCompanyImports): each opens its progress and report.
// Paged by the service (issue 28, point 9: limit/offset answer a page and the total).
import { Anchor, Badge } from '@mantine/core';
import { Link } from 'react-router';
import { api, type Schemas } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';

type Summary = Schemas['ImportSummary'];
/** Shades whose white text keeps a contrast of 4.5:1 (WCAG AA). */
const STATUS_COLORS = { Pending: 'blue.8', Terminated: 'teal.9', Deleted: 'gray.7' } as const;

const columns: Column<Summary>[] = [
  {
    key: 'started',
    label: 'Started',
    render: (i) => (
      <Anchor component={Link} to={`/imports/${i.reqId}`}>
        {new Date(i.startTime).toLocaleString()}
      </Anchor>
    ),
  },
  { key: 'label', label: 'Label', render: (i) => i.label ?? '' },
  { key: 'mode', label: 'Mode', render: (i) => i.mode },
  {
    key: 'status',
    label: 'Status',
    render: (i) => (
      <Badge variant="filled" color={STATUS_COLORS[i.status]}>
        {i.status}
      </Badge>
    ),
  },
  { key: 'succeeded', label: 'Succeeded', render: (i) => i.counters.succeeded },
  { key: 'failed', label: 'Failed', render: (i) => i.counters.failed },
  { key: 'by', label: 'By', render: (i) => i.displayName },
];

export function RecentImports({ companyId }: { companyId: string }) {
  if (!companyId) return null;
  return (
    <ServerTable<Summary>
      caption="Imports of the company"
      queryKey={['imports', companyId]}
      columns={columns}
      rowKey={(i) => i.reqId}
      empty="No import yet."
      fetchPage={async ({ limit, offset }) => {
        const r = await unwrap(
          api.GET('/api/svc/massprovisioning/v1.0/companies/{companyId}/imports', {
            params: { path: { companyId }, query: { limit, offset } },
          }),
        );
        return { data: r.data, total: r.total ?? r.data.length };
      }}
    />
  );
}
