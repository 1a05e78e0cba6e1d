import './card-table.css';

/**
 * Class names that turn a console table into cards on a phone (card-table.css): `scroll` on its
 * `Table.ScrollContainer` (no minimum width there), `table` on the `Table`; each cell carries
 * `data-label` with its column's name (actions cells none). `CardTable` (card-table-view.tsx)
 * builds such a table from a list of columns.
 */
export const CARD_TABLE = { scroll: 'card-table-scroll', table: 'card-table' } as const;
