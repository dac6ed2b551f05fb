// Choosing subscribers of a CloudPBX among thousands (a group's members, a monitor key's target):
// the service searches them by number or name (listSubscribers `search`) and answers a short
// page; what was chosen keeps its label when a new search no longer shows it.
import { MultiSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';

const PAGE = 50;

function useSubscriberOptions(systemId: string, search: string, chosen: readonly string[]) {
  const [term] = useDebouncedValue(search.trim(), 250);
  const q = useQuery({
    queryKey: ['subscribers', systemId, 'search', term],
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers', {
          params: { path: { systemId }, query: { limit: PAGE, ...(term ? { search: term } : {}) } },
        }),
      ),
  });
  // The labels of what was chosen, recorded when chosen.
  const [labels, setLabels] = useState<Record<string, string>>({});
  const found = (q.data?.data ?? []).map((s) => ({ value: s.id, label: `${s.shortNumber} ${s.userDisplayName}` }));
  const kept = chosen
    .filter((id) => !found.some((o) => o.value === id))
    .map((id) => ({ value: id, label: labels[id] ?? id }));
  const remember = (ids: readonly string[]) =>
    setLabels((l) => ({
      ...l,
      ...Object.fromEntries(found.filter((o) => ids.includes(o.value)).map((o) => [o.value, o.label])),
    }));
  return { data: [...kept, ...found], searching: q.isFetching, remember };
}

interface Common {
  systemId: string;
  label: string;
  w?: number;
}

const hint = 'Type digits of the number or part of the name';

export function SubscriberSelect(
  p: Common & { value: string | null; onChange: (v: string | null) => void; required?: boolean },
) {
  const [search, setSearch] = useState('');
  const { data, searching, remember } = useSubscriberOptions(p.systemId, search, p.value ? [p.value] : []);
  return (
    <Select
      label={p.label}
      required={p.required}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      placeholder={hint}
      nothingFoundMessage={searching ? 'Searching…' : 'No subscriber matches'}
      value={p.value}
      onChange={(v) => {
        remember(v ? [v] : []);
        p.onChange(v);
      }}
      data={data}
      w={p.w}
    />
  );
}

export function SubscribersMultiSelect(p: Common & { value: string[]; onChange: (v: string[]) => void }) {
  const [search, setSearch] = useState('');
  const { data, searching, remember } = useSubscriberOptions(p.systemId, search, p.value);
  return (
    <MultiSelect
      label={p.label}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      placeholder={hint}
      nothingFoundMessage={searching ? 'Searching…' : 'No subscriber matches'}
      value={p.value}
      onChange={(v) => {
        remember(v);
        p.onChange(v);
      }}
      data={data}
      w={p.w}
    />
  );
}
