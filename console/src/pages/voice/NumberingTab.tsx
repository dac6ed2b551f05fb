// The numbering plan of a CloudPBX (issue 28, point 4; document 2, getNumberingPlan and
// listFreeInternalNumbers): its ranges, the numbers taken (by subscribers, groups and devices),
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
    queryKey: ['numbering-plan', systemId],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/vcpprovisioning/v1.0/cloudpbxs/{systemId}/numbering-plan', {
          params: { path: { systemId } },
        }),
      ),
  });
  if (q.error) return <ErrorNotice error={q.error} />;
  if (!q.data) return <Loading />;
  const plan = q.data.data;
  const taken = [
    ...plan.allocatedNumbers.subscribers.map((s) => ({ n: s.shortNumber, what: 'Subscriber', who: s.userDisplayName })),
    ...plan.allocatedNumbers.groups.map((g) => ({ n: g.shortNumber, what: `Group (${g.type})`, who: g.groupName })),
    ...plan.allocatedNumbers.devices.map((d) => ({
      n: d.shortNumber,
      what: 'Device',
      who: `${d.userDisplayName}${d.macAddress ? ` · ${d.macAddress}` : ''}`,
    })),
  ].sort((a, b) => a.n.localeCompare(b.n, undefined, { numeric: true }));
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
      <Table withTableBorder striped>
        <Table.Caption>Numbers taken: {taken.length}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Number</Table.Th>
            <Table.Th scope="col">Taken by</Table.Th>
            <Table.Th scope="col">Name</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {taken.map((t) => (
            <Table.Tr key={`${t.what}-${t.n}-${t.who}`}>
              <Table.Td>{t.n}</Table.Td>
              <Table.Td>{t.what}</Table.Td>
              <Table.Td>{t.who}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <FreeNumbers systemId={systemId} />
    </>
  );
}
