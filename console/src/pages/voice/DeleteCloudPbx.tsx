// Deleting a CloudPBX (document 2, deleteCloudPbx): refused (409823) while it holds DDIs,
// subscribers or devices unless forced, which deletes them with it on the voice platform too; so
// the page asks for a confirmation and says what forcing means.
import { Button, Checkbox, Group, Paper, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { notify } from '../../lib/notify.ts';

export function DeleteCloudPbx({ systemId, name }: { systemId: string; name: string }) {
  const [asked, setAsked] = useState(false);
  const [force, setForce] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}', {
          params: { path: { systemId }, query: force ? { forceDelete: true } : {} },
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['cloudpbxs'] });
      qc.removeQueries({ queryKey: ['cloudpbx', systemId] });
      notify(`CloudPBX ${name} deleted`);
      void navigate('/cloudpbxs');
    },
  });
  return (
    <Paper withBorder p="md" mt="xl" maw={820}>
      <ErrorNotice error={remove.error} />
      {asked ? (
        <Group align="end">
          <Checkbox
            label="Also delete its DDIs, subscribers and devices (on the voice platform too)"
            checked={force}
            onChange={(e) => setForce(e.currentTarget.checked)}
          />
          <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            Confirm: delete {name}
          </Button>
          <Button variant="default" onClick={() => setAsked(false)}>
            Keep it
          </Button>
        </Group>
      ) : (
        <Group justify="space-between">
          <Text size="sm">Deleting the CloudPBX removes its tenant on the voice platform.</Text>
          <Button variant="default" color="red" onClick={() => setAsked(true)}>
            Delete the CloudPBX
          </Button>
        </Group>
      )}
    </Paper>
  );
}
