// The platform's offers with their prices (issue 28, point 3; route table listAllOffers), paged,
// sorted and searched by the service.
import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerTable } from '../../components/ServerTable.tsx';
import { offerColumns } from './offer-columns.tsx';
import { fetchOffers, offerKey } from './offers-fetch.ts';
import type { Offer } from './types.ts';

export default function OffersPage() {
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 300);
  const navigate = useNavigate();
  const client = useQueryClient();
  return (
    <>
      <PageHeader title="Offers" />
      <TextInput
        label="Search by name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        w={280}
        mb="md"
      />
      <ServerTable<Offer>
        caption="Offers"
        queryKey={['offers', name]}
        columns={offerColumns}
        rowKey={(o) => o.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(o) => {
          client.setQueryData(offerKey(o.id ?? ''), o);
          void navigate(`/offers/${o.id}`);
        }}
        fetchPage={(req) => fetchOffers(req, { name })}
      />
    </>
  );
}
