// A company's licences (issue 28, points 3 and 6): per offer, how many are used of those bought,
// as a table and a chart, and the assignment of a licence to a user. The counts come from the
// subscriptions' own answers (document 1: numberAssignedUsers, maxNumberUsers), asked again after
// each assignment.
import { Button, Table, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { useRoles } from '../../auth/roles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { LicenceAssignment } from './LicenceAssignment.tsx';
import { LicencesChart } from './LicencesChart.tsx';
import { licencesPerOffer } from './licences.ts';
import { LICENCE_MANAGERS } from './roles.ts';
import { useCompanyName, useSubscriptions } from './subscriptions-query.ts';

export default function LicencesPage() {
  const { companyId = '' } = useParams();
  const name = useCompanyName(companyId);
  const q = useSubscriptions(companyId);
  const canAssign = useRoles(...LICENCE_MANAGERS);
  const list = q.data?.data ?? [];
  const rows = licencesPerOffer(list);
  return (
    <>
      <PageHeader title={`Licences of ${name}`}>
        <Button variant="default" component={Link} to={`/companies/${companyId}/subscriptions`}>
          Subscriptions
        </Button>
      </PageHeader>
      <ErrorNotice error={q.error} />
      {q.isPending ? (
        <Loading label="Loading licences" />
      ) : (
        <Table striped mb="xl">
          <Table.Caption>Licences per offer: {rows.length} offers</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Offer</Table.Th>
              <Table.Th scope="col">Bought</Table.Th>
              <Table.Th scope="col">Used</Table.Th>
              <Table.Th scope="col">Free</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.offerId} data-testid={`licences-${r.offerId}`}>
                <Table.Th scope="row" fw={500}>
                  {r.offer}
                </Table.Th>
                <Table.Td>{r.Bought}</Table.Td>
                <Table.Td data-testid="licences-used">{r.Used}</Table.Td>
                <Table.Td>{r.Bought - r.Used}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canAssign && !q.isPending ? (
        <>
          <Title order={2} size="h4" mb="xs">
            Assign a licence
          </Title>
          <LicenceAssignment companyId={companyId} subscriptions={list} />
        </>
      ) : null}
      <div style={{ marginTop: 'var(--mantine-spacing-xl)' }}>
        <LicencesChart rows={rows} />
      </div>
    </>
  );
}
