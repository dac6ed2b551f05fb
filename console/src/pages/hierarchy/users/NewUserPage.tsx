// A new user (createUser): login, password, names, company (the caller's own by default, or one
// he manages: the users policy), and the roles he may give. ?companyId= preselects the company.
import { Button, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles, useSession } from '../../../auth/roles.ts';
import { CompanyPicker } from '../../../components/CompanyPicker.tsx';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCompany } from '../company/useCompany.ts';
import { COMPANY_LIST_ROLES } from '../roles.ts';
import { RolesField, SiteSelect } from './RolesField.tsx';
import { toRoles } from './to-roles.ts';
import { notify } from '../../../lib/notify.ts';

type Body = Schemas['CreateUserBody'];

export default function NewUserPage() {
  const s = useSession();
  const [params] = useSearchParams();
  const choosesCompany = useRoles(...COMPANY_LIST_ROLES);
  const [companyId, setCompanyId] = useState<string | null>(params.get('companyId') ?? s?.user.companyId ?? null);
  const company = useCompany(companyId ?? '');
  const [loginEmail, setLoginEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [roles, setRoles] = useState<string[]>([]);
  const [siteId, setSiteId] = useState<string | null>(null);
  const qc = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (body: Body) => unwrap(api.POST('/api/svc/admin/v1.0/users', { body })),
    onSuccess: async (res) => {
      await qc.invalidateQueries({ queryKey: ['users'] });
      notify(`User ${res.data.loginEmail} created`);
      void navigate(`/users/${res.data.id}`);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const given = toRoles(roles);
    create.mutate({
      loginEmail,
      password,
      ...(firstName ? { firstName } : {}),
      ...(lastName ? { lastName } : {}),
      ...(companyId ? { companyId } : {}),
      roles: given,
      ...(given.includes('site_admin') && siteId ? { siteId } : {}),
    });
  };
  return (
    <>
      <PageHeader title="New user" />
      <form onSubmit={submit} aria-label="New user">
        <Stack maw={640}>
          <ErrorNotice error={create.error} />
          {choosesCompany ? <CompanyPicker label="Company" value={companyId} onChange={setCompanyId} required /> : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Login e-mail"
              type="email"
              required
              value={loginEmail}
              onChange={(e) => setLoginEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              description="8 characters or more, with upper and lower case, a digit and a special character"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <TextInput label="First name" value={firstName} onChange={(e) => setFirstName(e.currentTarget.value)} />
            <TextInput label="Last name" value={lastName} onChange={(e) => setLastName(e.currentTarget.value)} />
          </SimpleGrid>
          <RolesField value={roles} onChange={setRoles} companyIsBP={Boolean(company.data?.data.isBP)} />
          {roles.includes('site_admin') && companyId ? (
            <SiteSelect companyId={companyId} value={siteId} onChange={setSiteId} />
          ) : null}
          <div>
            <Button type="submit" loading={create.isPending}>
              Create user
            </Button>
          </div>
        </Stack>
      </form>
    </>
  );
}
