// The check report (document 3, Check report; issue 28, point 5: "read the check report before
// importing"): how many lines would pass, what each would do, the licences it would take, and
// every line error found without writing anything.
import { Alert, Badge, Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client.ts';

type Report = Schemas['CheckReport'];

/** Line errors shown at once; the service lists at most 1,000 of them. */
const ERRORS_PER_PAGE = 20;

export function CheckReportView({ report }: { report: Report }) {
  const failed = report.total - report.valid;
  return (
    <Stack gap="md" data-testid="check-report">
      <Title order={2} size="h3">
        Check report
      </Title>
      <Group gap="lg">
        <Text data-testid="check-valid">
          <b>{report.valid}</b> of <b>{report.total}</b> lines valid
        </Text>
        <Text data-testid="check-failed" c={failed ? 'red.9' : undefined}>
          <b>{failed}</b> with errors
        </Text>
        <Text>
          Mode <Badge variant="light">{report.mode}</Badge>
        </Text>
        <Text>
          {report.columns} columns understood, delimiter “{report.delimiter === '\t' ? 'tab' : report.delimiter}”
        </Text>
      </Group>
      {Object.keys(report.actions).length ? (
        <Text>
          Actions:{' '}
          {Object.entries(report.actions)
            .map(([a, n]) => `${a} ${n}`)
            .join(', ')}
        </Text>
      ) : null}
      {report.ignoredColumns.length ? (
        <Alert color="yellow" title="Columns ignored">
          These header names are not understood and their cells will be ignored: {report.ignoredColumns.join(', ')}
        </Alert>
      ) : null}
      {report.profiles.length ? <Profiles profiles={report.profiles} /> : null}
      {report.errors.length ? <LineErrors report={report} /> : <Text>No line error found.</Text>}
    </Stack>
  );
}

function Profiles({ profiles }: { profiles: Report['profiles'] }) {
  return (
    <Table.ScrollContainer minWidth={500}>
      <Table captionSide="top">
        <Table.Caption>Licences the import would take</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Offer</Table.Th>
            <Table.Th scope="col">Assigned before</Table.Th>
            <Table.Th scope="col">Assigned after</Table.Th>
            <Table.Th scope="col">Bought</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {profiles.map((p) => (
            <Table.Tr key={p.subscriptionId}>
              <Table.Td>
                {p.name} {p.valid ? null : <Badge color="red">not usable</Badge>}
              </Table.Td>
              <Table.Td>{p.assignedBefore}</Table.Td>
              <Table.Td c={p.max !== null && p.assignedAfter > p.max ? 'red.9' : undefined}>{p.assignedAfter}</Table.Td>
              <Table.Td>{p.max ?? 'no limit'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function LineErrors({ report }: { report: Report }) {
  const [page, setPage] = useState(1);
  const pages = Math.ceil(report.errors.length / ERRORS_PER_PAGE);
  const shown = report.errors.slice((page - 1) * ERRORS_PER_PAGE, page * ERRORS_PER_PAGE);
  const more = report.total - report.valid - report.errors.length;
  return (
    <div>
      <Table.ScrollContainer minWidth={500}>
        <Table striped captionSide="top" data-testid="check-errors">
          <Table.Caption>Line errors: {report.errors.length}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Line</Table.Th>
              <Table.Th scope="col">Login</Table.Th>
              <Table.Th scope="col">Code</Table.Th>
              <Table.Th scope="col">Error</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((e) => (
              <Table.Tr key={e.line}>
                <Table.Td>{e.line}</Table.Td>
                <Table.Td>{e.login}</Table.Td>
                <Table.Td>{e.error.code}</Table.Td>
                <Table.Td>{e.error.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Pagination
          mt="sm"
          total={pages}
          value={page}
          onChange={setPage}
          aria-label="Line errors pages"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `page ${n}` })}
        />
      ) : null}
      {more > 0 ? (
        <Text c="dimmed" size="sm" mt="xs">
          {/* The service lists at most 1,000 errors; the counts cover every line. */}
          {more} more lines have errors than are listed.
        </Text>
      ) : null}
    </div>
  );
}
