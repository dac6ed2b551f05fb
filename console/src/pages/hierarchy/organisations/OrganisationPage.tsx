// One organisation (document 3, Organisations): its name and visibility, its deletion, and its
// companies, linked and unlinked by a superadmin; support and the organisation's admins read it.
import { Anchor, Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { CompanyPicker } from '../../../components/CompanyPicker.tsx';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ServerTable, type Column } from '../../../components/ServerTable.tsx';
import { ORGANISATION_MANAGE_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';
import { ConfirmButton } from '../ConfirmButton.tsx';

type Organisation = Schemas['Organisation'];
type Member = Schemas['OrganisationCompany'];

export default function OrganisationPage() {
  const organisationId = useParams().organisationId ?? '';
  const q = useQuery({
    queryKey: ['organisation', organisationId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/organisations/{organisationId}', {
          params: { path: { organisationId }, query: { format: 'full' } },
        }),
      ),
  });
  if (q.isPending) return <Loading />;
  if (q.error)
    return (
      <>
        <PageHeader title="Organisation" />
        <ErrorNotice error={q.error} />
      </>
    );
  return <OrganisationView key={q.dataUpdatedAt} organisation={q.data.data} />;
}

function OrganisationView({ organisation }: { organisation: Organisation }) {
  const canManage = useRoles(...ORGANISATION_MANAGE_ROLES);
  const organisationId = organisation.id ?? '';
  const [name, setName] = useState(organisation.name ?? '');
  const [visibility, setVisibility] = useState<'public' | 'private'>(
    organisation.visibility === 'public' ? 'public' : 'private',
  );
  const [linkId, setLinkId] = useState<string | null>(null);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const path = { organisationId };
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/svc/admin/v1.0/organisations/{organisationId}', { params: { path }, body: { name, visibility } }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['organisation', organisationId] });
      await qc.invalidateQueries({ queryKey: ['organisations'] });
      notify('Organisation saved');
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/svc/admin/v1.0/organisations/{organisationId}', { params: { path } })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['organisations'] });
      notify('Organisation deleted');
      void navigate('/organisations');
    },
  });
  const link = useMutation({
    mutationFn: (companyId: string) =>
      unwrap(
        api.POST('/api/svc/admin/v1.0/organisations/{organisationId}/companies', {
          params: { path },
          body: { companyId },
        }),
      ),
    onSuccess: async () => {
      setLinkId(null);
      await qc.invalidateQueries({ queryKey: ['organisation-companies', organisationId] });
      notify('Company linked');
    },
  });
  const unlink = useMutation({
    mutationFn: (companyId: string) =>
      unwrap(
        api.DELETE('/api/svc/admin/v1.0/organisations/{organisationId}/companies/{companyId}', {
          params: { path: { organisationId, companyId } },
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['organisation-companies', organisationId] });
      notify('Company unlinked');
    },
  });
  const columns: Column<Member>[] = [
    {
      key: 'name',
      label: 'Company',
      sortField: 'name',
      render: (c) => (
        <Anchor component={Link} to={`/companies/${c.id}`}>
          {c.name}
        </Anchor>
      ),
    },
    ...(canManage
      ? [
          {
            key: 'unlink',
            label: 'Actions',
            render: (c: Member) => (
              <Button size="xs" variant="default" onClick={() => unlink.mutate(c.id ?? '')}>
                Unlink
              </Button>
            ),
          },
        ]
      : []),
  ];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <>
      <PageHeader title={`Organisation ${organisation.name ?? ''}`}>
        {canManage ? (
          <ConfirmButton label="Delete organisation" loading={remove.isPending} onConfirm={() => remove.mutate()} />
        ) : null}
      </PageHeader>
      <form onSubmit={submit} aria-label="Organisation">
        <Stack maw={480} mb="lg">
          <ErrorNotice error={save.error ?? remove.error} />
          <TextInput
            label="Name"
            required
            value={name}
            readOnly={!canManage}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Select
            label="Visibility"
            value={visibility}
            onChange={(v) => setVisibility(v === 'public' ? 'public' : 'private')}
            data={['private', 'public']}
            readOnly={!canManage}
            allowDeselect={false}
          />
          {canManage ? (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save organisation
              </Button>
            </Group>
          ) : null}
        </Stack>
      </form>
      <Title order={2} size="h4" mb="sm">
        Companies of the organisation
      </Title>
      <ErrorNotice error={link.error ?? unlink.error} />
      {canManage ? (
        <Group align="end" mb="md">
          <CompanyPicker label="Company to link" value={linkId} onChange={setLinkId} />
          <Button disabled={!linkId} loading={link.isPending} onClick={() => linkId && link.mutate(linkId)}>
            Link company
          </Button>
        </Group>
      ) : null}
      <ServerTable<Member>
        caption="Companies of the organisation"
        queryKey={['organisation-companies', organisationId]}
        columns={columns}
        rowKey={(c) => c.id ?? ''}
        defaultSort={{ field: 'name', order: 1 }}
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/admin/v1.0/organisations/{organisationId}/companies', {
              params: { path, query: req },
            }),
          )
        }
      />
    </>
  );
}
