// A subscriber's forwards (issue 28, point 4; document 2, call-forward-options and overflow): may
// calls be forwarded to external numbers (the company's policy, or an exception), and where
// unanswered or unavailable calls overflow (the CloudPBX's default, the subscriber's own, or none).
import { Button, Fieldset, Group, NumberInput, Select } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useCanManagePbx } from './roles.ts';
import type { Subscriber } from './types.ts';
import { notify } from '../../lib/notify.ts';

type Overflow = Subscriber['overflow']['value'];
type External = Subscriber['callForwardOptions']['externalCallForward'];
const OVERFLOWS: { value: Overflow; label: string }[] = [
  { value: 'default', label: "The CloudPBX's default" },
  { value: 'custom', label: 'Its own' },
  { value: 'disabled', label: 'None' },
];
const EXTERNALS: { value: External; label: string }[] = [
  { value: 'company_policy', label: "The company's policy" },
  { value: 'authorized', label: 'Authorised' },
  { value: 'not_authorized', label: 'Not authorised' },
];
const overflowOf = (v: string | null): Overflow => OVERFLOWS.find((o) => o.value === v)?.value ?? 'default';
const externalOf = (v: string | null): External => EXTERNALS.find((o) => o.value === v)?.value ?? 'company_policy';

export function SubscriberForwards({ systemId, s }: { systemId: string; s: Subscriber }) {
  const canManage = useCanManagePbx();
  const qc = useQueryClient();
  const [external, setExternal] = useState<string | null>(s.callForwardOptions.externalCallForward);
  const [noReply, setNoReply] = useState<string | null>(s.overflow.value);
  const [unavailable, setUnavailable] = useState<string | null>(s.overflow.unavailableOverflow);
  const [delay, setDelay] = useState<number | string>(s.overflow.noReplyDelay);
  const path = { systemId, phoneNumberId: s.id };
  const save = useMutation({
    mutationFn: async () => {
      await unwrap(
        api.PUT('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/call-forward-options', {
          params: { path },
          body: { externalCallForward: externalOf(external) },
        }),
      );
      return unwrap(
        api.PUT('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers/{phoneNumberId}/overflow', {
          params: { path },
          body: {
            value: overflowOf(noReply),
            unavailableOverflow: overflowOf(unavailable),
            ...(delay !== '' ? { noReplyDelay: Number(delay) } : {}),
          },
        }),
      );
    },
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['subscriber', systemId, s.id] });
      notify('Forwards saved');
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <ErrorNotice error={save.error} />
      <Fieldset legend="Forwards" disabled={!canManage} maw={820}>
        <Group align="end">
          <Select
            label="Forwarding to external numbers"
            data={EXTERNALS}
            value={external}
            onChange={setExternal}
            allowDeselect={false}
            w={230}
          />
          <Select
            label="When unanswered"
            data={OVERFLOWS}
            value={noReply}
            onChange={setNoReply}
            allowDeselect={false}
            w={200}
          />
          <NumberInput label="After (seconds)" min={10} max={60} value={delay} onChange={setDelay} w={130} />
          <Select
            label="When unavailable"
            data={OVERFLOWS}
            value={unavailable}
            onChange={setUnavailable}
            allowDeselect={false}
            w={200}
          />
          {canManage ? (
            <Button type="submit" loading={save.isPending}>
              Save the forwards
            </Button>
          ) : null}
        </Group>
      </Fieldset>
    </form>
  );
}
