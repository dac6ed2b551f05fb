// A company's general information, and its change (updateCompany). Only the fields changed are
// sent: the service refuses fields a role may not set (403102 for superadmin-only fields; a BP's
// administrators change only the subscription flags of their End Customers), and a refusal is
// explained next to the form.
import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { COMPANY_DELETE_ROLES, COMPANY_EDIT_ROLES } from '../roles.ts';
import { ConfirmButton } from '../ConfirmButton.tsx';
import { useNavigate } from 'react-router';
import { notify } from '../../../lib/notify.ts';

type Company = Schemas['Company'];
type Body = Schemas['UpdateCompanyBody'];

const TEXT_FIELDS = [
  ['name', 'Name'],
  ['description', 'Description'],
  ['slogan', 'Slogan'],
  ['street', 'Street'],
  ['postalCode', 'Postal code'],
  ['city', 'City'],
  ['adminEmail', 'Administrator e-mail'],
  ['supportEmail', 'Support e-mail'],
  ['website', 'Website'],
] as const;
type TextField = (typeof TEXT_FIELDS)[number][0];

const STATUSES = ['initializing', 'active', 'alerting', 'hold'] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (v: string | null): v is Status => STATUSES.some((s) => s === v);

function initial(c: Company): Record<TextField, string> {
  const out: Record<string, string> = {};
  for (const [k] of TEXT_FIELDS) out[k] = c[k] ?? '';
  return {
    name: '',
    description: '',
    slogan: '',
    street: '',
    postalCode: '',
    city: '',
    adminEmail: '',
    supportEmail: '',
    website: '',
    ...out,
  };
}

export function GeneralTab({ company }: { company: Company }) {
  const canEdit = useRoles(...COMPANY_EDIT_ROLES);
  const isSuperadmin = useRoles('superadmin');
  const [values, setValues] = useState(() => initial(company));
  const [status, setStatus] = useState<string | null>(company.status ?? null);
  const qc = useQueryClient();
  const companyId = company.id ?? '';
  const save = useMutation({
    mutationFn: (body: Body) =>
      unwrap(api.PUT('/api/svc/admin/v1.0/companies/{companyId}', { params: { path: { companyId } }, body })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['company', companyId] });
      await qc.invalidateQueries({ queryKey: ['companies'] });
      notify('Company saved');
    },
  });
  const canDelete = useRoles(...COMPANY_DELETE_ROLES);
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/svc/admin/v1.0/companies/{companyId}', { params: { path: { companyId } } })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['companies'] });
      qc.removeQueries({ queryKey: ['company', companyId] });
      notify(`${company.name ?? 'The company'} terminated`);
      void navigate('/companies');
    },
  });
  const changed = (): Body => {
    const before = initial(company);
    const body: Body = {};
    for (const [k] of TEXT_FIELDS) if (values[k] !== before[k]) body[k] = values[k];
    if (isSuperadmin && status !== company.status && isStatus(status)) body.status = status;
    return body;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(changed());
  };
  return (
    <form onSubmit={submit} aria-label="Company information">
      <Stack maw={760}>
        <ErrorNotice error={save.error ?? remove.error} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {TEXT_FIELDS.map(([k, label]) =>
            k === 'description' ? (
              <Textarea
                key={k}
                label={label}
                value={values[k]}
                readOnly={!canEdit}
                onChange={(e) => setValues({ ...values, [k]: e.currentTarget.value })}
              />
            ) : (
              <TextInput
                key={k}
                label={label}
                required={k === 'name'}
                value={values[k]}
                readOnly={!canEdit}
                onChange={(e) => setValues({ ...values, [k]: e.currentTarget.value })}
              />
            ),
          )}
          <Select
            label="Status"
            description={isSuperadmin ? undefined : 'Set by a superadmin'}
            value={status}
            onChange={setStatus}
            data={company.status === 'terminated' ? ['terminated'] : [...STATUSES]}
            readOnly={!isSuperadmin}
            allowDeselect={false}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          Country {company.country ?? '—'}
          {company.state ? ` (${company.state})` : ''} · data location{' '}
          {typeof company.dataLocation === 'string' ? company.dataLocation : (company.dataLocation?.name ?? '—')} ·
          created {company.creationDate ? new Date(company.creationDate).toLocaleString() : '—'}
          {company.numberUsers != null ? ` · ${company.numberUsers} users` : ''}
        </Text>
        {canEdit ? (
          <Group>
            <Button type="submit" loading={save.isPending} disabled={Object.keys(changed()).length === 0}>
              Save changes
            </Button>
          </Group>
        ) : null}
        {/* deleteCompany terminates the company (renamed, disabled); it is never removed. */}
        {canDelete && company.status !== 'terminated' ? (
          <Group>
            <ConfirmButton label="Terminate company" loading={remove.isPending} onConfirm={() => remove.mutate()} />
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
