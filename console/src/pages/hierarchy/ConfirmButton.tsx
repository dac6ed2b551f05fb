// A destructive action asked twice: the first press shows the confirmation next to it, so a
// deletion never follows a stray click (and stays keyboard usable, without a dialog).
import { Button, Group } from '@mantine/core';
import { useState } from 'react';

interface Props {
  label: string;
  confirmLabel?: string;
  loading?: boolean;
  onConfirm: () => void;
  size?: 'xs' | 'sm';
}

export function ConfirmButton({
  label,
  confirmLabel = `Yes, ${label.toLowerCase()}`,
  loading,
  onConfirm,
  size,
}: Props) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button variant="default" size={size} onClick={() => setAsking(true)}>
        {label}
      </Button>
    );
  return (
    <Group gap="xs" role="group" aria-label={`Confirm: ${label}`}>
      <Button color="red" size={size} loading={loading} onClick={onConfirm}>
        {confirmLabel}
      </Button>
      <Button variant="default" size={size} onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </Group>
  );
}
