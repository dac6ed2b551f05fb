// The menu's entry to a company's subscriptions, licences or invoices: those who may list
// companies choose one (the service searches by name, one short page at a time); the others act
// on their own company only, so they go straight to it.
import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { COMPANY_LISTERS, useRoles, useSession } from '../../auth/roles.ts';
import { CompanyPicker } from '../../components/CompanyPicker.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';

export function ChooseCompany({ title, section }: { title: string; section: string }) {
  const s = useSession();
  const lister = useRoles(...COMPANY_LISTERS);
  const navigate = useNavigate();
  const [companyId, setCompanyId] = useState<string | null>(null);
  const own = s?.user.companyId ?? '';
  if (!lister && own) return <Navigate to={`/companies/${own}/${section}`} replace />;
  return (
    <>
      <PageHeader title={title} />
      <Text mb="md">Choose the company whose {section} you want to see.</Text>
      <Group align="end">
        <CompanyPicker value={companyId} onChange={setCompanyId} />
        <Button disabled={!companyId} onClick={() => void navigate(`/companies/${companyId}/${section}`)}>
          Open
        </Button>
        {own ? (
          <Button variant="default" onClick={() => void navigate(`/companies/${own}/${section}`)}>
            My company
          </Button>
        ) : null}
      </Group>
    </>
  );
}
