// A company's subscriptions over time (issue 28, point 6): how many subscriptions it held, and how
// many licences they carried, day by day, from each subscription's creation and termination dates.
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Text, Title } from '@mantine/core';
import type { Subscription } from './types.ts';

interface Point {
  date: string;
  Subscriptions: number;
  Licences: number;
}

/** The running counts after each day on which a subscription began or ended. */
export function overTime(list: readonly Subscription[], today = new Date()): Point[] {
  const moves: { at: string; n: number; licences: number }[] = [];
  for (const s of list) {
    const licences = s.maxNumberUsers ?? 0;
    if (!s.creationDate) continue;
    moves.push({ at: s.creationDate.slice(0, 10), n: 1, licences });
    if (s.terminationDate) moves.push({ at: s.terminationDate.slice(0, 10), n: -1, licences: -licences });
  }
  moves.sort((a, b) => a.at.localeCompare(b.at));
  const points: Point[] = [];
  let n = 0;
  let licences = 0;
  for (const m of moves) {
    n += m.n;
    licences += m.licences;
    const last = points.at(-1);
    if (last && last.date === m.at) Object.assign(last, { Subscriptions: n, Licences: licences });
    else points.push({ date: m.at, Subscriptions: n, Licences: licences });
  }
  const now = today.toISOString().slice(0, 10);
  if (points.length > 0 && points.at(-1)?.date !== now)
    points.push({ date: now, Subscriptions: n, Licences: licences });
  return points;
}

export function SubscriptionsChart({ list }: { list: readonly Subscription[] }) {
  const data = overTime(list);
  return (
    <figure style={{ margin: 0 }} aria-labelledby="subscriptions-chart-title">
      <Title order={2} size="h4" id="subscriptions-chart-title" mb="xs">
        Subscriptions over time
      </Title>
      {data.length === 0 ? (
        <Text c="dimmed">No subscription yet.</Text>
      ) : (
        <LineChart
          h={260}
          data={data}
          dataKey="date"
          withLegend
          curveType="stepAfter"
          series={[
            { name: 'Subscriptions', color: 'blue.8' },
            { name: 'Licences', color: 'teal.8' },
          ]}
          data-testid="subscriptions-chart"
        />
      )}
      <Text component="figcaption" size="sm" c="dimmed" mt="xs">
        Subscriptions held and licences bought, from each subscription&apos;s creation and termination dates
        {data.length > 0
          ? ` (today: ${data.at(-1)?.Subscriptions ?? 0} subscriptions, ${data.at(-1)?.Licences ?? 0} licences)`
          : ''}
        .
      </Text>
    </figure>
  );
}
