// A resource's facts as a two-column table: a header cell per row names the fact (read as the
// row's header by screen readers), the other cell holds its value.
import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

export function FactsTable({
  caption,
  rows,
  labelWidth = 200,
}: {
  caption: string;
  rows: [string, ReactNode][];
  labelWidth?: number;
}) {
  return (
    <Table maw={620} withTableBorder>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Tbody>
        {rows.map(([k, v]) => (
          <Table.Tr key={k}>
            <Table.Th scope="row" w={labelWidth}>
              {k}
            </Table.Th>
            <Table.Td>{v}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
