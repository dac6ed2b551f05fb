// The numbering plan of a CloudPBX (issue 28, point 4; document 2, getNumberingPlan and
// listFreeInternalNumbers): its ranges, the numbers taken (by subscribers, groups and devices,
// each paged by the service: TakenNumbers.tsx),
// and the free numbers, which the service searches: a plan of ten digits holds billions of
// numbers, so the page asks for the first few starting with some digits, never for them all.
import { Group, Loader, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { useSystemId } from './usePbx.ts';
import { TakenNumbers } from './TakenNumbers.tsx';

const FREE_PAGE = 50;

/** The first free numbers whose digits start with what is typed: narrowing is how one browses a large plan. */
function FreeNumbers({ systemId }: { systemId: string }) {
  const [search, setSearch] = useState('');
  const [startingWith] = useDebouncedValue(search, 250);
  const q = useQuery({
    queryKey: ['free-numbers', systemId, startingWith],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/phone-numbers/free', {
          params: { path: { systemId }, query: { limit: FREE_PAGE, ...(startingWith ? { startingWith } : {}) } },
        }),
      ),
  });
  const numbers = q.data?.data ?? [];
  return (
    <section aria-labelledby="free-title">
      <Title order={3} size="h4" id="free-title" mt="lg" mb="xs">
        Free internal numbers
      </Title>
      <ErrorNotice error={q.error} />
      <Group align="end" mb="sm">
        <TextInput
          label="Starting with"
          description={`Digits; the first ${FREE_PAGE} free numbers that start with them`}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value.replace(/\D/g, ''))}
        />
        {q.isFetching ? <Loader size="xs" aria-label="Loading free numbers" /> : null}
      </Group>
      <Text data-testid="free-numbers" ff="monospace" size="sm">
        {numbers.length ? numbers.join('  ') : 'No free number starts with these digits.'}
      </Text>
    </section>
  );
}

export default function NumberingTab() {
  const systemId = useSystemId();
  const q = useQuery({
    queryKey: ['numbering-plan', systemId, 'ranges'],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/numbering-plan', {
          // The ranges only: the numbers taken are read a page at a time below.
          params: { path: { systemId }, query: { limit: 1 } },
        }),
      ),
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return <Loading />;
  const plan = q.data.data;
  return (
    <>
      <Title order={2} size="h3" mb="sm">
        Numbering plan
      </Title>
      <Table maw={480} withTableBorder mb="lg">
        <Table.Caption>Ranges of internal numbers</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">First</Table.Th>
            <Table.Th scope="col">Last</Table.Th>
            <Table.Th scope="col">Numbers</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {plan.ranges.map((r) => (
            <Table.Tr key={r.first}>
              <Table.Td>{r.first}</Table.Td>
              <Table.Td>{r.last}</Table.Td>
              <Table.Td>{(r.last - r.first + 1).toLocaleString()}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={3} size="h4" mb="xs">
        Numbers taken
      </Title>
      <TakenNumbers systemId={systemId} />
      <FreeNumbers systemId={systemId} />
    </>
  );
}
