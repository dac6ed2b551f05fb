// A new SIP device (document 2, createDevice; assignDeviceToSubscriber with a new device): its
// model, its description and, for a desk phone, its MAC address (the generic SIP model needs none).
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { GENERIC_SIP_MODEL, useDeviceModels } from './useDeviceModels.ts';

export interface NewDevice {
  description: string;
  deviceTypeId: number;
  macAddress?: string;
}

interface Props {
  systemId: string;
  submitLabel: string;
  pending: boolean;
  onSubmit: (d: NewDevice) => void;
}

export function NewDeviceForm({ systemId, submitLabel, pending, onSubmit }: Props) {
  const models = useDeviceModels(systemId);
  const [model, setModel] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [mac, setMac] = useState('');
  const typeId = Number(model);
  const needsMac = model !== null && typeId !== GENERIC_SIP_MODEL;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({
          description: description.trim(),
          deviceTypeId: typeId,
          ...(needsMac ? { macAddress: mac.trim() } : {}),
        });
      }}
    >
      <Group align="end" mb="md">
        <Select
          label="Model"
          required
          value={model}
          onChange={setModel}
          data={(models.data?.data ?? []).map((m) => ({
            value: String(m.id),
            label: `${m.vendor} ${m.model}${m.programmableKeys ? ` (${m.programmableKeys} keys)` : ''}`,
          }))}
          w={260}
        />
        <TextInput
          label="Description"
          required
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          w={220}
        />
        {needsMac ? (
          <TextInput
            label="MAC address"
            required
            placeholder="aa:bb:cc:dd:ee:ff"
            value={mac}
            onChange={(e) => setMac(e.currentTarget.value)}
            w={190}
          />
        ) : null}
        <Button type="submit" loading={pending} disabled={model === null}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
