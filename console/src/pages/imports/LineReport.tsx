// The per-line report of an ended import (issue 28, point 5: "read the per-line report and
// download the failing lines"). The service answers the report whole (getImportReport has no
// paging), so the page shows it a page at a time without asking again.
import { Badge, Button, Group, Pagination, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { Schemas } from '../../api/client.ts';
import { filterRows, reportRows, type StatusFilter } from './report-rows.ts';
import { saveText } from './save-text.ts';

const PER_PAGE = 25;

export function LineReport({ report }: { report: Schemas['ImportReport'] }) {
  const rows = useMemo(() => reportRows(report.report), [report.report]);
  const [filter, setFilter] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const shown = filterRows(rows, filter);
  const pages = Math.max(1, Math.ceil(shown.length / PER_PAGE));
  const failing = report.failingLines ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="end">
        <Title order={2} size="h3">
          Report per line
        </Title>
        <Button
          variant="default"
          disabled={failing.length === 0}
          onClick={() => saveText(`${failing.join('\n')}\n`, `failing-lines-${report.reqId.slice(0, 12)}.csv`)}
        >
          Download failing lines ({failing.length})
        </Button>
      </Group>
      {failing.length ? (
        <Text size="sm" c="dimmed">
          {/* document 3: failingLines are the CSV lines as they were written, without the header. */}
          The file holds the failing lines as they were written, without the header: add the header above them, fix them
          and import them again.
        </Text>
      ) : null}
      <SegmentedControl
        aria-label="Lines shown"
        value={filter}
        onChange={(v) => {
          setFilter(v === 'failed' || v === 'succeeded' ? v : 'all');
          setPage(1);
        }}
        data={[
          { value: 'all', label: `All (${rows.length})` },
          { value: 'failed', label: `Failed (${filterRows(rows, 'failed').length})` },
          { value: 'succeeded', label: `Succeeded (${filterRows(rows, 'succeeded').length})` },
        ]}
        w="fit-content"
      />
      <Table.ScrollContainer minWidth={700}>
        <Table striped captionSide="top" data-testid="line-report">
          <Table.Caption>
            Lines of the import: {shown.length} {filter === 'all' ? 'in all' : filter}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Line</Table.Th>
              <Table.Th scope="col">Login</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Action</Table.Th>
              <Table.Th scope="col">User</Table.Th>
              <Table.Th scope="col">Parts</Table.Th>
              <Table.Th scope="col">Error</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((r) => (
              <Table.Tr key={r.key}>
                <Table.Td>{r.line ?? ''}</Table.Td>
                <Table.Td>{r.login}</Table.Td>
                <Table.Td>
                  <Badge color={r.status === 'failed' ? 'red.9' : 'teal.9'} variant="filled">
                    {r.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.action}</Table.Td>
                <Table.Td>{r.user ?? ''}</Table.Td>
                <Table.Td>{r.parts.join(', ')}</Table.Td>
                <Table.Td>{r.error ? `${r.error.code}: ${r.error.message}` : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          aria-label="Report pages"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `page ${n}` })}
        />
      ) : null}
    </Stack>
  );
}
