// Creating a BP or an End Customer (issue 28, point 2; document 3, create company rules 1 to 8).
// What the form offers follows the caller: a superadmin creates a BP VAD or IR (an IR under a VAD)
// or an End Customer under any BP; a bp_admin or bp_finance creates End Customers of his BP and,
// when his BP is a VAD, BP IR companies under it (rule 4); an organization_admin creates companies
// of his organisation, optionally under a BP (rules 3 and 6). The service applies the rules; the
// form only avoids sending what it would refuse (bpType, bpId are superadmin fields, rule 1).
import { Button, Group, Radio, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, type Schemas } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { useRoles, useSession } from '../../auth/roles.ts';
import { CompanyPicker } from '../../components/CompanyPicker.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CountrySelect } from './CountrySelect.tsx';
import { isCompanyState } from './states.ts';
import { notify } from '../../lib/notify.ts';

type Kind = 'bp' | 'ec';
type Body = Schemas['CreateCompanyBody'];

export default function NewCompanyPage() {
  const s = useSession();
  const isSuperadmin = useRoles('superadmin');
  const isBpRole = useRoles('bp_admin', 'bp_finance');
  const ownId = s?.user.companyId ?? '';
  // Rule 4: only a VAD's administrators create BP companies (IR) under their own.
  const own = useQuery({
    queryKey: ['company', ownId, 'full'],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/companies/{companyId}', {
          params: { path: { companyId: ownId }, query: { format: 'full' } },
        }),
      ),
    enabled: isBpRole && !isSuperadmin && Boolean(ownId),
  });
  const canCreateBp = isSuperadmin || (isBpRole && own.data?.data.bpType === 'VAD');

  const [kind, setKind] = useState<Kind>('ec');
  const [bpType, setBpType] = useState<'VAD' | 'IR'>('VAD');
  const [bpId, setBpId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [country, setCountry] = useState('FRA');
  const [state, setState] = useState('');
  const [city, setCity] = useState('');
  const [adminEmail, setAdminEmail] = useState('');
  const [description, setDescription] = useState('');
  const qc = useQueryClient();
  const navigate = useNavigate();

  const create = useMutation({
    mutationFn: (body: Body) => unwrap(api.POST('/api/svc/admin/v1.0/companies', { body })),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['companies'] });
      notify(`${res.data.name} created`);
      void navigate(`/companies/${res.data.id}`);
    },
  });

  const hierarchy = (): Partial<Body> => {
    const bp = kind === 'bp' && canCreateBp;
    if (isSuperadmin)
      return bp
        ? { isBP: true, bpType, ...(bpType === 'IR' && bpId ? { bpId } : {}) }
        : { isBP: false, ...(bpId ? { bpId } : {}) };
    // bp_admin / bp_finance: the new company goes under the caller's BP (rule 2).
    if (isBpRole) return bp ? { isBP: true } : {};
    // organization_admin: in his organisation, under a BP of it when one is chosen (rule 6).
    return bpId ? { bpId } : {};
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      name: name.trim(),
      country,
      ...((country === 'USA' || country === 'CAN') && isCompanyState(state) ? { state } : {}),
      ...(city ? { city } : {}),
      ...(adminEmail ? { adminEmail } : {}),
      ...(description ? { description } : {}),
      ...hierarchy(),
    });
  };

  const choosesBp = isSuperadmin ? kind === 'ec' || bpType === 'IR' : !isBpRole;
  return (
    <>
      <PageHeader title="New company" />
      <form onSubmit={submit} aria-label="New company">
        <Stack maw={560}>
          <ErrorNotice error={create.error} />
          <Radio.Group label="Kind of company" value={kind} onChange={(v) => setKind(v === 'bp' ? 'bp' : 'ec')}>
            <Group mt="xs">
              <Radio value="ec" label="End Customer" />
              <Radio value="bp" label="Business partner (BP)" disabled={!canCreateBp} />
            </Group>
          </Radio.Group>
          {!canCreateBp ? (
            <Text size="sm" c="dimmed">
              Only a superadmin, or the administrators of a BP VAD, create BP companies.
            </Text>
          ) : null}
          {kind === 'bp' && isSuperadmin ? (
            <Select
              label="BP type"
              description="An IR (indirect reseller) may be linked to a VAD (value-added distributor)."
              value={bpType}
              onChange={(v) => setBpType(v === 'IR' ? 'IR' : 'VAD')}
              data={[
                { value: 'VAD', label: 'VAD (value-added distributor)' },
                { value: 'IR', label: 'IR (indirect reseller)' },
              ]}
              allowDeselect={false}
            />
          ) : null}
          {kind === 'bp' && isBpRole && !isSuperadmin ? (
            <Text size="sm">The new BP is an IR under your VAD ({own.data?.data.name}).</Text>
          ) : null}
          {kind === 'ec' && isBpRole && !isSuperadmin ? (
            <Text size="sm">The new End Customer is attached to your BP and starts as “initializing”.</Text>
          ) : null}
          {choosesBp ? (
            <CompanyPicker
              label={kind === 'bp' ? 'Parent VAD' : 'Business partner of the End Customer'}
              value={bpId}
              onChange={setBpId}
              onlyBps
            />
          ) : null}
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <CountrySelect country={country} state={state} onCountry={setCountry} onState={setState} />
          <TextInput label="City" value={city} onChange={(e) => setCity(e.currentTarget.value)} />
          <TextInput
            label="Administrator e-mail"
            type="email"
            value={adminEmail}
            onChange={(e) => setAdminEmail(e.currentTarget.value)}
          />
          <Textarea label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Group>
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create company
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}
