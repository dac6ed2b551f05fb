// One catalog (issue 28, point 3; route table getCatalog, addOfferToCatalog,
// removeOfferFromCatalog): its offers with their prices, paged by the service; a superadmin adds
// and removes offers.
import { Button, Group, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { offerColumns } from './offer-columns.tsx';
import { fetchOffers, offerKey } from './offers-fetch.ts';
import { CATALOG_MANAGERS } from './roles.ts';
import type { Offer } from './types.ts';

export default function CatalogPage() {
  const { catalogId = '' } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const canManage = useRoles(...CATALOG_MANAGERS);
  const catalog = useQuery({
    queryKey: ['catalog', catalogId],
    queryFn: () =>
      unwrap(api.GET('/api/svc/subscription/v1.0/catalogs/{catalogId}', { params: { path: { catalogId } } })),
  });
  const changed = async (message: string) => {
    notifications.show({ message });
    await client.invalidateQueries({ queryKey: ['catalog', catalogId] });
    await client.invalidateQueries({ queryKey: ['catalog-offers', catalogId] });
    await client.invalidateQueries({ queryKey: ['catalogs'] });
  };
  const remove = useMutation({
    mutationFn: (o: Offer) =>
      unwrap(
        api.DELETE('/api/svc/subscription/v1.0/catalogs/{catalogId}/offers/{offerId}', {
          params: { path: { catalogId, offerId: o.id ?? '' } },
        }),
      ),
    onSuccess: (r) => changed(r.status),
  });
  const columns: Column<Offer>[] = canManage
    ? [
        ...offerColumns,
        {
          key: 'remove',
          label: 'Actions',
          render: (o) => (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={(e) => {
                e.stopPropagation();
                remove.mutate(o);
              }}
              aria-label={`Remove ${o.name} from the catalog`}
            >
              Remove
            </Button>
          ),
        },
      ]
    : offerColumns;
  const c = catalog.data?.data;
  return (
    <>
      <PageHeader title={c ? `Catalog ${c.name}` : 'Catalog'} />
      <ErrorNotice error={catalog.error ?? remove.error} />
      {c?.description ? <Text mb="md">{c.description}</Text> : null}
      {canManage ? <AddOffer catalogId={catalogId} onAdded={changed} /> : null}
      <ServerTable<Offer>
        caption="Offers of the catalog"
        queryKey={['catalog-offers', catalogId]}
        columns={columns}
        rowKey={(o) => o.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        onRowClick={(o) => {
          client.setQueryData(offerKey(o.id ?? ''), o);
          void navigate(`/offers/${o.id}`);
        }}
        fetchPage={(req) => fetchOffers(req, { catalogId })}
        empty="No offer in this catalog yet."
      />
    </>
  );
}

function AddOffer({ catalogId, onAdded }: { catalogId: string; onAdded: (message: string) => Promise<void> }) {
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const [offerId, setOfferId] = useState<string | null>(null);
  const offers = useQuery({
    queryKey: ['offers-picker', name],
    queryFn: () => fetchOffers({ limit: 20, offset: 0, sortField: 'name', sortOrder: 1 }, { name }),
  });
  const add = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.POST('/api/svc/subscription/v1.0/catalogs/{catalogId}/offers', {
          params: { path: { catalogId } },
          body: { offerId: id },
        }),
      ),
    onSuccess: async () => {
      setOfferId(null);
      await onAdded('Offer added to the catalog');
    },
  });
  return (
    <>
      <ErrorNotice error={add.error} />
      <Group align="end" mb="md">
        <Select
          label="Offer to add"
          searchable
          data={(offers.data?.data ?? []).map((o) => ({ value: o.id ?? '', label: o.name ?? '' }))}
          filter={({ options }) => options}
          searchValue={search}
          onSearchChange={setSearch}
          value={offerId}
          onChange={setOfferId}
          w={320}
        />
        <Button disabled={!offerId} loading={add.isPending} onClick={() => offerId && add.mutate(offerId)}>
          Add offer
        </Button>
      </Group>
    </>
  );
}
