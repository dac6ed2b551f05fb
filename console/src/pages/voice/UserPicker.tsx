// Choosing a user of the CloudPBX's company: the service searches by name and answers one short
// page, so the picker works the same for ten users or 100,000.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';

interface Props {
  companyId: string;
  value: string | null;
  onChange: (userId: string | null) => void;
  label?: string;
}

export function UserPicker({ companyId, value, onChange, label = 'User' }: Props) {
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const q = useQuery({
    queryKey: ['user-picker', companyId, name],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/users', {
          params: { query: { companyId, limit: 20, ...(name ? { name } : {}) } },
        }),
      ),
  });
  const options = (q.data?.data ?? []).map((u) => ({
    value: u.id ?? '',
    label: `${u.displayName ?? [u.firstName, u.lastName].filter(Boolean).join(' ')} (${u.loginEmail ?? ''})`,
  }));
  return (
    <Select
      label={label}
      searchable
      required
      value={value}
      onChange={onChange}
      searchValue={search}
      onSearchChange={setSearch}
      data={options}
      filter={({ options: o }) => o}
      nothingFoundMessage={q.isFetching ? 'Searching…' : 'No user of that name'}
      w={340}
    />
  );
}
