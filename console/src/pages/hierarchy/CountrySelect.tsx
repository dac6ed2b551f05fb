// The country of a company: the service's own list (GET /enduser/v1.0/countries, ISO 3166-1
// alpha-3), with the state or province the service requires for the USA and Canada.
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { CA_PROVINCES, US_STATES } from './states.ts';

interface Props {
  country: string;
  state: string;
  onCountry: (code: string) => void;
  onState: (state: string) => void;
  disabled?: boolean;
}

export function CountrySelect({ country, state, onCountry, onState, disabled }: Props) {
  const q = useQuery({
    queryKey: ['countries'],
    queryFn: () => unwrap(api.GET('/api/svc/enduser/v1.0/countries')),
    staleTime: Infinity,
  });
  const data = (q.data?.data ?? []).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }));
  return (
    <>
      <Select
        label="Country"
        searchable
        allowDeselect={false}
        value={country}
        onChange={(v) => onCountry(v ?? 'FRA')}
        data={data.length ? data : [{ value: country, label: country }]}
        disabled={disabled}
      />
      {/* Document 3: a state for the USA, a province for Canada, and none elsewhere. */}
      {country === 'USA' || country === 'CAN' ? (
        <Select
          label={country === 'USA' ? 'State' : 'Province'}
          required
          searchable
          value={state || null}
          onChange={(v) => onState(v ?? '')}
          data={[...(country === 'USA' ? US_STATES : CA_PROVINCES)]}
          disabled={disabled}
        />
      ) : null}
    </>
  );
}
