// Users (issue 28, point 2): every user the caller may see, filtered by company, name, e-mail and
// role on the service, and a new user for those who create them.
import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { useRoles } from '../../../auth/roles.ts';
import { CompanyPicker } from '../../../components/CompanyPicker.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { COMPANY_LIST_ROLES, USER_MANAGE_ROLES } from '../roles.ts';
import { UsersTable } from './UsersTable.tsx';

export default function UsersPage() {
  const canCreate = useRoles(...USER_MANAGE_ROLES);
  const seesCompanies = useRoles(...COMPANY_LIST_ROLES);
  const [companyId, setCompanyId] = useState<string | null>(null);
  return (
    <>
      <PageHeader title="Users">
        {canCreate ? (
          <Button component={Link} to={companyId ? `/users/new?companyId=${companyId}` : '/users/new'}>
            New user
          </Button>
        ) : null}
      </PageHeader>
      {seesCompanies ? (
        <Group mb="sm">
          <CompanyPicker label="Company of the users" value={companyId} onChange={setCompanyId} />
        </Group>
      ) : null}
      <UsersTable companyId={companyId} />
    </>
  );
}
