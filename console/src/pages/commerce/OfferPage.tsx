// One offer of the platform (issue 28, point 3): its terms, prices, features and provisioning.
// The API has no "get an offer" outside a company (route table: getCompanyOffer only), so the
// page takes the row the offers list opened, or finds the offer in the list's pages.
import { Badge, Card, Group, List, SimpleGrid, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { day, model, prices } from './format.ts';
import { fetchOffers, offerKey } from './offers-fetch.ts';
import type { Offer } from './types.ts';

async function findOffer(id: string): Promise<Offer> {
  for (let offset = 0; ; offset += 100) {
    const page = await fetchOffers({ limit: 100, offset, sortField: '_id', sortOrder: 1 }, {});
    const found = page.data.find((o) => o.id === id);
    if (found) return found;
    if (offset + 100 >= page.total) throw new Error('No offer has this id.');
  }
}

export default function OfferPage() {
  const { offerId = '' } = useParams();
  // The offers list puts the row it opens in the cache under this key (offerKey).
  const q = useQuery({ queryKey: offerKey(offerId), queryFn: () => findOffer(offerId), staleTime: 60_000 });
  const o = q.data;
  return (
    <>
      <PageHeader title={o ? `Offer ${o.name}` : 'Offer'} />
      <ErrorNotice error={q.error} />
      {!o ? (
        q.isPending ? (
          <Loading label="Loading the offer" />
        ) : null
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Card withBorder>
            <Title order={2} size="h4">
              Terms
            </Title>
            <Text>{o.description ?? 'No description'}</Text>
            <Text size="sm" c="dimmed">
              {o.technicalDescription ?? ''}
            </Text>
            <Group gap={4} mt="sm">
              <Badge variant="dot">{model(o.businessModel)}</Badge>
              {o.canBeSold ? (
                <Badge variant="dot" color="green">
                  for sale
                </Badge>
              ) : (
                <Badge variant="dot" color="gray">
                  not for sale
                </Badge>
              )}
              {o.isPrepaid ? (
                <Badge variant="dot" color="grape">
                  prepaid {o.prepaidDuration ?? ''} months
                </Badge>
              ) : null}
              {o.isDefault ? <Badge variant="dot">default</Badge> : null}
              {o.isDemo ? (
                <Badge variant="dot" color="orange">
                  demo
                </Badge>
              ) : null}
            </Group>
            <Text mt="sm">Prices: {prices(o.prices)}</Text>
            <Text size="sm">
              Profile: {o.profileName ?? o.profileId ?? '—'} · Group: {o.groupName ?? '—'} · ERP reference:{' '}
              {o.erpReference ?? '—'}
            </Text>
            <Text size="sm" c="dimmed">
              Created {day(o.creationDate)}
            </Text>
          </Card>
          <Card withBorder>
            <Title order={2} size="h4">
              Features
            </Title>
            {(o.features ?? []).length === 0 ? <Text c="dimmed">None</Text> : null}
            <List>
              {(o.features ?? []).map((f) => (
                <List.Item key={f.featureUniqueRef}>{describe(f)}</List.Item>
              ))}
            </List>
            <Title order={2} size="h4" mt="md">
              Provisioning
            </Title>
            {(o.provisioningNeeded ?? []).length === 0 ? <Text c="dimmed">None needed</Text> : null}
            <List>
              {(o.provisioningNeeded ?? []).map((p) => (
                <List.Item key={`${p.providerType}-${p.mediaType ?? p.bridgeEnterpriseId ?? ''}`}>
                  {p.providerType} {p.mediaType ?? p.bridgeEnterpriseId ?? ''}
                </List.Item>
              ))}
            </List>
          </Card>
        </SimpleGrid>
      )}
    </>
  );
}

function describe(f: NonNullable<Offer['features']>[number]): string {
  const value = f.featureType === 'number' ? `up to ${f.limitMax ?? 0}` : f.isEnabled ? 'enabled' : 'disabled';
  return `${f.featureName}: ${value}`;
}
