// The first page after sign-in: who is signed in, and the company they belong to.
import { Card, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { hasRole, rolesFor, useSession } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';

/** Who may read his own company: getCompany's roles in the service's policy. */
const COMPANY_READERS = rolesFor('getCompany');

export default function OverviewPage() {
  const s = useSession();
  const companyId = s?.user.companyId ?? '';
  const readsCompany = hasRole(s, COMPANY_READERS);
  const company = useQuery({
    queryKey: ['company', companyId],
    queryFn: () => unwrap(api.GET('/api/svc/admin/v1.0/companies/{companyId}', { params: { path: { companyId } } })),
    enabled: Boolean(companyId) && readsCompany,
  });
  return (
    <>
      <PageHeader title="Overview" />
      <ErrorNotice error={company.error} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder>
          <Text fw={700}>Signed in as</Text>
          <Text>{s?.user.loginEmail}</Text>
          <Text c="dimmed" size="sm">
            Roles: {s?.user.roles.join(', ')}
          </Text>
        </Card>
        {readsCompany ? (
          <Card withBorder>
            <Text fw={700}>Company</Text>
            <Text data-testid="own-company">{company.data?.data.name ?? '…'}</Text>
            <Text c="dimmed" size="sm">
              {company.data?.data.isBP ? `Business partner (${company.data.data.bpType ?? ''})` : 'Company'}
            </Text>
          </Card>
        ) : null}
      </SimpleGrid>
    </>
  );
}
