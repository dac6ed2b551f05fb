// The invoicing files of a company (issue 28, point 3; document 1, invoicing module): the INV
// and CDR files (CSV) of each billing period, filtered by period and kind as the API filters them,
// and paged by the service (point 9: limit/offset of listInvoicingFiles, with the total).
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, type Schemas } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ServerTable, type Column } from '../../components/ServerTable.tsx';
import { day } from '../commerce/format.ts';
import { downloadInvoicingFile } from './invoice-pdf.ts';

type InvoicingFile = Schemas['InvoicingFile'];

const PERIOD = /^[0-9]{4}-(0[1-9]|1[0-2])$/;

export function InvoicingFiles({ companyId }: { companyId: string }) {
  const [period, setPeriod] = useState('');
  const [billingPeriod] = useDebouncedValue(period.trim(), 300);
  const [fileType, setFileType] = useState<string | null>(null);
  const validPeriod = PERIOD.test(billingPeriod) ? billingPeriod : undefined;
  const get = useMutation({
    mutationFn: (f: { path: string; fileName: string }) => downloadInvoicingFile(f.path, f.fileName),
  });
  const columns: Column<InvoicingFile>[] = [
    { key: 'file', label: 'File', render: (f) => f.fileName },
    { key: 'period', label: 'Period', render: (f) => f.billingPeriod },
    { key: 'kind', label: 'Kind', render: (f) => `${f.fileType} ${f.invoiceType}` },
    { key: 'lines', label: 'Lines', render: (f) => f.lines },
    { key: 'created', label: 'Created', render: (f) => day(f.invoiceCreationDate) },
    {
      key: 'download',
      label: 'Download',
      render: (f) => (
        <Button size="xs" variant="light" onClick={() => get.mutate(f)} aria-label={`Download ${f.fileName}`}>
          CSV
        </Button>
      ),
    },
  ];
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
      <ErrorNotice error={get.error} />
      <ServerTable<InvoicingFile>
        caption="Invoicing files"
        queryKey={['invoicing-files', companyId, validPeriod, fileType]}
        columns={columns}
        rowKey={(f) => f.id}
        empty="No invoicing file here."
        fetchPage={({ limit, offset }) =>
          unwrap(
            api.GET('/api/svc/invoicing/v1.0/invoices', {
              params: {
                query: {
                  companyId,
                  limit,
                  offset,
                  ...(validPeriod ? { billingPeriod: validPeriod } : {}),
                  ...(fileType === 'INV' || fileType === 'CDR' ? { fileType } : {}),
                },
              },
            }),
          )
        }
      />
    </>
  );
}
