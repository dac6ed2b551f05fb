// Subscribing a company to an offer (issue 28, point 3): the quotation comes first, with each
// line's calculation (document 1, create a quotation, rule 6: "call it before creating"), then the
// person confirms. The new subscription appears `creating` and turns `active` on its own
// (subscriptions-query.ts).
import { Alert, Button, Group, Modal, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { hasQuantity, model, prices } from './format.ts';
import { QuotationView } from './QuotationView.tsx';
import { QUOTERS } from './roles.ts';
import { subscriptionsKey } from './subscriptions-query.ts';
import type { Offer } from './types.ts';

interface Props {
  companyId: string;
  opened: boolean;
  onClose: () => void;
}

export function SubscribeDialog({ companyId, opened, onClose }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Subscribe to an offer" size="xl">
      {/* Mounted only while open: every opening starts from a blank form. */}
      {opened ? <SubscribeForm companyId={companyId} onDone={onClose} /> : null}
    </Modal>
  );
}

function SubscribeForm({ companyId, onDone }: { companyId: string; onDone: () => void }) {
  const client = useQueryClient();
  const canQuote = useRoles(...QUOTERS);
  // Document 1, create rule 3: superadmin buys offers that cannot be sold too.
  const superadmin = useRoles('superadmin');
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search.trim(), 250);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [quantity, setQuantity] = useState<number>(1);
  const [po, setPo] = useState('');

  const offers = useQuery({
    queryKey: ['company-offers', companyId, name, superadmin],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/subscription/v1.0/companies/{companyId}/offers', {
          params: {
            path: { companyId },
            query: { format: 'full', limit: 50, ...(name ? { name } : {}), ...(superadmin ? {} : { canBeSold: true }) },
          },
        }),
      ),
  });
  const quantified = hasQuantity(offer?.businessModel);
  // Document 1, create rule 11: usage offers are billed on consumption and cannot be quoted.
  const quotable = canQuote && offer !== null && offer.businessModel !== 'usage';

  const quote = useMutation({
    mutationFn: (o: Offer) =>
      unwrap(
        api.POST('/api/svc/subscription/v1.0/companies/{companyId}/quotations', {
          params: { path: { companyId } },
          body: { offerId: o.id ?? '', ...(hasQuantity(o.businessModel) ? { maxNumberUsers: quantity } : {}) },
        }),
      ),
  });
  const subscribe = useMutation({
    mutationFn: (o: Offer) =>
      unwrap(
        api.POST('/api/svc/subscription/v1.0/companies/{companyId}/subscriptions', {
          params: { path: { companyId } },
          body: {
            offerId: o.id ?? '',
            ...(hasQuantity(o.businessModel) ? { maxNumberUsers: quantity } : {}),
            ...(po.trim() ? { purchaseOrderNumber: po.trim() } : {}),
          },
        }),
      ),
    onSuccess: async (r) => {
      notifications.show({ message: `Subscription to ${r.data.offerName ?? 'the offer'} created: it is being set up` });
      await client.invalidateQueries({ queryKey: subscriptionsKey(companyId) });
      onDone();
    },
  });
  // A quotation belongs to the offer and quantity it was asked for: a change asks again.
  const reset = () => {
    quote.reset();
    subscribe.reset();
  };
  const options = (offers.data?.data ?? []).map((o) => ({ value: o.id ?? '', label: o.name ?? '' }));
  const quoted = quote.data?.data;

  return (
    <Stack>
      <ErrorNotice error={offers.error} />
      <Select
        label="Offer"
        placeholder="Search the company's catalog"
        searchable
        required
        data={options}
        filter={({ options: o }) => o}
        searchValue={search}
        onSearchChange={setSearch}
        value={offer?.id ?? null}
        onChange={(id) => {
          setOffer(offers.data?.data.find((o) => o.id === id) ?? null);
          reset();
        }}
        nothingFoundMessage={offers.isFetching ? 'Searching…' : 'No offer of that name in the catalog'}
      />
      {offer ? (
        <Text size="sm" c="dimmed">
          {model(offer.businessModel)} · {prices(offer.prices)}
          {offer.isPrepaid ? ` · prepaid ${offer.prepaidDuration ?? ''} months` : ''}
        </Text>
      ) : null}
      {quantified ? (
        <NumberInput
          label="Licences (maximum number of users)"
          min={1}
          max={1_000_000}
          allowDecimal={false}
          value={quantity}
          onChange={(v) => {
            setQuantity(typeof v === 'number' ? v : Number(v) || 1);
            reset();
          }}
          required
        />
      ) : null}
      <TextInput label="Purchase order number" value={po} onChange={(e) => setPo(e.currentTarget.value)} />
      <ErrorNotice error={quote.error ?? subscribe.error} />
      {quoted ? <QuotationView quotation={quoted} /> : null}
      {offer && !quotable ? (
        <Alert color="gray" title="No quotation">
          {offer.businessModel === 'usage'
            ? 'Usage offers are billed on consumption and cannot be quoted.'
            : 'Only superadmin and bp_finance may ask for a quotation; the subscription is priced by the catalog.'}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        {quotable && !quoted ? (
          <Button disabled={!offer} loading={quote.isPending} onClick={() => offer && quote.mutate(offer)}>
            Get quotation
          </Button>
        ) : (
          <Button
            disabled={!offer || (quotable && !quoted)}
            loading={subscribe.isPending}
            onClick={() => offer && subscribe.mutate(offer)}
          >
            Confirm subscription
          </Button>
        )}
      </Group>
    </Stack>
  );
}
