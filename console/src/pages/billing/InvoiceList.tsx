// A BP's invoices (issue 28, point 3; document 1, list invoices: newest first), each with its
// lines and their calculation, its PDF to download or preview. The invoices are asked a page at a
// time (issue 28, point 9: limit/offset of listInvoices, with the total).
import { Accordion, Badge, Button, Group, Pagination, Table, Text } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { day, money } from '../commerce/format.ts';
import { downloadInvoicePdf } from './invoice-pdf.ts';
import { InvoicePreview } from './InvoicePreview.tsx';

/** Invoices per page: each opens on its lines, so a page stays short. */
const PER_PAGE = 10;

export function InvoiceList({ companyId }: { companyId: string }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['invoices', companyId, page],
    queryFn: () =>
      unwrap(
        api.GET('/api/svc/subscription/v1.0/companies/{companyId}/invoices', {
          params: { path: { companyId }, query: { format: 'full', limit: PER_PAGE, offset: (page - 1) * PER_PAGE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const [preview, setPreview] = useState<{ fileId: string; invoiceNumber: string } | null>(null);
  const pdf = useMutation({
    mutationFn: (f: { fileId: string; invoiceNumber: string }) =>
      downloadInvoicePdf(companyId, f.fileId, f.invoiceNumber),
  });
  if (q.isPending) return <Loading label="Loading invoices" />;
  const list = q.data?.data ?? [];
  const total = q.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return (
    <>
      <ErrorNotice error={q.error ?? pdf.error} />
      <Text mb="xs" data-testid="invoices-count">
        {total === 0
          ? 'No invoice yet: invoices are made by the monthly billing run.'
          : `${total} ${total === 1 ? 'invoice' : 'invoices'}`}
      </Text>
      <Accordion variant="separated">
        {list.map((inv) => {
          const file = inv.invoiceFiles?.at(-1);
          const number = inv.invoiceNumber ?? '';
          const cur = inv.currency ?? 'EUR';
          const f = file ? { fileId: file.id, invoiceNumber: number } : null;
          return (
            <Accordion.Item key={inv.id} value={inv.id ?? number}>
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap" pr="md">
                  <Text fw={600}>Invoice {number}</Text>
                  <Text>
                    {inv.billingPeriod} · {day(inv.invoiceDate)}
                  </Text>
                  <Badge variant="dot">{inv.status}</Badge>
                  <Text fw={700}>{money(inv.amount ?? 0, cur)}</Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Group mb="sm">
                  <Button size="xs" disabled={!f} loading={pdf.isPending} onClick={() => f && pdf.mutate(f)}>
                    Download PDF
                  </Button>
                  <Button size="xs" variant="default" disabled={!f} onClick={() => setPreview(f)}>
                    Preview PDF
                  </Button>
                  <Text size="sm" c="dimmed">
                    Due {day(inv.dueDate)} · balance {money(inv.balance ?? 0, cur)}
                  </Text>
                </Group>
                <Table.ScrollContainer minWidth={640}>
                  <Table striped>
                    <Table.Caption>Lines of invoice {number}</Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">Subscription</Table.Th>
                        <Table.Th scope="col">Charge</Table.Th>
                        <Table.Th scope="col">Period</Table.Th>
                        <Table.Th scope="col">Calculation</Table.Th>
                        <Table.Th scope="col">Amount</Table.Th>
                        <Table.Th scope="col">Tax</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {(inv.invoiceItems ?? []).map((i) => (
                        <Table.Tr key={i.id}>
                          <Table.Td>{i.subscriptionName}</Table.Td>
                          <Table.Td>
                            {i.chargeName} ({i.chargeType})
                          </Table.Td>
                          <Table.Td>
                            {day(i.serviceStartDate)} – {day(i.serviceEndDate)}
                          </Table.Td>
                          <Table.Td>{i.calculation}</Table.Td>
                          <Table.Td>{money(i.chargeAmount ?? 0, cur)}</Table.Td>
                          <Table.Td>{money(i.taxAmount ?? 0, cur)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
      {pages > 1 ? (
        <Pagination
          mt="sm"
          total={pages}
          value={page}
          onChange={setPage}
          aria-label="Invoices pages"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `page ${n}` })}
        />
      ) : null}
      <InvoicePreview companyId={companyId} file={preview} onClose={() => setPreview(null)} />
    </>
  );
}
