// A quotation preview (issue 28, point 3; document 1, create a quotation): what the BP will be
// invoiced for the change, each line with its calculation ("10 users x 10.00 EUR x 10/30 days"),
// shown before the subscription is made or its quantity changed.
import { Table, Text, SimpleGrid, Paper } from '@mantine/core';
import { day, money } from './format.ts';
import type { Quotation } from './types.ts';

export function QuotationView({ quotation: q }: { quotation: Quotation }) {
  const cur = q.currency;
  return (
    <div data-testid="quotation">
      <Table.ScrollContainer minWidth={560}>
        <Table withTableBorder>
          <Table.Caption>Quotation lines, invoiced on {day(q.invoiceTargetDate)}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Charge</Table.Th>
              <Table.Th scope="col">Period</Table.Th>
              <Table.Th scope="col">Quantity</Table.Th>
              <Table.Th scope="col">Calculation</Table.Th>
              <Table.Th scope="col">Amount</Table.Th>
              <Table.Th scope="col">Tax</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.invoiceItems.map((i, n) => (
              <Table.Tr key={`${i.productRatePlanChargeId ?? ''}-${n}`}>
                <Table.Td>
                  {i.productName}
                  <Text size="xs" c="dimmed">
                    {i.chargeName}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {day(i.serviceStartDate)} – {day(i.serviceEndDate)}
                </Table.Td>
                <Table.Td>
                  {i.quantity} {i.unitOfMeasure}
                </Table.Td>
                <Table.Td data-testid="quotation-calculation">{i.calculation}</Table.Td>
                <Table.Td>{money(i.chargeAmount, cur)}</Table.Td>
                <Table.Td>{money(i.taxAmount, cur)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {q.invoiceItems.length === 0 ? <Text my="sm">Nothing to invoice for this change.</Text> : null}
      <SimpleGrid cols={{ base: 2, sm: 4 }} mt="sm">
        <Total label="Without tax" value={money(q.amountWithoutTax, cur)} />
        <Total label="Tax" value={money(q.taxAmount, cur)} />
        <Total label="Total" value={money(q.amount, cur)} testId="quotation-total" />
        <Total
          label="Monthly after the change"
          value={`${money(q.contractedMrr, cur)} (${q.totalDeltaMrr >= 0 ? '+' : ''}${money(q.totalDeltaMrr, cur)})`}
        />
      </SimpleGrid>
    </div>
  );
}

function Total({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper withBorder p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}
