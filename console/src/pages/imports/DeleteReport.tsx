// Deleting an import's report (deleteImportReport; document 3, rule 1: "the same data cannot be
// imported twice until its report is deleted"; a running import stops at its next batch, what it
// wrote stays). Asked twice, as nothing brings a report back.
import { Alert, Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Schemas } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

export function DeleteReport({ summary }: { summary: Schemas['ImportSummary'] }) {
  const [asking, setAsking] = useState(false);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const del = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/svc/massprovisioning/v1.0/users/imports/{reqId}/details', {
          params: { path: { reqId: summary.reqId } },
        }),
      ),
    onSuccess: async () => {
      // The report is gone: its queries would answer 404 if asked again.
      qc.removeQueries({ queryKey: ['import', summary.reqId] });
      await qc.invalidateQueries({ queryKey: ['imports', summary.companyId] });
      notifications.show({ message: 'Import report deleted' });
      void navigate(`/imports?companyId=${summary.companyId}`);
    },
  });
  if (!asking)
    return (
      <Group>
        <Button variant="default" onClick={() => setAsking(true)}>
          Delete the report
        </Button>
      </Group>
    );
  return (
    <Alert color="red" title="Delete this report?" role="alertdialog" aria-label="Delete this report?">
      {summary.status === 'Pending'
        ? 'The import stops at its next batch; the lines it wrote stay. '
        : 'The lines it wrote stay. '}
      The same CSV can then be imported again.
      <ErrorNotice error={del.error} />
      <Group mt="sm">
        <Button color="red.9" onClick={() => del.mutate()} loading={del.isPending}>
          Delete
        </Button>
        <Button variant="default" onClick={() => setAsking(false)}>
          Cancel
        </Button>
      </Group>
    </Alert>
  );
}
