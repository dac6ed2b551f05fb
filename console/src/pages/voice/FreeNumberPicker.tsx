// A free internal number of the CloudPBX (listFreeInternalNumbers): the first few starting with
// the digits typed, so that a subscriber or a group gets a number of the plan that is not taken.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';

interface Props {
  systemId: string;
  value: string | null;
  onChange: (n: string | null) => void;
  required?: boolean;
}

export function FreeNumberPicker({ systemId, value, onChange, required }: Props) {
  const [search, setSearch] = useState('');
  const [startingWith] = useDebouncedValue(search.replace(/\D/g, ''), 250);
  const q = useQuery({
    queryKey: ['free-numbers', systemId, startingWith],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/free', {
          params: { path: { systemId }, query: { limit: 20, ...(startingWith ? { startingWith } : {}) } },
        }),
      ),
  });
  const options = (q.data?.data ?? []).map(String);
  return (
    <Select
      label="Internal number"
      description="A free number of the plan"
      searchable
      required={required}
      clearable={!required}
      value={value}
      onChange={onChange}
      searchValue={search}
      onSearchChange={setSearch}
      data={value && !options.includes(value) ? [value, ...options] : options}
      filter={({ options: o }) => o}
      nothingFoundMessage={q.isFetching ? 'Searching…' : 'No free number starts with these digits'}
      w={200}
    />
  );
}
