// The columns of a company's subscriptions table (issue 28, point 3): offer, model, live state,
// licences, creation day, and the actions the caller's roles allow.
import { Button, Text } from '@mantine/core';
import type { Column } from '../../components/ServerTable.tsx';
import { day, hasQuantity, model } from './format.ts';
import { RetrySync } from './RetrySync.tsx';
import { SubscriptionState } from './SubscriptionState.tsx';
import type { Subscription } from './types.ts';

interface Allowed {
  companyId: string;
  superadmin: boolean;
  canResize: boolean;
  onChange: (s: Subscription) => void;
}

export function subscriptionColumns(a: Allowed): Column<Subscription>[] {
  return [
    {
      key: 'offer',
      label: 'Offer',
      render: (s) => (
        <span data-testid={`subscription-${s.id}`}>
          {s.offerName}
          {s.isDefault ? (
            <Text size="xs" c="dimmed">
              default offer
            </Text>
          ) : null}
        </span>
      ),
    },
    { key: 'model', label: 'Model', render: (s) => model(s.businessModel) },
    { key: 'state', label: 'State', render: (s) => <SubscriptionState s={s} /> },
    {
      key: 'licences',
      label: 'Licences (assigned / bought)',
      render: (s) =>
        (typeof s.maxNumberUsers === 'number' ? `${s.numberAssignedUsers ?? 0} / ${s.maxNumberUsers}` : '—') +
        (typeof s.updatingMaxNumberUsers === 'number' && s.syncOngoing ? ` → ${s.updatingMaxNumberUsers}` : ''),
    },
    { key: 'created', label: 'Created', render: (s) => day(s.creationDate) },
    {
      key: 'actions',
      label: 'Actions',
      render: (s) => (
        <>
          {a.superadmin && s.syncError ? <RetrySync companyId={a.companyId} s={s} /> : null}
          {a.canResize && s.status === 'active' && hasQuantity(s.businessModel) ? (
            <Button
              size="xs"
              variant="light"
              disabled={s.syncOngoing}
              onClick={() => a.onChange(s)}
              aria-label={`Change the quantity of ${s.offerName}`}
            >
              Change quantity
            </Button>
          ) : null}
        </>
      ),
    },
  ];
}
