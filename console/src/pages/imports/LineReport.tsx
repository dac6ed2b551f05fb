// The per-line report of an ended import (issue 28, point 5: "read the per-line report and
// download the failing lines"; point 9: lists of any size page on the server). A report may hold a
// million lines: each page is asked of the service (getImportReport with limit/offset and the
// status filter), and the failing lines are downloaded a page of 1,000 at a time.
import { Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { Schemas } from '../../api/client.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable } from '../../components/ServerTable.tsx';
import { LINE_COLUMNS } from './line-columns.tsx';
import { allFailingLines, fetchReportPage } from './report-api.ts';
import type { ReportRow, StatusFilter } from './report-rows.ts';
import { saveText } from './save-text.ts';

/**
 * `summary` is the import's summary: its counters are the lines reported per status (the job
 * counts exactly the lines it writes to the report), so the filters' counts need no request.
 */
export function LineReport({ summary }: { summary: Schemas['ImportReport'] }) {
  const [filter, setFilter] = useState<StatusFilter>('all');
  const { reqId, counters } = summary;
  const download = useMutation({
    mutationFn: async () => {
      const lines = await allFailingLines(reqId);
      saveText(`${lines.join('\n')}\n`, `failing-lines-${reqId.slice(0, 12)}.csv`);
    },
  });
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="end">
        <Title order={2} size="h3">
          Report per line
        </Title>
        <Button
          variant="default"
          disabled={counters.failed === 0}
          loading={download.isPending}
          onClick={() => download.mutate()}
        >
          Download failing lines ({counters.failed})
        </Button>
      </Group>
      <ErrorNotice error={download.error} />
      {counters.failed ? (
        <Text size="sm" c="dimmed">
          {/* document 3: failingLines are the CSV lines as they were written, without the header. */}
          The file holds the failing lines as they were written, without the header: add the header above them, fix them
          and import them again.
        </Text>
      ) : null}
      <SegmentedControl
        aria-label="Lines shown"
        value={filter}
        onChange={(v) => setFilter(v === 'failed' || v === 'succeeded' ? v : 'all')}
        data={[
          { value: 'all', label: `All (${counters.total})` },
          { value: 'failed', label: `Failed (${counters.failed})` },
          { value: 'succeeded', label: `Succeeded (${counters.succeeded})` },
        ]}
        w="fit-content"
      />
      <div data-testid="line-report">
        <ServerTable<ReportRow>
          caption={filter === 'all' ? 'Lines of the import' : `Lines of the import that ${filter}`}
          queryKey={['import', reqId, 'lines', filter]}
          columns={LINE_COLUMNS}
          rowKey={(r) => r.key}
          fetchPage={(req) => fetchReportPage(reqId, filter, req)}
          empty="No line here."
        />
      </div>
    </Stack>
  );
}
