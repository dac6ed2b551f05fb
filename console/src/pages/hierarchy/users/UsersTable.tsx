// Users, as the service pages, sorts and filters them (listUsers: company, name prefix, login
// e-mail, roles), for the users page and a company's users tab.
import { Badge, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Schemas } from '../../../api/client.ts';
import { unwrap } from '../../../api/errors.ts';
import { ServerTable, type Column } from '../../../components/ServerTable.tsx';
import { ROLE_NAMES } from './role-names.ts';

type User = Schemas['User_2'];

const columns: Column<User>[] = [
  { key: 'lastName', label: 'Last name', sortField: 'lastName', render: (u) => u.lastName ?? '' },
  { key: 'firstName', label: 'First name', sortField: 'firstName', render: (u) => u.firstName ?? '' },
  { key: 'loginEmail', label: 'Login e-mail', sortField: 'loginEmail', render: (u) => u.loginEmail },
  {
    key: 'roles',
    label: 'Roles',
    render: (u) => (
      <Group gap={4}>
        {(u.roles ?? [])
          .filter((r) => r !== 'user')
          .map((r) => (
            <Badge key={r} variant="light" size="sm">
              {r}
            </Badge>
          ))}
      </Group>
    ),
  },
  {
    key: 'created',
    label: 'Created',
    sortField: 'creationDate',
    render: (u) => (u.creationDate ? new Date(u.creationDate).toLocaleDateString() : ''),
  },
];

export function UsersTable({ companyId, caption = 'Users' }: { companyId?: string | null; caption?: string }) {
  const [search, setSearch] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const [name] = useDebouncedValue(search.trim(), 300);
  const [loginEmail] = useDebouncedValue(email.trim(), 300);
  const navigate = useNavigate();
  return (
    <>
      <Group mb="md" align="end">
        <TextInput
          label="First or last name starts with"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={240}
        />
        <TextInput label="Login e-mail" value={email} onChange={(e) => setEmail(e.currentTarget.value)} w={240} />
        <Select label="Role" placeholder="any" clearable value={role} onChange={setRole} data={ROLE_NAMES} w={190} />
      </Group>
      <ServerTable<User>
        caption={caption}
        queryKey={['users', companyId ?? null, name, loginEmail, role]}
        columns={columns}
        rowKey={(u) => u.id ?? ''}
        defaultSort={{ field: 'lastName', order: 1 }}
        onRowClick={(u) => void navigate(`/users/${u.id}`)}
        fetchPage={(req) =>
          unwrap(
            api.GET('/api/svc/admin/v1.0/users', {
              params: {
                query: {
                  ...req,
                  // full: the creation date is a column (medium has no dates).
                  format: 'full',
                  ...(companyId ? { companyId } : {}),
                  ...(name ? { name } : {}),
                  ...(loginEmail ? { loginEmail } : {}),
                  ...(role ? { roles: role } : {}),
                },
              },
            }),
          )
        }
      />
    </>
  );
}
