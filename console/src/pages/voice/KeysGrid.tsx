// A desk phone's programmable keys laid out as on the phone (issue 28, point 4): the keys in two
// columns either side of the screen, numbered from 1 down the left column then down the right,
// as the phones of the model table are (document 2: keyNum from 1 to the model's number of keys).
// Each key shows what it does; an empty one is free for an administrator's key.
import { Box, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ProgrammableKey } from './types.ts';

interface Props {
  deviceName: string;
  /** The model's number of programmable keys. */
  count: number;
  keys: ProgrammableKey[];
  selected?: number | null;
  onSelect?: (keyNum: number) => void;
}

function KeyCell({
  n,
  k,
  selected,
  onSelect,
}: {
  n: number;
  k?: ProgrammableKey;
  selected: boolean;
  onSelect?: (n: number) => void;
}) {
  const what = k
    ? `${k.keyType}${k.displayName ? `: ${k.displayName}` : ''}${k.number ? ` (${k.number})` : ''}`
    : 'free';
  return (
    <UnstyledButton
      onClick={onSelect ? () => onSelect(n) : undefined}
      aria-pressed={onSelect ? selected : undefined}
      aria-label={`Key ${n}, ${what}${k ? `, set by ${k.keyOwner}` : ''}`}
      data-testid={`key-${n}`}
      style={{ display: 'block', width: '100%' }}
    >
      <Paper
        withBorder
        px="xs"
        py={4}
        radius="sm"
        bg={selected ? 'var(--mantine-color-blue-light)' : k ? 'var(--mantine-color-default)' : undefined}
        style={{ borderStyle: k ? 'solid' : 'dashed' }}
      >
        <Text size="xs" fw={700}>
          {n}
        </Text>
        <Text size="xs" truncate="end">
          {what}
        </Text>
      </Paper>
    </UnstyledButton>
  );
}

export function KeysGrid({ deviceName, count, keys, selected = null, onSelect }: Props) {
  if (count === 0)
    return (
      <Text c="dimmed" size="sm">
        This model has no programmable key.
      </Text>
    );
  const byNum = new Map(keys.map((k) => [k.keyNum, k]));
  const half = Math.ceil(count / 2);
  const column = (from: number, to: number) =>
    Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i).map((n) => (
      <KeyCell key={n} n={n} k={byNum.get(n)} selected={selected === n} onSelect={onSelect} />
    ));
  return (
    <Box
      role="group"
      aria-label={`Programmable keys of ${deviceName}`}
      data-testid="keys-grid"
      p="sm"
      maw={620}
      style={{
        display: 'grid',
        gridTemplateColumns: '1fr 1.4fr 1fr',
        gap: 'var(--mantine-spacing-sm)',
        border: '2px solid var(--mantine-color-default-border)',
        borderRadius: 16,
      }}
    >
      <Stack gap={6}>{column(1, half)}</Stack>
      <Paper
        aria-hidden
        radius="md"
        bg="var(--mantine-color-dark-6)"
        style={{ minHeight: 120, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        <Text c="gray.2" size="sm" ta="center" px="xs">
          {deviceName}
        </Text>
      </Paper>
      <Stack gap={6}>{column(half + 1, count)}</Stack>
    </Box>
  );
}
