import type { Insight, InsightEventRow } from '@flashbulb/shared';
import { formatMoney } from '@flashbulb/shared/rules/currency';
import { toCsv } from '../../../../lib/csv.ts';

/**
 * The dashboard's tables as plain data: the screen renders exactly these cells and the CSV export
 * writes exactly these cells (through `csvCell`, so a booth or event name that starts like a
 * formula stays text), so the file always matches what the operator sees.
 */
export interface InsightTable {
  /** Short id: the CSV file name's part and the table's test id. */
  readonly id: 'totals' | 'timeline' | 'booths' | 'channels' | 'events';
  readonly header: readonly string[];
  readonly rows: readonly (readonly (string | number)[])[];
}

type Labels = (key: string) => string;

/** The tiles' figures, in their order: [label key, value as shown]. */
export const totalsFigures = (
  insight: Pick<Insight, 'totals' | 'currency'>,
  label: Labels,
): [string, string][] => {
  const { totals, currency } = insight;
  const money = (minor: number) => formatMoney(minor, currency);
  return [
    [label('photos'), String(totals.photos)],
    [label('views'), String(totals.views)],
    [label('unique_visitors'), String(totals.unique_visitors)],
    [label('downloads'), String(totals.downloads)],
    [label('shares'), String(totals.shares)],
    [label('leads'), String(totals.leads)],
    [label('mails'), `${totals.mails_delivered} / ${totals.mails_bounced}`],
    [label('sms'), `${totals.sms_delivered} / ${totals.sms_bounced}`],
    [label('prints'), String(totals.prints)],
    [label('revenue'), money(totals.revenue)],
    [label('refunds'), money(totals.refunds)],
    [label('net_revenue'), money(totals.revenue - totals.refunds)],
    [label('face_searches'), String(totals.face_searches)],
  ];
};

export const totalsTable = (
  insight: Pick<Insight, 'totals' | 'currency'>,
  label: Labels,
): InsightTable => ({
  id: 'totals',
  header: [label('figure'), label('value')],
  rows: totalsFigures(insight, label),
});

const SERIES = [
  'photos',
  'views',
  'downloads',
  'shares',
  'leads',
  'prints',
  'face_searches',
] as const;

export const timelineTable = (
  insight: Pick<Insight, 'timeline' | 'timeline_unit'>,
  label: Labels,
) => ({
  id: 'timeline' as const,
  header: [label(insight.timeline_unit === 'hour' ? 'hour' : 'day'), ...SERIES.map(label)],
  rows: insight.timeline.map((point) => [point.at, ...SERIES.map((series) => point[series])]),
});

/**
 * The money of a booth or an event: paid orders (refunded ones included, as providers report
 * them), the refunds, and what was kept — net revenue is what an operator settles on.
 */
const MONEY_COLUMNS = ['revenue', 'refunds', 'net_revenue'] as const;
const moneyCells = (row: { revenue: number; refunds: number }, currency: string) => [
  formatMoney(row.revenue, currency),
  formatMoney(row.refunds, currency),
  formatMoney(row.revenue - row.refunds, currency),
];

export const boothsTable = (
  insight: Pick<Insight, 'booths' | 'currency'>,
  label: Labels,
): InsightTable => ({
  id: 'booths',
  header: [
    label('booth'),
    label('photos'),
    label('downloads'),
    label('shares'),
    label('prints'),
    ...MONEY_COLUMNS.map(label),
  ],
  rows: insight.booths.map((booth) => [
    booth.name ?? (booth.robot_id === null ? label('noBooth') : `#${booth.robot_id}`),
    booth.photos,
    booth.downloads,
    booth.shares,
    booth.prints,
    ...moneyCells(booth, insight.currency),
  ]),
});

export const channelsTable = (
  insight: Pick<Insight, 'shares_by_channel'>,
  label: Labels,
): InsightTable => ({
  id: 'channels',
  header: [label('channel'), label('shares')],
  rows: insight.shares_by_channel.map((row) => [row.channel, row.count]),
});

export const eventsTable = (
  events: readonly InsightEventRow[],
  currency: string,
  label: Labels,
): InsightTable => ({
  id: 'events',
  header: [
    label('event'),
    label('code'),
    label('photos'),
    label('views'),
    label('unique_visitors'),
    label('downloads'),
    label('shares'),
    label('leads'),
    label('prints'),
    ...MONEY_COLUMNS.map(label),
  ],
  rows: events.map((event) => [
    event.full_name,
    event.name,
    event.photos,
    event.views,
    event.unique_visitors,
    event.downloads,
    event.shares,
    event.leads,
    event.prints,
    ...moneyCells(event, currency),
  ]),
});

/** The CSV of a table: its header and rows, cell for cell. */
export const tableCsv = (table: InsightTable): string => toCsv([table.header, ...table.rows]);
