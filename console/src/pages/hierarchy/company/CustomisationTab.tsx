// A company's customisation (issue 28, point 2; document 3, app feature customisation): its keys,
// each enabled or disabled, changed one at a time by the company's managers, and the catalogue of
// templates, one of which may be applied to the company as a whole.
import { Button, Card, Group, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { COMPANY_MANAGER_ROLES } from '../roles.ts';
import { notify } from '../../../lib/notify.ts';

/** "useWebRTCVideoCustomisation" → "Use web rtc video". */
const words = (key: string) => {
  const s = key
    .replace(/Customisation$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
};

export function CustomisationTab({ companyId }: { companyId: string }) {
  const canManage = useRoles(...COMPANY_MANAGER_ROLES);
  const qc = useQueryClient();
  const key = ['company', companyId, 'customisation'];
  const q = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/companies/{companyId}/app-feature-customisation', {
          params: { path: { companyId } },
        }),
      ),
  });
  const templates = useQuery({
    queryKey: ['customisation-templates'],
    queryFn: () =>
      unwrap(api.GET('/api/svc/admin/v1.0/customisations/templates', { params: { query: { limit: 100 } } })),
  });
  const [templateId, setTemplateId] = useState<string | null>(null);
  const set = useMutation({
    mutationFn: (change: { key: string; on: boolean }) =>
      unwrap(
        api.PUT('/api/svc/admin/v1.0/companies/{companyId}/app-feature-customisation', {
          params: { path: { companyId } },
          body: Object.fromEntries([[change.key, change.on ? 'enabled' : 'disabled']]),
        }),
      ),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: key });
      notify('Customisation saved');
    },
  });
  const apply = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.POST('/api/svc/admin/v1.0/customisations/templates/apply', { body: { templateId: id, companyId } })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['company', companyId] });
      notify('Template applied');
    },
  });
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorNotice error={q.error} />;
  const d = q.data.data;
  return (
    <Stack>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Template
        </Title>
        <Text size="sm" mb="sm">
          Applied last: {d.selectedAppCustomisationTemplate?.name ?? 'none'}
        </Text>
        <ErrorNotice error={templates.error ?? apply.error} />
        {canManage ? (
          <Group align="end">
            <Select
              label="Template to apply"
              placeholder="choose a template"
              value={templateId}
              onChange={setTemplateId}
              data={(templates.data?.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
              w={280}
            />
            <Button
              disabled={!templateId}
              loading={apply.isPending}
              onClick={() => templateId && apply.mutate(templateId)}
            >
              Apply template
            </Button>
          </Group>
        ) : null}
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Customisation keys
        </Title>
        <ErrorNotice error={set.error} />
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {Object.entries(d.customisations).map(([k, v]) => (
            <Switch
              key={k}
              label={words(k)}
              checked={v === 'enabled'}
              disabled={!canManage || set.isPending}
              onChange={(e) => set.mutate({ key: k, on: e.currentTarget.checked })}
            />
          ))}
          {Object.entries(d.companyManaged).map(([k, v]) => (
            <Switch key={k} label={`${words(k)} (company setting)`} checked={v === 'enabled'} disabled readOnly />
          ))}
        </SimpleGrid>
      </Card>
    </Stack>
  );
}
