// The invoicing files of a company (issue 28, point 3; document 1, invoicing module): the INV
// and CDR files (CSV) of each billing period, filtered by period and kind as the API filters them.
import { Button, Group, Select, Table, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { day } from '../commerce/format.ts';
import { downloadInvoicingFile } from './invoice-pdf.ts';

const PERIOD = /^[0-9]{4}-(0[1-9]|1[0-2])$/;

export function InvoicingFiles({ companyId }: { companyId: string }) {
  const [period, setPeriod] = useState('');
  const [billingPeriod] = useDebouncedValue(period.trim(), 300);
  const [fileType, setFileType] = useState<string | null>(null);
  const validPeriod = PERIOD.test(billingPeriod) ? billingPeriod : undefined;
  const q = useQuery({
    queryKey: ['invoicing-files', companyId, validPeriod, fileType],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/invoicing/v1.0/invoices', {
          params: {
            query: {
              companyId,
              ...(validPeriod ? { billingPeriod: validPeriod } : {}),
              ...(fileType === 'INV' || fileType === 'CDR' ? { fileType } : {}),
            },
          },
        }),
      ),
  });
  const get = useMutation({
    mutationFn: (f: { path: string; fileName: string }) => downloadInvoicingFile(f.path, f.fileName),
  });
  const list = q.data?.data ?? [];
  return (
    <>
      <Group align="end" mb="sm">
        <TextInput
          label="Billing period"
          placeholder="YYYY-MM"
          value={period}
          onChange={(e) => setPeriod(e.currentTarget.value)}
          error={billingPeriod && !validPeriod ? 'Write the month as YYYY-MM' : undefined}
          w={160}
        />
        <Select
          label="Kind of file"
          clearable
          data={[
            { value: 'INV', label: 'Invoice lines (INV)' },
            { value: 'CDR', label: 'Call records (CDR)' },
          ]}
          value={fileType}
          onChange={setFileType}
          w={220}
        />
      </Group>
      <ErrorNotice error={q.error ?? get.error} />
      <Table.ScrollContainer minWidth={600}>
        <Table striped aria-busy={q.isFetching}>
          <Table.Caption>Invoicing files: {q.isPending ? 'loading…' : `${list.length} in all`}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">File</Table.Th>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col">Lines</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">Download</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((f) => (
              <Table.Tr key={f.id}>
                <Table.Th scope="row" fw={500}>
                  {f.fileName}
                </Table.Th>
                <Table.Td>{f.billingPeriod}</Table.Td>
                <Table.Td>
                  {f.fileType} {f.invoiceType}
                </Table.Td>
                <Table.Td>{f.lines}</Table.Td>
                <Table.Td>{day(f.invoiceCreationDate)}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="light" onClick={() => get.mutate(f)} aria-label={`Download ${f.fileName}`}>
                    CSV
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
