// Join invitations of a company (route table, join invitations (+)): an e-mail invited into the
// company, possibly as its administrator, with the invitation's state (pending, accepted, expired).
import { Alert, Badge, Button, Card, Checkbox, Code, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../../components/ServerTable.tsx';
import { INVITATION_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';

type Invitation = Schemas['JoinInvitation'];
const STATUSES = ['pending', 'accepted', 'expired'] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (v: string | null): v is Status => STATUSES.some((s) => s === v);

const columns: Column<Invitation>[] = [
  { key: 'email', label: 'E-mail', sortField: 'email', render: (i) => i.email },
  {
    key: 'as',
    label: 'Invited as',
    render: (i) =>
      [
        i.invitedToBeCompanyAdmin ? 'company admin' : null,
        i.invitedToBeBpAdmin ? 'BP admin' : null,
        i.invitedToBeBpFinance ? 'BP finance' : null,
      ]
        .filter(Boolean)
        .join(', ') || 'user',
  },
  { key: 'status', label: 'Status', sortField: 'status', render: (i) => <Badge variant="light">{i.status}</Badge> },
  {
    key: 'expires',
    label: 'Expires',
    sortField: 'expirationDate',
    render: (i) => (i.expirationDate ? new Date(i.expirationDate).toLocaleString() : ''),
  },
];

export function JoinInvitations({ companyId, isBP }: { companyId: string; isBP: boolean }) {
  const canInvite = useRoles(...INVITATION_ROLES);
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [asAdmin, setAsAdmin] = useState(false);
  const [asBpAdmin, setAsBpAdmin] = useState(false);
  const [asBpFinance, setAsBpFinance] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [token, setToken] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/svc/admin/v1.0/companies/{companyId}/join-companies/invitations', {
          params: { path: { companyId } },
          body: {
            email,
            invitedToBeCompanyAdmin: asAdmin,
            invitedToBeBpAdmin: isBP && asBpAdmin,
            invitedToBeBpFinance: isBP && asBpFinance,
          },
        }),
      ),
    onSuccess: async (res) => {
      setEmail('');
      setToken(res.data.invitationToken ?? null);
      await qc.invalidateQueries({ queryKey: ['join-invitations', companyId] });
      notify(`Invitation sent to ${res.data.email}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          Invitations
        </Title>
        <ErrorNotice error={invite.error} />
        {canInvite ? (
          <form onSubmit={submit} aria-label="New invitation">
            <Group align="end">
              <TextInput
                label="E-mail to invite"
                type="email"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <Checkbox
                label="as company admin"
                checked={asAdmin}
                onChange={(e) => setAsAdmin(e.currentTarget.checked)}
              />
              {isBP ? (
                <>
                  <Checkbox
                    label="as BP admin"
                    checked={asBpAdmin}
                    onChange={(e) => setAsBpAdmin(e.currentTarget.checked)}
                  />
                  <Checkbox
                    label="as BP finance"
                    checked={asBpFinance}
                    onChange={(e) => setAsBpFinance(e.currentTarget.checked)}
                  />
                </>
              ) : null}
              <Button type="submit" loading={invite.isPending}>
                Invite
              </Button>
            </Group>
          </form>
        ) : null}
        {token ? (
          <Alert
            color="blue"
            title="Invitation token"
            withCloseButton
            closeButtonLabel="Hide the token"
            onClose={() => setToken(null)}
          >
            Sent by e-mail; shown once: <Code>{token}</Code>
          </Alert>
        ) : null}
        <Select
          label="Status"
          placeholder="any"
          clearable
          value={status}
          onChange={setStatus}
          data={[...STATUSES]}
          w={160}
        />
        <ServerTable<Invitation>
          caption="Invitations"
          queryKey={['join-invitations', companyId, status]}
          columns={columns}
          rowKey={(i) => i.id ?? ''}
          defaultSort={{ field: 'creationDate', order: -1 }}
          fetchPage={(req) =>
            unwrap(
              api.GET('/api/svc/admin/v1.0/companies/{companyId}/join-companies/invitations', {
                params: { path: { companyId }, query: { ...req, ...(isStatus(status) ? { status } : {}) } },
              }),
            )
          }
        />
      </Stack>
    </Card>
  );
}
