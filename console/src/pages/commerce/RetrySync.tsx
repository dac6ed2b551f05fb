// A synchronisation that gave up after its retries (syncError) is retried by a superadmin (route
// table +: retrySubscriptionSync); the subscription then shows its live state again.
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { subscriptionsKey } from './subscriptions-query.ts';
import type { Subscription } from './types.ts';

export function RetrySync({ companyId, s }: { companyId: string; s: Subscription }) {
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/subscription/v1.0/companies/{companyId}/subscriptions/{subscriptionId}/retry-sync', {
          params: { path: { companyId, subscriptionId: s.id ?? '' } },
        }),
      ),
    onSuccess: async () => {
      notifications.show({ message: `${s.offerName ?? 'Subscription'}: synchronisation started again` });
      await client.invalidateQueries({ queryKey: subscriptionsKey(companyId) });
    },
  });
  return (
    <>
      <ErrorNotice error={retry.error} />
      <Button
        size="xs"
        variant="default"
        loading={retry.isPending}
        onClick={() => retry.mutate()}
        aria-label={`Retry the synchronisation of ${s.offerName ?? 'the subscription'}`}
      >
        Retry
      </Button>
    </>
  );
}
