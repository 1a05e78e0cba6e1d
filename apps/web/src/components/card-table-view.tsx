import { Table } from '@mantine/core';
import type { Key, ReactNode } from 'react';
import { CARD_TABLE } from './card-table.ts';

/** One column of a {@link CardTable}. */
export interface CardColumn<Row> {
  /** Its header; on a phone, also each cell's label unless the column holds actions. */
  label?: string;
  /** Buttons, not a value: the cell carries no label, so on a phone it sits under the others. */
  actions?: boolean;
  cell: (row: Row) => ReactNode;
}

/**
 * A console table that turns into cards on a phone (card-table.css): the header row from the
 * columns' labels, one row per item, each value cell labelled with its column's name.
 */
export function CardTable<Row>({
  rows,
  columns,
  rowKey,
  rowTestId,
  minWidth,
}: {
  rows: readonly Row[];
  columns: readonly CardColumn<Row>[];
  rowKey: (row: Row) => Key;
  rowTestId: string;
  /** Below this width the table scrolls sideways (on a wide screen; a phone gets cards). */
  minWidth: number;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth} className={CARD_TABLE.scroll}>
      <Table className={CARD_TABLE.table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              <Table.Th key={i}>{column.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((column, i) => (
                <Table.Td key={i} data-label={column.actions ? undefined : column.label}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
