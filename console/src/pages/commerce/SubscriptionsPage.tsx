// A company's subscriptions (issue 28, points 3 and 6): their live state, updating without a
// reload while one is pending; subscribing and changing a quantity, each after its quotation; the
// subscriptions over time.
import { Button, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ChangeQuantityDialog } from './ChangeQuantityDialog.tsx';
import { day, hasQuantity, model } from './format.ts';
import { BUYERS, RESIZERS } from './roles.ts';
import { RetrySync } from './RetrySync.tsx';
import { SubscribeDialog } from './SubscribeDialog.tsx';
import { SubscriptionsChart } from './SubscriptionsChart.tsx';
import { SubscriptionState } from './SubscriptionState.tsx';
import { useCompanyName, useSubscriptions } from './subscriptions-query.ts';
import type { Subscription } from './types.ts';

export default function SubscriptionsPage() {
  const { companyId = '' } = useParams();
  const name = useCompanyName(companyId);
  const q = useSubscriptions(companyId);
  const canBuy = useRoles(...BUYERS);
  const canResize = useRoles(...RESIZERS);
  const superadmin = useRoles('superadmin');
  const [subscribing, setSubscribing] = useState(false);
  const [changing, setChanging] = useState<Subscription | null>(null);
  const list = q.data?.data ?? [];
  return (
    <>
      <PageHeader title={`Subscriptions of ${name}`}>
        <Button variant="default" component={Link} to={`/companies/${companyId}/licences`}>
          Licences
        </Button>
        {canBuy ? <Button onClick={() => setSubscribing(true)}>Subscribe</Button> : null}
      </PageHeader>
      <ErrorNotice error={q.error} />
      {q.isPending ? (
        <Loading label="Loading subscriptions" />
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped aria-busy={q.isFetching}>
            <Table.Caption>
              Subscriptions of {name}: {list.length} in all
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Offer</Table.Th>
                <Table.Th scope="col">Model</Table.Th>
                <Table.Th scope="col">State</Table.Th>
                <Table.Th scope="col">Licences (assigned / bought)</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((s) => (
                <Table.Tr key={s.id} data-testid={`subscription-${s.id}`}>
                  <Table.Th scope="row" fw={500}>
                    {s.offerName}
                    {s.isDefault ? (
                      <Text size="xs" c="dimmed">
                        default offer
                      </Text>
                    ) : null}
                  </Table.Th>
                  <Table.Td>{model(s.businessModel)}</Table.Td>
                  <Table.Td>
                    <SubscriptionState s={s} />
                  </Table.Td>
                  <Table.Td>
                    {typeof s.maxNumberUsers === 'number' ? `${s.numberAssignedUsers ?? 0} / ${s.maxNumberUsers}` : '—'}
                    {typeof s.updatingMaxNumberUsers === 'number' && s.syncOngoing
                      ? ` → ${s.updatingMaxNumberUsers}`
                      : ''}
                  </Table.Td>
                  <Table.Td>{day(s.creationDate)}</Table.Td>
                  <Table.Td>
                    {superadmin && s.syncError ? <RetrySync companyId={companyId} s={s} /> : null}
                    {canResize && s.status === 'active' && hasQuantity(s.businessModel) ? (
                      <Button
                        size="xs"
                        variant="light"
                        disabled={s.syncOngoing}
                        onClick={() => setChanging(s)}
                        aria-label={`Change the quantity of ${s.offerName}`}
                      >
                        Change quantity
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group mt="xl" display="block">
        <SubscriptionsChart list={list} />
      </Group>
      <SubscribeDialog companyId={companyId} opened={subscribing} onClose={() => setSubscribing(false)} />
      <ChangeQuantityDialog companyId={companyId} subscription={changing} onClose={() => setChanging(null)} />
    </>
  );
}
