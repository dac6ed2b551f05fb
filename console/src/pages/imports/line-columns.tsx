// The columns of the per-line report (document 3, Import report): line, login, status, action,
// what became of the user, the parts (subscriber, SIP device, DDI, device) and the error.
import { Badge } from '@mantine/core';
import type { Column } from '../../components/ServerTable.tsx';
import type { ReportRow } from './report-rows.ts';

export const LINE_COLUMNS: Column<ReportRow>[] = [
  { key: 'line', label: 'Line', render: (r) => r.line ?? '' },
  { key: 'login', label: 'Login', render: (r) => r.login },
  {
    key: 'status',
    label: 'Status',
    render: (r) => (
      <Badge color={r.status === 'failed' ? 'red.9' : 'teal.9'} variant="filled">
        {r.status}
      </Badge>
    ),
  },
  { key: 'action', label: 'Action', render: (r) => r.action },
  { key: 'user', label: 'User', render: (r) => r.user ?? '' },
  { key: 'parts', label: 'Parts', render: (r) => r.parts.join(', ') },
  { key: 'error', label: 'Error', render: (r) => (r.error ? `${r.error.code}: ${r.error.message}` : '') },
];
