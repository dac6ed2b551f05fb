// The call recordings of a CloudPBX (issue 28, point 4; document 2, Recordings; issue 26, point 5):
// only the company_admin of its company consults them (recordings.policy.ts), so the section is
// offered to that role only and any other is told why instead of being refused in silence. The
// list is paged, sorted and limited to a date range by the service; each recording is played in
// the page and may be deleted.
import { Alert, Button, Group, TextInput, Title } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { AudioPlayer } from './AudioPlayer.tsx';
import { useCanConsultRecordings } from './roles.ts';
import type { Recording } from './types.ts';
import { useSystemId } from './usePbx.ts';
import { notify } from '../../lib/notify.ts';

/** The range's bounds as instants: from the first day's start to the last day's end, local time. */
function bounds([from, to]: DatesRangeValue<string>): { fromDate?: string; toDate?: string } {
  return {
    ...(from ? { fromDate: new Date(`${from}T00:00:00`).toISOString() } : {}),
    ...(to ? { toDate: new Date(`${to}T23:59:59.999`).toISOString() } : {}),
  };
}

export default function RecordingsTab() {
  const systemId = useSystemId();
  const mayConsult = useCanConsultRecordings();
  const qc = useQueryClient();
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  const [search, setSearch] = useState('');
  const [recordedName] = useDebouncedValue(search.trim(), 300);
  const remove = useMutation({
    mutationFn: (recordId: string) =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/recordings/{recordId}', {
          params: { path: { systemId, recordId } },
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['recordings', systemId] });
      notify('Recording deleted');
    },
  });
  if (!mayConsult)
    return (
      <Alert color="yellow" title="Not allowed for your role" role="alert">
        Only the administrator of the CloudPBX&apos;s own company consults its call recordings.
      </Alert>
    );
  const columns: Column<Recording>[] = [
    { key: 'date', label: 'Date', sortField: 'date', render: (r) => new Date(r.date).toLocaleString() },
    { key: 'direction', label: 'Direction', render: (r) => (r.direction === 'in' ? 'incoming' : 'outgoing') },
    {
      key: 'recorded',
      label: 'Recorded party',
      sortField: 'recordedName',
      render: (r) => `${r.recordedParty.name} (${r.recordedParty.number})`,
    },
    { key: 'other', label: 'Other party', sortField: 'otherNumber', render: (r) => r.otherParty.number },
    { key: 'duration', label: 'Duration', sortField: 'duration', render: (r) => `${r.duration} s` },
    {
      key: 'listen',
      label: 'Listen',
      render: (r) => (
        <AudioPlayer
          url={`/api/svc/vcpprovisioning/v1.0/cloudpbxs/${systemId}/recordings/${r.id}/audio`}
          label={`recording of ${new Date(r.date).toLocaleString()}`}
        />
      ),
    },
    {
      key: 'actions',
      label: 'Actions',
      render: (r) => (
        <Button size="compact-xs" variant="default" color="red.9" onClick={() => remove.mutate(r.id)}>
          Delete
        </Button>
      ),
    },
  ];
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Recordings
      </Title>
      <ErrorNotice error={remove.error} />
      <Group align="end" mb="md">
        <DatePickerInput
          type="range"
          label="Recorded between"
          placeholder="Any date"
          clearable
          value={range}
          onChange={setRange}
          w={300}
        />
        <TextInput label="Recorded party's name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
      </Group>
      <ServerTable<Recording>
        caption="Recordings"
        queryKey={['recordings', systemId, range, recordedName]}
        columns={columns}
        rowKey={(r) => r.id}
        defaultSort={{ field: 'date', order: -1 }}
        empty="No recording in this range."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/recordings', {
              params: {
                path: { systemId },
                query: { ...req, ...bounds(range), ...(recordedName ? { recordedName } : {}) },
              },
            }),
          )
        }
      />
    </>
  );
}
