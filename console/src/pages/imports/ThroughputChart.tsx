// The chart of an import's throughput (issue 28, point 6: "an import's throughput while it runs"):
// lines done per second, one point per status answer while the page polls.
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client.ts';
import { averageRate, type Sample } from './throughput.ts';

export function ThroughputChart({ samples, summary }: { samples: Sample[]; summary: Schemas['ImportSummary'] }) {
  const avg = averageRate(summary);
  const latest = samples.at(-1);
  return (
    <Stack gap="xs" data-testid="throughput">
      <Title order={2} size="h3">
        Throughput
      </Title>
      <Text size="sm" data-testid="throughput-summary">
        {latest ? `Latest: ${latest.rate} lines/s. ` : ''}
        {avg !== null ? `Average over the import: ${avg} lines/s.` : 'Measured while the page watches the import.'}
      </Text>
      {samples.length ? (
        <figure style={{ margin: 0 }} aria-label="Lines done per second while the import runs">
          <LineChart
            h={220}
            data={samples}
            dataKey="second"
            series={[{ name: 'rate', label: 'Lines per second', color: 'blue.8' }]}
            curveType="linear"
            xAxisLabel="Seconds watched"
            yAxisLabel="Lines / s"
            withDots
            data-testid="throughput-chart"
          />
        </figure>
      ) : (
        <Text c="dimmed" size="sm">
          {summary.status === 'Pending'
            ? 'The first points appear at the next answers of the service.'
            : 'The import ended before this page could sample its pace.'}
        </Text>
      )}
    </Stack>
  );
}
