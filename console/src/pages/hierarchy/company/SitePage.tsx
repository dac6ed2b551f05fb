// One site (document 3, Sites): its name and status changed by the company's administrators,
// its deletion, and the users of the site's company.
import { Anchor, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { SITE_MANAGE_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';
import { ConfirmButton } from '../ConfirmButton.tsx';

const STATUSES = ['active', 'alerting', 'hold', 'terminated'] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (v: string | null): v is Status => STATUSES.some((s) => s === v);

export default function SitePage() {
  const { companyId = '', siteId = '' } = useParams();
  const q = useQuery({
    queryKey: ['site', siteId],
    queryFn: () => unwrap(api.GET('/api/svc/admin/v1.0/sites/{siteId}', { params: { path: { siteId } } })),
  });
  if (q.isPending) return <Loading />;
  if (q.error)
    return (
      <>
        <PageHeader title="Site" />
        <ErrorNotice error={q.error} />
      </>
    );
  return <SiteForm site={q.data.data} companyId={companyId} />;
}

function SiteForm({ site, companyId }: { site: Schemas['Site']; companyId: string }) {
  const canManage = useRoles(...SITE_MANAGE_ROLES);
  const [name, setName] = useState(site.name ?? '');
  const [status, setStatus] = useState<string | null>(site.status ?? null);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const siteId = site.id ?? '';
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/svc/admin/v1.0/sites/{siteId}', {
          params: { path: { siteId } },
          // The site stays in its company (a move is a change of companyId).
          body: {
            companyId: site.companyId ?? companyId,
            ...(name !== site.name ? { name } : {}),
            ...(isStatus(status) && status !== site.status ? { status } : {}),
          },
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['site', siteId] });
      await qc.invalidateQueries({ queryKey: ['sites', companyId] });
      notify('Site saved');
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/svc/admin/v1.0/sites/{siteId}', { params: { path: { siteId } } })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['sites', companyId] });
      notify('Site deleted');
      void navigate(`/companies/${companyId}?tab=sites`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <>
      <PageHeader title={`Site ${site.name ?? ''}`}>
        <Anchor component={Link} to={`/companies/${companyId}?tab=sites`}>
          Back to the company
        </Anchor>
      </PageHeader>
      <form onSubmit={submit} aria-label="Site">
        <Stack maw={480}>
          <ErrorNotice error={save.error ?? remove.error} />
          <TextInput
            label="Name"
            required
            value={name}
            readOnly={!canManage}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Select
            label="Status"
            value={status}
            onChange={setStatus}
            data={[...STATUSES]}
            readOnly={!canManage}
            allowDeselect={false}
          />
          {canManage ? (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save site
              </Button>
              <ConfirmButton label="Delete site" loading={remove.isPending} onConfirm={() => remove.mutate()} />
            </Group>
          ) : null}
        </Stack>
      </form>
    </>
  );
}
