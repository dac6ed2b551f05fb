// Handing out a subscription's licence to a user, or taking it back (issue 28, point 3; route
// table: assignUserLicence, unassignUserLicence). The user is searched among the company's users
// on the service; the subscription is one of the company's active ones that carry licences.
import { Button, Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { subscriptionsKey } from './subscriptions-query.ts';
import type { Subscription } from './types.ts';

export function LicenceAssignment({ companyId, subscriptions }: { companyId: string; subscriptions: Subscription[] }) {
  const client = useQueryClient();
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const [userId, setUserId] = useState<string | null>(null);
  const [subscriptionId, setSubscriptionId] = useState<string | null>(null);
  const users = useQuery({
    queryKey: ['licence-users', companyId, name],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/users', {
          params: { query: { companyId, limit: 20, ...(name ? { name } : {}) } },
        }),
      ),
  });
  const userOptions = (users.data?.data ?? []).map((u) => ({
    value: u.id ?? '',
    label: [u.firstName, u.lastName].filter(Boolean).join(' ') || u.loginEmail || '',
  }));
  const subscriptionOptions = subscriptions
    .filter((s) => s.status === 'active' && typeof s.maxNumberUsers === 'number')
    .map((s) => ({
      value: s.id ?? '',
      label: `${s.offerName ?? ''} (${s.numberAssignedUsers ?? 0} / ${s.maxNumberUsers ?? 0})`,
    }));
  const path = { userId: userId ?? '', subscriptionId: subscriptionId ?? '' };
  // Notifications name the user and the offer, not their ids.
  const who = userOptions.find((u) => u.value === userId)?.label ?? 'the user';
  const what = subscriptions.find((s) => s.id === subscriptionId)?.offerName ?? 'the subscription';
  const settle = async (message: string) => {
    notifications.show({ message });
    await client.invalidateQueries({ queryKey: subscriptionsKey(companyId) });
  };
  const assign = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/admin/v1.0/users/{userId}/profiles/subscriptions/{subscriptionId}', { params: { path } }),
      ),
    onSuccess: () => settle(`Licence of ${what} assigned to ${who}`),
  });
  const unassign = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/svc/admin/v1.0/users/{userId}/profiles/subscriptions/{subscriptionId}', { params: { path } }),
      ),
    // The service says whether the user held one (unassignUserLicence's status).
    onSuccess: (r) =>
      settle(
        r.status.startsWith('Licence')
          ? `Licence of ${what} taken back from ${who}`
          : `${who} held no licence of ${what}`,
      ),
  });
  const ready = Boolean(userId && subscriptionId);
  return (
    <div>
      <ErrorNotice error={users.error ?? assign.error ?? unassign.error} />
      <Group align="end">
        <Select
          label="User"
          placeholder="Search by name"
          searchable
          data={userOptions}
          filter={({ options }) => options}
          searchValue={search}
          onSearchChange={setSearch}
          value={userId}
          onChange={(v) => {
            setUserId(typeof v === 'string' ? v : null);
            assign.reset();
            unassign.reset();
          }}
          nothingFoundMessage={users.isFetching ? 'Searching…' : 'No user of that name'}
          w={280}
        />
        <Select
          label="Subscription"
          data={subscriptionOptions}
          value={subscriptionId}
          onChange={(v) => {
            setSubscriptionId(typeof v === 'string' ? v : null);
            assign.reset();
            unassign.reset();
          }}
          nothingFoundMessage="No active subscription with licences"
          w={320}
        />
        <Button disabled={!ready} loading={assign.isPending} onClick={() => assign.mutate()}>
          Assign licence
        </Button>
        <Button variant="default" disabled={!ready} loading={unassign.isPending} onClick={() => unassign.mutate()}>
          Take licence back
        </Button>
      </Group>
    </div>
  );
}
