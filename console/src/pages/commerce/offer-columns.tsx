// The columns an offer shows in lists (document 1, Offer): its name, model, prices and flags.
import { Badge, Group } from '@mantine/core';
import type { Column } from '../../components/ServerTable.tsx';
import { model, prices } from './format.ts';
import type { Offer } from './types.ts';

export const offerColumns: Column<Offer>[] = [
  { key: 'name', label: 'Name', sortField: 'name', render: (o) => o.name },
  { key: 'model', label: 'Model', render: (o) => model(o.businessModel) },
  { key: 'prices', label: 'Prices (per month)', render: (o) => prices(o.prices) },
  {
    key: 'flags',
    label: 'Terms',
    render: (o) => (
      <Group gap={4}>
        {o.isDefault ? <Badge variant="dot">default</Badge> : null}
        {o.canBeSold ? null : (
          <Badge variant="dot" color="gray">
            not for sale
          </Badge>
        )}
        {o.isPrepaid ? (
          <Badge variant="dot" color="grape">
            prepaid {o.prepaidDuration ?? ''} m
          </Badge>
        ) : null}
        {o.isDemo ? (
          <Badge variant="dot" color="orange">
            demo
          </Badge>
        ) : null}
      </Group>
    ),
  },
];
