// Choosing a company among those the caller may see: the service searches by name and answers
// one short page, so the picker works the same over ten companies or 100,000.
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.ts';
import { unwrap } from '../api/errors.ts';

interface Props {
  label?: string;
  value: string | null;
  onChange: (companyId: string | null) => void;
  /** Only BPs (isBP=true), for choosing a parent BP. */
  onlyBps?: boolean;
  required?: boolean;
}

export function CompanyPicker({ label = 'Company', value, onChange, onlyBps, required }: Props) {
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const q = useQuery({
    queryKey: ['company-picker', name, onlyBps],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/companies', {
          params: { query: { limit: 20, ...(name ? { name } : {}), ...(onlyBps ? { isBP: true } : {}) } },
        }),
      ),
  });
  const options = (q.data?.data ?? []).map((c) => ({ value: c.id ?? '', label: c.name ?? '' }));
  return (
    <Select
      label={label}
      searchable
      clearable={!required}
      required={required}
      value={value}
      onChange={onChange}
      searchValue={search}
      onSearchChange={setSearch}
      data={options}
      filter={({ options: o }) => o}
      nothingFoundMessage={q.isFetching ? 'Searching…' : 'No company of that name'}
    />
  );
}
