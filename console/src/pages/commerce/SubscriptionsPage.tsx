// A company's subscriptions (issue 28, points 3 and 6): their live state, updating without a
// reload while one is pending; subscribing and changing a quantity, each after its quotation; the
// subscriptions over time. The table pages on the server (point 9); the chart and the live state
// read the whole list, and each of its answers while one is pending refreshes the page shown.
import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerTable } from '../../components/ServerTable.tsx';
import { ChangeQuantityDialog } from './ChangeQuantityDialog.tsx';
import { BUYERS, RESIZERS } from './roles.ts';
import { SubscribeDialog } from './SubscribeDialog.tsx';
import { subscriptionColumns } from './subscription-columns.tsx';
import { SubscriptionsChart } from './SubscriptionsChart.tsx';
import {
  fetchSubscriptionsPage,
  subscriptionsPageKey,
  useCompanyName,
  useSubscriptions,
} from './subscriptions-query.ts';
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
  const columns = subscriptionColumns({ companyId, superadmin, canResize, onChange: setChanging });
  // Live state (issue 28, point 3): every new answer of the whole list after the first (the
  // polling while one is pending, and its last answer once settled) asks the page shown again.
  const client = useQueryClient();
  const updated = q.dataUpdatedAt;
  const lastUpdate = useRef(0);
  useEffect(() => {
    if (lastUpdate.current !== 0 && updated !== lastUpdate.current)
      void client.invalidateQueries({ queryKey: subscriptionsPageKey(companyId) });
    lastUpdate.current = updated;
  }, [client, companyId, updated]);
  return (
    <>
      <PageHeader title={`Subscriptions of ${name}`}>
        <Button variant="default" component={Link} to={`/companies/${companyId}/licences`}>
          Licences
        </Button>
        {canBuy ? <Button onClick={() => setSubscribing(true)}>Subscribe</Button> : null}
      </PageHeader>
      <ErrorNotice error={q.error} />
      <ServerTable<Subscription>
        caption={`Subscriptions of ${name}`}
        queryKey={subscriptionsPageKey(companyId)}
        columns={columns}
        rowKey={(s) => s.id ?? ''}
        fetchPage={(req) => fetchSubscriptionsPage(companyId, req)}
      />
      <Group mt="xl" display="block">
        <SubscriptionsChart list={list} />
      </Group>
      <SubscribeDialog companyId={companyId} opened={subscribing} onClose={() => setSubscribing(false)} />
      <ChangeQuantityDialog companyId={companyId} subscription={changing} onClose={() => setChanging(null)} />
    </>
  );
}
