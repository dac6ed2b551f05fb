// The company's imports, the latest first (listImports): each opens its progress and report. The
// service answers this list whole (no paging parameters), so it is shown a page at a time here.
import { Anchor, Badge, Pagination, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

const PER_PAGE = 10;
/** Shades whose white text keeps a contrast of 4.5:1 (WCAG AA). */
const STATUS_COLORS = { Pending: 'blue.8', Terminated: 'teal.9', Deleted: 'gray.7' } as const;

export function RecentImports({ companyId }: { companyId: string }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['imports', companyId],
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/svc/massprovisioning/v1.0/companies/{companyId}/imports', { params: { path: { companyId } } }),
        )
      ).data,
    enabled: Boolean(companyId),
  });
  const list = q.data ?? [];
  const pages = Math.max(1, Math.ceil(list.length / PER_PAGE));
  return (
    <div>
      <ErrorNotice error={q.error} />
      <Table.ScrollContainer minWidth={600}>
        <Table striped captionSide="top">
          <Table.Caption>Imports of the company: {q.isPending ? 'loading…' : `${list.length} in all`}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Started</Table.Th>
              <Table.Th scope="col">Label</Table.Th>
              <Table.Th scope="col">Mode</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Succeeded</Table.Th>
              <Table.Th scope="col">Failed</Table.Th>
              <Table.Th scope="col">By</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((i) => (
              <Table.Tr key={i.reqId}>
                <Table.Td>
                  <Anchor component={Link} to={`/imports/${i.reqId}`}>
                    {new Date(i.startTime).toLocaleString()}
                  </Anchor>
                </Table.Td>
                <Table.Td>{i.label ?? ''}</Table.Td>
                <Table.Td>{i.mode}</Table.Td>
                <Table.Td>
                  <Badge variant="filled" color={STATUS_COLORS[i.status]}>
                    {i.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{i.counters.succeeded}</Table.Td>
                <Table.Td>{i.counters.failed}</Table.Td>
                <Table.Td>{i.displayName}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Pagination
          mt="sm"
          total={pages}
          value={page}
          onChange={setPage}
          aria-label="Imports pages"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `page ${n}` })}
        />
      ) : null}
    </div>
  );
}
