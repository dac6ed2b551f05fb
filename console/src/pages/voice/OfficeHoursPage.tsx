// The office hours of a welcome (issue 28, point 4; document 2, getOfficeHours and
// updateOfficeHours; issue 26, point 7): the week on a grid of open and closed periods, the
// exceptions on a calendar, whether it is open now and when that changes (the service computes
// both in the welcome's time zone). A manager adds and removes periods and exceptions, then saves.
import { Alert, Badge, Button, Checkbox, Chip, Group, Stack, Text, Title } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ExceptionsCalendar } from './ExceptionsCalendar.tsx';
import { WEEK, WHOLE_DAY, withPeriod, type Period } from './office-hours.ts';
import { useCanManagePbx } from './roles.ts';
import type { OfficeHours } from './types.ts';
import { WeekGrid } from './WeekGrid.tsx';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

interface EditorProps {
  systemId: string;
  ivrId: string;
  initial: OfficeHours;
  /** A manager, on a welcome (a welcome service's hours are its welcome's: 409882). */
  canManage: boolean;
}

function Editor({ systemId, ivrId, initial, canManage }: EditorProps) {
  const qc = useQueryClient();
  const [hours, setHours] = useState<OfficeHours>(initial);
  const [dirty, setDirty] = useState(false);
  const [days, setDays] = useState<string[]>([]);
  const [from, setFrom] = useState('09:00');
  const [to, setTo] = useState('18:00');
  const [wholeDay, setWholeDay] = useState(false);
  const change = (next: OfficeHours) => {
    setHours(next);
    setDirty(true);
  };
  const addPeriod = () => {
    const p: Period = wholeDay ? WHOLE_DAY : [from, to];
    change({
      ...hours,
      openhours: hours.openhours.map((d, i) => (days.includes(String(i)) ? withPeriod(d, p) : d)),
    });
  };
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/{ivrId}/officehours', {
          params: { path: { systemId, ivrId } },
          body: { officehours: { openhours: hours.openhours, exceptions: hours.exceptions } },
        }),
      ),
    onSuccess: async () => {
      setDirty(false);
      await qc.invalidateQueries({ queryKey: ['office-hours', systemId, ivrId] });
      notify('Office hours saved');
    },
  });
  const badPeriod = !wholeDay && (!/^\d\d:\d\d$/.test(from) || !/^\d\d:\d\d$/.test(to) || from >= to);
  return (
    <Stack>
      <Title order={3} size="h4">
        The week
      </Title>
      <WeekGrid
        openhours={hours.openhours}
        onRemove={
          canManage
            ? (day, i) =>
                change({
                  ...hours,
                  openhours: hours.openhours.map((d, k) => (k === day ? d.filter((_, j) => j !== i) : d)),
                })
            : undefined
        }
      />
      {canManage ? (
        <Stack gap="xs" maw={820}>
          <Chip.Group multiple value={days} onChange={setDays}>
            <Group gap={6} role="group" aria-label="Days of the new period">
              {WEEK.map((d) => (
                <Chip key={d.index} value={String(d.index)} size="sm">
                  {d.name}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Group align="end">
            <TimeInput
              label="Opens at"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              disabled={wholeDay}
            />
            <TimeInput
              label="Closes at"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              disabled={wholeDay}
            />
            <Checkbox
              label="Whole day"
              checked={wholeDay}
              onChange={(e) => setWholeDay(e.currentTarget.checked)}
              mb={8}
            />
            <Button variant="default" onClick={addPeriod} disabled={days.length === 0 || badPeriod}>
              Add the period
            </Button>
          </Group>
          {badPeriod ? (
            <Text size="sm" c="red">
              A period opens before it closes (HH:MM).
            </Text>
          ) : null}
        </Stack>
      ) : null}
      <Title order={3} size="h4" mt="md">
        Exceptions
      </Title>
      <ExceptionsCalendar
        exceptions={hours.exceptions}
        canEdit={canManage}
        onChange={(exceptions) => change({ ...hours, exceptions })}
      />
      <ErrorNotice error={save.error} />
      {canManage ? (
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!dirty}>
            Save the office hours
          </Button>
          {dirty ? (
            <Text size="sm" c="dimmed">
              Changes not saved yet
            </Text>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}

export default function OfficeHoursPage() {
  const systemId = useSystemId();
  const canManage = useCanManagePbx();
  const ivrId = useParams().ivrId ?? '';
  const path = { systemId, ivrId };
  const welcome = useQuery({
    queryKey: ['welcome', systemId, ivrId],
    queryFn: () =>
      unwrap(api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/{ivrId}', { params: { path } })),
  });
  const q = useQuery({
    queryKey: ['office-hours', systemId, ivrId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/ivrs/{ivrId}/officehours', { params: { path } }),
      ),
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return <Loading label="Loading the office hours" />;
  const d = q.data.data;
  const isService = welcome.data ? 'welcomeId' in welcome.data.data : false;
  return (
    <Stack>
      <Title order={2} size="h3">
        Office hours of {welcome.data?.data.name ?? 'the welcome'}
      </Title>
      <Group>
        {d.isOpen ? <Badge color="teal.9">open now</Badge> : <Badge color="gray.7">closed now</Badge>}
        <Text size="sm">
          Time zone {d.timezone}
          {d.nextChange ? `; ${d.isOpen ? 'closes' : 'opens'} ${new Date(d.nextChange).toLocaleString()}` : ''}
        </Text>
      </Group>
      {isService ? (
        <Alert color="blue" title="Hours of its welcome">
          A welcome service keeps the office hours of its welcome: change them on the welcome.
        </Alert>
      ) : null}
      {/* Keyed by the welcome: a refetch (isOpen, nextChange) keeps the edits under way. */}
      <Editor
        key={ivrId}
        systemId={systemId}
        ivrId={ivrId}
        initial={d.officehours}
        canManage={canManage && !isService}
      />
    </Stack>
  );
}
