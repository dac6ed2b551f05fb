// An import while it runs and once it ends (issue 28, point 5: "start the import, watch its
// counters move, read the per-line report and download the failing lines"; point 6: its
// throughput). The summary (format=small) is polled while the import is Pending and no longer once
// it is Terminated (document 3, Import request status); the report is then read a page at a time.
import { Anchor, Badge, Card, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { DeleteReport } from './DeleteReport.tsx';
import { LineReport } from './LineReport.tsx';
import { ThroughputChart } from './ThroughputChart.tsx';
import { NO_THROUGHPUT, observe } from './throughput.ts';

const DETAILS = '/api/svc/massprovisioning/v1.0/users/imports/{reqId}/details';
/** How often the counters are asked for while the import runs: also the chart's sampling. */
const POLL_MS = 1000;

/** The lines the check counted, handed over by the import page (absent when the page is opened directly). */
function expectedLines(state: unknown): number | null {
  if (typeof state === 'object' && state !== null && 'expected' in state && typeof state.expected === 'number')
    return state.expected;
  return null;
}

export default function ImportProgressPage() {
  const { reqId = '' } = useParams();
  const expected = expectedLines(useLocation().state);
  const [throughput, setThroughput] = useState(NO_THROUGHPUT);
  const summary = useQuery({
    queryKey: ['import', reqId, 'small'],
    queryFn: async () => {
      const s = (await unwrap(api.GET(DETAILS, { params: { path: { reqId }, query: { format: 'small' } } }))).data;
      const at = Date.now();
      setThroughput((t) => observe(t, s, at));
      return s;
    },
    // Live while Pending; settled once Terminated or Deleted (issue 28: "refetchInterval while
    // something is pending, stopping when settled").
    refetchInterval: (q) => (q.state.data?.status === 'Pending' ? POLL_MS : false),
    staleTime: 0,
  });
  const ended = summary.data?.status === 'Terminated';

  const s = summary.data;
  const c = s?.counters;
  return (
    <>
      <PageHeader title={s?.label ? `Import “${s.label}”` : 'Import'}>
        <Anchor component={Link} to={s ? `/imports?companyId=${s.companyId}` : '/imports'}>
          New import
        </Anchor>
      </PageHeader>
      <ErrorNotice error={summary.error} />
      {!s || !c ? (
        summary.isPending ? (
          <Loading label="Loading the import" />
        ) : null
      ) : (
        <Stack gap="lg">
          <Group gap="md">
            <Badge size="lg" color={ended ? 'teal.9' : 'blue.8'} variant="filled" data-testid="import-status">
              {s.status}
            </Badge>
            <Text size="sm">
              Mode {s.mode} · started by {s.displayName} on {new Date(s.startTime).toLocaleString()}
              {s.endTime ? ` · ended ${new Date(s.endTime).toLocaleString()}` : ''}
            </Text>
          </Group>
          <div aria-live="polite" data-testid="import-counters">
            <Progress
              value={expected ? Math.min(100, (100 * c.total) / expected) : 100}
              striped={!ended}
              animated={!ended}
              size="lg"
              aria-label="Lines done"
              mb="sm"
            />
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Counter label="Lines done" value={expected && !ended ? `${c.total} of ${expected}` : String(c.total)} />
              <Counter label="Succeeded" value={String(c.succeeded)} />
              <Counter label="Failed" value={String(c.failed)} />
              <Counter label="Warnings" value={String(c.warnings)} />
            </SimpleGrid>
          </div>
          <ThroughputChart samples={throughput.samples} summary={s} />
          {ended ? <LineReport summary={s} /> : null}
          {s.status === 'Deleted' ? <Text>This import's report was deleted.</Text> : <DeleteReport summary={s} />}
        </Stack>
      )}
    </>
  );
}

function Counter({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={`counter-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {value}
      </Text>
    </Card>
  );
}
