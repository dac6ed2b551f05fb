// The subscribers of a CloudPBX (issue 28, point 4; document 2, listSubscribers, createSubscriber):
// paged by the service; a manager makes one from a user of the company (who must hold a licence
// of a subscription other than the default offer: the service says so when not) and a free number.
import { Button, Group, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { FreeNumberPicker } from './FreeNumberPicker.tsx';
import { pbxPath } from './paths.ts';
import { useCanManagePbx } from './roles.ts';
import type { Subscriber } from './types.ts';
import { usePbx } from './usePbx.ts';
import { UserPicker } from './UserPicker.tsx';
import { notify } from '../../lib/notify.ts';

export default function SubscribersTab() {
  const { systemId, pbx } = usePbx();
  const canManage = useCanManagePbx();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [userId, setUserId] = useState<string | null>(null);
  const [shortNumber, setShortNumber] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers', {
          params: { path: { systemId } },
          body: { userId: userId ?? '', shortNumber: shortNumber ?? '' },
        }),
      ),
    onSuccess: async (s) => {
      setUserId(null);
      setShortNumber(null);
      await qc.invalidateQueries({ queryKey: ['subscribers', systemId] });
      await qc.invalidateQueries({ queryKey: ['free-numbers', systemId] });
      await qc.invalidateQueries({ queryKey: ['numbering-plan', systemId] });
      notify(`Subscriber ${s.data.userDisplayName} created on ${s.data.shortNumber}`);
    },
  });
  if (!pbx) return <Loading />;
  const columns: Column<Subscriber>[] = [
    { key: 'number', label: 'Number', sortField: 'shortNumber', render: (s) => s.shortNumber },
    {
      key: 'name',
      label: 'Name',
      render: (s) => <Link to={pbxPath(systemId, `subscribers/${s.id}`)}>{s.userDisplayName}</Link>,
    },
    { key: 'email', label: 'E-mail', render: (s) => s.loginEmail },
    { key: 'devices', label: 'Devices', render: (s) => s.devices.length },
    { key: 'recording', label: 'Recording', render: (s) => s.recordingProfile },
    {
      key: 'created',
      label: 'Created',
      sortField: 'creationDate',
      render: (s) => new Date(s.creationDate).toLocaleDateString(),
    },
  ];
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Subscribers
      </Title>
      {canManage ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <ErrorNotice error={create.error} />
          <Group align="end" mb="md">
            <UserPicker companyId={pbx.companyId ?? ''} value={userId} onChange={setUserId} />
            <FreeNumberPicker systemId={systemId} value={shortNumber} onChange={setShortNumber} required />
            <Button type="submit" loading={create.isPending} disabled={!userId || !shortNumber}>
              Create the subscriber
            </Button>
          </Group>
        </form>
      ) : null}
      <ServerTable<Subscriber>
        caption="Subscribers"
        queryKey={['subscribers', systemId]}
        columns={columns}
        rowKey={(s) => s.id}
        defaultSort={{ field: 'shortNumber', order: 1 }}
        onRowClick={(s) => void navigate(pbxPath(systemId, `subscribers/${s.id}`))}
        empty="No subscriber yet."
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/subscribers', {
              params: { path: { systemId }, query: req },
            }),
          )
        }
      />
    </>
  );
}
