// The week grid of office hours (issue 28, point 4): seven columns, Monday to Sunday, the day's
// hours downwards; open periods drawn in green with their times, closed stretches in grey, so a
// person sees at a glance when the welcome answers. A manager removes a period by its button.
import { Box, Text, UnstyledButton } from '@mantine/core';
import { closedSpans, periodText, spanOf, WEEK, type Period } from './office-hours.ts';

const HEIGHT = 384; // px for 24 hours: 16 px an hour.
const px = (minutes: number) => (minutes / 1440) * HEIGHT;

interface Props {
  openhours: Period[][];
  onRemove?: (dayIndex: number, periodIndex: number) => void;
}

function DayColumn({
  index,
  name,
  periods,
  onRemove,
}: {
  index: number;
  name: string;
  periods: Period[];
  onRemove?: Props['onRemove'];
}) {
  const summary = periods.length ? `open ${periods.map(periodText).join(', ')}` : 'closed';
  return (
    <Box role="group" aria-label={`${name}: ${summary}`} data-testid={`day-${index}`}>
      <Text ta="center" fw={700} size="sm" mb={4}>
        {name.slice(0, 3)}
      </Text>
      <Box
        pos="relative"
        h={HEIGHT}
        style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
      >
        {closedSpans(periods).map((s) => (
          <Box
            key={`c${s.from}`}
            pos="absolute"
            left={0}
            right={0}
            top={px(s.from)}
            h={px(s.to - s.from)}
            bg="var(--mantine-color-gray-light)"
            aria-hidden
          />
        ))}
        {periods.map((p, i) => {
          const s = spanOf(p);
          const text = periodText(p);
          return (
            <UnstyledButton
              key={`${text}-${i}`}
              pos="absolute"
              left={2}
              right={2}
              top={px(s.from)}
              h={Math.max(px(s.to - s.from), 14)}
              bg="var(--mantine-color-green-9)"
              c="white"
              fz={11}
              ta="center"
              style={{ borderRadius: 4, overflow: 'hidden', cursor: onRemove ? 'pointer' : 'default' }}
              data-testid="open-period"
              aria-label={onRemove ? `Remove ${text} on ${name}` : `Open ${text}`}
              onClick={onRemove ? () => onRemove(index, i) : undefined}
              disabled={!onRemove}
            >
              {text}
            </UnstyledButton>
          );
        })}
      </Box>
    </Box>
  );
}

export function WeekGrid({ openhours, onRemove }: Props) {
  return (
    <Box
      data-testid="week-grid"
      role="group"
      aria-label="Office hours of the week"
      style={{ display: 'grid', gridTemplateColumns: '36px repeat(7, minmax(60px, 1fr))', gap: 6 }}
      maw={820}
    >
      <Box pt={22} aria-hidden>
        {Array.from({ length: 9 }, (_, i) => i * 3).map((h) => (
          <Text key={h} size="xs" c="dimmed" h={px(180)} style={{ lineHeight: 1 }}>
            {String(h).padStart(2, '0')}h
          </Text>
        ))}
      </Box>
      {WEEK.map((d) => (
        <DayColumn key={d.index} index={d.index} name={d.name} periods={openhours[d.index] ?? []} onRemove={onRemove} />
      ))}
    </Box>
  );
}
