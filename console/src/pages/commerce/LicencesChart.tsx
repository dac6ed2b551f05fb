// Licences used against bought per offer (issue 28, point 6), as bars side by side.
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Text, Title } from '@mantine/core';
import type { OfferLicences } from './licences.ts';

export function LicencesChart({ rows }: { rows: OfferLicences[] }) {
  return (
    <figure style={{ margin: 0 }} aria-labelledby="licences-chart-title">
      <Title order={2} size="h4" id="licences-chart-title" mb="xs">
        Licences used against bought
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">No subscription with licences.</Text>
      ) : (
        <BarChart
          h={260}
          data={rows}
          dataKey="offer"
          withLegend
          withBarValueLabel
          series={[
            { name: 'Used', color: 'blue.8' },
            { name: 'Bought', color: 'gray.6' },
          ]}
          data-testid="licences-chart"
        />
      )}
      <Text component="figcaption" size="sm" c="dimmed" mt="xs" data-testid="licences-chart-caption">
        {rows.map((r) => `${r.offer}: ${r.Used} used of ${r.Bought}`).join('; ') || 'Nothing bought yet'}.
      </Text>
    </figure>
  );
}
