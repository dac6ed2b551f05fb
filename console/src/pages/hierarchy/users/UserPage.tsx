// One user (getUser, updateUser, deleteUser): names, login, roles, site, a new password, and the
// deletion; for the administrators of the user's company (the users policy; a target holding a
// higher role than the caller is refused by the service, and explained).
import { Anchor, Button, Group, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { useRoles, useSession } from '../../../auth/roles.ts';
import { ErrorNotice } from '../../../components/ErrorNotice.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useCompany } from '../company/useCompany.ts';
import { USER_MANAGE_ROLES } from '../roles.ts';
import { RolesField, SiteSelect } from './RolesField.tsx';
import { toRoles } from './to-roles.ts';
import { notify } from '../../../lib/notify.ts';
import { ConfirmButton } from '../ConfirmButton.tsx';

type User = Schemas['User_2'];
type Body = Schemas['UpdateUserBody'];

export default function UserPage() {
  const userId = useParams().userId ?? '';
  const q = useQuery({
    queryKey: ['user', userId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/admin/v1.0/users/{userId}', { params: { path: { userId }, query: { format: 'full' } } }),
      ),
  });
  if (q.isPending) return <Loading />;
  if (q.error)
    return (
      <>
        <PageHeader title="User" />
        <ErrorNotice error={q.error} />
      </>
    );
  return <UserForm key={q.dataUpdatedAt} user={q.data.data} />;
}

function UserForm({ user }: { user: User }) {
  const s = useSession();
  const isSelf = s?.user.id === user.id;
  const canManage = useRoles(...USER_MANAGE_ROLES);
  const canEdit = canManage || isSelf;
  const company = useCompany(user.companyId ?? '');
  const [firstName, setFirstName] = useState(user.firstName ?? '');
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [loginEmail, setLoginEmail] = useState(user.loginEmail ?? '');
  const [roles, setRoles] = useState<string[]>((user.roles ?? []).filter((r) => r !== 'user'));
  const [siteId, setSiteId] = useState<string | null>(user.siteId ?? null);
  const [password, setPassword] = useState('');
  const qc = useQueryClient();
  const navigate = useNavigate();
  const userId = user.id ?? '';
  const save = useMutation({
    mutationFn: (body: Body) =>
      unwrap(api.PUT('/api/svc/admin/v1.0/users/{userId}', { params: { path: { userId } }, body })),
    onSuccess: async () => {
      setPassword('');
      await qc.invalidateQueries({ queryKey: ['user', userId] });
      await qc.invalidateQueries({ queryKey: ['users'] });
      notify('User saved');
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/svc/admin/v1.0/users/{userId}', { params: { path: { userId } } })),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ['users'] });
      notify(`User ${user.loginEmail} deleted`);
      void navigate('/users');
    },
  });
  const before = (user.roles ?? []).filter((r) => r !== 'user');
  const rolesChanged = roles.length !== before.length || roles.some((r) => !before.includes(r));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body: Body = {
      ...(firstName !== (user.firstName ?? '') ? { firstName } : {}),
      ...(lastName !== (user.lastName ?? '') ? { lastName } : {}),
      ...(loginEmail !== user.loginEmail ? { loginEmail } : {}),
      ...(rolesChanged ? { roles: toRoles(roles) } : {}),
      ...(siteId !== (user.siteId ?? null) ? { siteId } : {}),
      ...(password ? { password } : {}),
    };
    save.mutate(body);
  };
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.loginEmail;
  return (
    <>
      <PageHeader title={`User ${name}`}>
        {canManage && !isSelf ? (
          <ConfirmButton label="Delete user" loading={remove.isPending} onConfirm={() => remove.mutate()} />
        ) : null}
      </PageHeader>
      <Text size="sm" mb="md">
        Company:{' '}
        <Anchor component={Link} to={`/companies/${user.companyId}`}>
          {company.data?.data.name ?? user.companyId}
        </Anchor>
      </Text>
      <form onSubmit={submit} aria-label="User">
        <Stack maw={640}>
          <ErrorNotice error={save.error ?? remove.error} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="First name"
              value={firstName}
              readOnly={!canEdit}
              onChange={(e) => setFirstName(e.currentTarget.value)}
            />
            <TextInput
              label="Last name"
              value={lastName}
              readOnly={!canEdit}
              onChange={(e) => setLastName(e.currentTarget.value)}
            />
            <TextInput
              label="Login e-mail"
              type="email"
              value={loginEmail}
              readOnly={!canManage}
              onChange={(e) => setLoginEmail(e.currentTarget.value)}
            />
            {canEdit ? (
              <PasswordInput
                label="New password"
                description="Left empty, the password stays"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
            ) : null}
          </SimpleGrid>
          <RolesField
            value={roles}
            onChange={setRoles}
            companyIsBP={Boolean(company.data?.data.isBP)}
            disabled={!canManage}
          />
          {roles.includes('site_admin') ? (
            <SiteSelect companyId={user.companyId ?? ''} value={siteId} onChange={setSiteId} disabled={!canManage} />
          ) : null}
          {canEdit ? (
            <Group>
              <Button type="submit" loading={save.isPending}>
                Save user
              </Button>
            </Group>
          ) : null}
        </Stack>
      </form>
    </>
  );
}
