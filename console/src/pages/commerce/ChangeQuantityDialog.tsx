// Changing a subscription's number of licences (issue 28, point 3; document 1, update a
// subscription, rules 1, 6, 7): the quotation of the change first, with each line's calculation,
// then the change, which synchronises (syncOngoing) and settles on its own.
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { QuotationView } from './QuotationView.tsx';
import { QUOTERS } from './roles.ts';
import { subscriptionsKey } from './subscriptions-query.ts';
import type { Subscription } from './types.ts';

interface Props {
  companyId: string;
  subscription: Subscription | null;
  onClose: () => void;
}

export function ChangeQuantityDialog({ companyId, subscription, onClose }: Props) {
  return (
    <Modal opened={subscription !== null} onClose={onClose} title="Change the number of licences" size="xl">
      {subscription ? <ChangeForm companyId={companyId} subscription={subscription} onDone={onClose} /> : null}
    </Modal>
  );
}

function ChangeForm({
  companyId,
  subscription: s,
  onDone,
}: {
  companyId: string;
  subscription: Subscription;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const canQuote = useRoles(...QUOTERS);
  const [quantity, setQuantity] = useState<number>(s.maxNumberUsers ?? 1);
  const path = { companyId, subscriptionId: s.id ?? '' };
  // Document 1, create a quotation: "with subscriptionId, can only be raised".
  const quotable = canQuote && quantity > (s.maxNumberUsers ?? 0);
  const quote = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/subscription/v1.0/companies/{companyId}/quotations', {
          params: { path: { companyId } },
          body: { subscriptionId: s.id, maxNumberUsers: quantity },
        }),
      ),
  });
  const change = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/svc/subscription/v1.0/companies/{companyId}/subscriptions/{subscriptionId}', {
          params: { path },
          body: { maxNumberUsers: quantity },
        }),
      ),
    onSuccess: async () => {
      notifications.show({ message: `${s.offerName}: ${quantity} licences requested` });
      await client.invalidateQueries({ queryKey: subscriptionsKey(companyId) });
      onDone();
    },
  });
  const quoted = quote.data?.data;
  return (
    <Stack>
      <Text>
        {s.offerName}: {s.maxNumberUsers ?? 0} licences bought, {s.numberAssignedUsers ?? 0} assigned.
      </Text>
      <NumberInput
        label="New number of licences"
        min={1}
        max={1_000_000}
        allowDecimal={false}
        value={quantity}
        onChange={(v) => {
          setQuantity(typeof v === 'number' ? v : Number(v) || 1);
          quote.reset();
          change.reset();
        }}
      />
      {quantity < (s.numberAssignedUsers ?? 0) ? (
        <Alert color="yellow" title="Fewer than assigned">
          Take licences back from users first: a monthly subscription can only go down to the licences assigned.
        </Alert>
      ) : null}
      <ErrorNotice error={quote.error ?? change.error} />
      {quoted ? <QuotationView quotation={quoted} /> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        {quotable && !quoted ? (
          <Button loading={quote.isPending} onClick={() => quote.mutate()}>
            Get quotation
          </Button>
        ) : (
          <Button
            disabled={quantity === s.maxNumberUsers || (quotable && !quoted)}
            loading={change.isPending}
            onClick={() => change.mutate()}
          >
            Confirm change
          </Button>
        )}
      </Group>
    </Stack>
  );
}
