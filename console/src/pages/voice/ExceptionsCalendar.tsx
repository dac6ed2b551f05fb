// Exceptions to the office hours on a calendar (issue 28, point 4; document 2, office hours'
// exceptions): the dated days shown on the month (open ones green, closed ones red), and listed
// below in words; a manager picks a date and says whether it is closed all day or open at times.
import { Badge, Button, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { DatePicker, TimeInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useState } from 'react';
import { exceptionOn, isoOf, periodText, sameDate, WHOLE_DAY, type Period } from './office-hours.ts';
import type { OfficeException } from './types.ts';

interface Props {
  exceptions: OfficeException[];
  canEdit: boolean;
  onChange: (next: OfficeException[]) => void;
}

export function ExceptionsCalendar({ exceptions, canEdit, onChange }: Props) {
  const [date, setDate] = useState<string | null>(null);
  const [kind, setKind] = useState<'closed' | 'open'>('closed');
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('12:00');
  const byDate = new Map(exceptions.map((e) => [isoOf(e), e]));
  const sorted = [...exceptions].sort((a, b) => isoOf(a).localeCompare(isoOf(b)));
  const add = () => {
    if (!date) return;
    const periods: Period[] = kind === 'open' ? [[from, to]] : [WHOLE_DAY];
    onChange([...exceptions.filter((e) => !sameDate(e, date)), exceptionOn(date, kind === 'open', periods)]);
  };
  return (
    <Group align="start" gap="xl">
      <Stack gap="xs">
        <DatePicker
          aria-label="Calendar of the exceptions"
          value={date}
          onChange={setDate}
          getDayProps={(d) => {
            const e = byDate.get(d);
            if (!e) return {};
            return {
              style: {
                backgroundColor: e.open ? 'var(--mantine-color-green-light)' : 'var(--mantine-color-red-light)',
                fontWeight: 700,
              },
              'aria-description': e.open ? `open ${e.periods.map(periodText).join(', ')}` : 'closed all day',
            };
          }}
        />
        {canEdit ? (
          <Stack gap="xs">
            <Text size="sm">{date ? `Exception on ${date}` : 'Pick a date for an exception'}</Text>
            <SegmentedControl
              aria-label="The day is"
              value={kind}
              onChange={(v) => setKind(v === 'open' ? 'open' : 'closed')}
              data={[
                { value: 'closed', label: 'Closed all day' },
                { value: 'open', label: 'Open at times' },
              ]}
            />
            {kind === 'open' ? (
              <Group>
                <TimeInput label="Exception opens at" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
                <TimeInput label="Exception closes at" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
              </Group>
            ) : null}
            <Button variant="default" disabled={!date} onClick={add}>
              Add the exception
            </Button>
          </Stack>
        ) : null}
      </Stack>
      <Table withTableBorder maw={420}>
        <Table.Caption>Exceptions: {exceptions.length}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">The day is</Table.Th>
            {canEdit ? <Table.Th scope="col">Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((e) => (
            <Table.Tr key={isoOf(e)}>
              <Table.Td>{isoOf(e)}</Table.Td>
              <Table.Td>
                {e.open ? (
                  <Badge color="teal.9">open {e.periods.map(periodText).join(', ')}</Badge>
                ) : (
                  <Badge color="red.9">closed</Badge>
                )}
              </Table.Td>
              {canEdit ? (
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="default"
                    onClick={() => onChange(exceptions.filter((x) => x !== e))}
                    aria-label={`Remove the exception of ${isoOf(e)}`}
                  >
                    Remove
                  </Button>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Group>
  );
}
