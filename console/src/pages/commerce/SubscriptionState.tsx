// A subscription's live state in words (document 1, states and transitions): `creating` while the
// order and billing systems set it up, `active`, `terminated`; a change being synchronised, and a
// synchronisation that gave up (syncError, retried by a superadmin).
// Badges are of the "dot" variant: their text keeps the page's colour, so its contrast holds (axe, WCAG AA).
import { Badge, Group, Loader, Tooltip } from '@mantine/core';
import type { Subscription } from './types.ts';

export function SubscriptionState({ s }: { s: Subscription }) {
  const color = s.status === 'active' ? 'green' : s.status === 'creating' ? 'blue' : 'gray';
  return (
    <Group gap={6} wrap="nowrap" data-testid="subscription-status">
      <Badge variant="dot" color={color}>
        {s.status}
      </Badge>
      {s.syncError ? (
        <Tooltip label={s.syncError}>
          <Badge variant="dot" color="red">
            sync failed
          </Badge>
        </Tooltip>
      ) : s.syncOngoing ? (
        <>
          <Loader size={12} aria-hidden />
          <Badge variant="dot" color="blue">
            synchronising
          </Badge>
        </>
      ) : null}
    </Group>
  );
}
