// A list paged, sorted and filtered by the service (issue 28, points 2 and 9): the page asks for
// one page at a time (limit/offset, sortField/sortOrder of document 1), so a list of 100,000 rows
// opens as fast as one of ten. The previous page stays on screen while the next one loads.
import { Group, Pagination, Select, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice.tsx';

export interface Page<T> {
  data: T[];
  total: number;
}

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
  /** The service's sortField for this column, when it sorts by it. */
  sortField?: string;
}

export interface PageRequest {
  limit: number;
  offset: number;
  sortField?: string;
  sortOrder?: 1 | -1;
}

interface Props<T> {
  /** Caption read by screen readers and shown above the table. */
  caption: string;
  /** Changes of any part of the key (filters included) reload from the first page. */
  queryKey: readonly unknown[];
  fetchPage: (req: PageRequest) => Promise<Page<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  defaultSort?: { field: string; order: 1 | -1 };
  onRowClick?: (row: T) => void;
  empty?: string;
}

const SIZES = ['10', '25', '50', '100'];

export function ServerTable<T>(props: Props<T>) {
  const { columns, defaultSort } = props;
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(25);
  const [sort, setSort] = useState(defaultSort);
  const [filterKey, setFilterKey] = useState(JSON.stringify(props.queryKey));
  const key = JSON.stringify(props.queryKey);
  if (key !== filterKey) {
    // New filters: back to the first page (state adjusted during render, React's documented way).
    setFilterKey(key);
    setPage(1);
  }
  const req: PageRequest = { limit: size, offset: (page - 1) * size, sortField: sort?.field, sortOrder: sort?.order };
  const q = useQuery({
    queryKey: [...props.queryKey, req],
    queryFn: () => props.fetchPage(req),
    placeholderData: keepPreviousData,
  });
  const total = q.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));
  const toggle = (field: string) =>
    setSort((s) => (s?.field === field ? { field, order: s.order === 1 ? -1 : 1 } : { field, order: 1 }));

  return (
    <div>
      <ErrorNotice error={q.error} />
      <Table.ScrollContainer minWidth={600}>
        <Table striped highlightOnHover={Boolean(props.onRowClick)} aria-busy={q.isFetching}>
          <Table.Caption>
            {props.caption}: {q.isPending ? 'loading…' : `${total.toLocaleString()} in all`}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => {
                const sorted = sort && c.sortField === sort.field;
                return (
                  <Table.Th
                    key={c.key}
                    scope="col"
                    aria-sort={sorted ? (sort.order === 1 ? 'ascending' : 'descending') : undefined}
                  >
                    {c.sortField ? (
                      <UnstyledButton onClick={() => toggle(c.sortField ?? '')} fw={700} fz="sm">
                        {c.label} {sorted ? (sort.order === 1 ? '▲' : '▼') : ''}
                        <VisuallyHidden>, sort</VisuallyHidden>
                      </UnstyledButton>
                    ) : (
                      c.label
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(q.data?.data ?? []).map((row) => (
              <Table.Tr
                key={props.rowKey(row)}
                style={props.onRowClick ? { cursor: 'pointer' } : undefined}
                onClick={props.onRowClick ? () => props.onRowClick?.(row) : undefined}
              >
                {columns.map((c) => (
                  <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {q.data && q.data.data.length === 0 ? (
        <Text c="dimmed" my="md">
          {props.empty ?? 'Nothing here yet.'}
        </Text>
      ) : null}
      <Group justify="space-between" mt="sm">
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          aria-label={`${props.caption} pages`}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `page ${n}` })}
        />
        <Select
          label="Rows per page"
          data={SIZES}
          value={String(size)}
          onChange={(v) => {
            setSize(Number(v ?? 25));
            setPage(1);
          }}
          w={130}
          allowDeselect={false}
        />
      </Group>
    </div>
  );
}
