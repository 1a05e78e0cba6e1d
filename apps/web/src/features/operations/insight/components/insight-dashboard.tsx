import '@mantine/charts/styles.css';
import type { ReactNode } from 'react';
import { BarChart, LineChart } from '@mantine/charts';
import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Insight, InsightEventRow } from '@flashbulb/shared';
import { downloadText } from '../../../../lib/download-text.ts';
import {
  boothsTable,
  channelsTable,
  eventsTable,
  tableCsv,
  timelineTable,
  totalsFigures,
  totalsTable,
  type InsightTable,
} from '../utils/insight-tables.ts';

const LINES = [
  { name: 'photos', color: 'blue.6' },
  { name: 'views', color: 'teal.6' },
  { name: 'downloads', color: 'orange.6' },
  { name: 'shares', color: 'grape.6' },
  { name: 'prints', color: 'gray.6' },
] as const;

/** One table of the dashboard, rendered from the same cells its CSV holds. */
function DataTable({ table, label }: { table: InsightTable; label: string }) {
  return (
    <Table.ScrollContainer minWidth={table.header.length > 4 ? 640 : 0} type="native">
      <Table striped withTableBorder aria-label={label} data-testid={`insight-table-${table.id}`}>
        <Table.Thead>
          <Table.Tr>
            {table.header.map((cell) => (
              <Table.Th key={cell}>{cell}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((row, index) => (
            <Table.Tr key={index}>
              {row.map((cell, column) => (
                <Table.Td key={column}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A titled card with its CSV button (the card's table, exactly as shown). */
function Section({
  title,
  table,
  fileCode,
  children,
}: {
  title: string;
  table: InsightTable | null;
  fileCode: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4">
            {title}
          </Title>
          {table && (
            <Button
              size="compact-sm"
              variant="light"
              disabled={table.rows.length === 0}
              aria-label={t('insight.exportCsvNamed', { table: title })}
              onClick={() =>
                downloadText(
                  t('insight.csvFile', { code: fileCode, table: table.id }),
                  tableCsv(table),
                )
              }
            >
              {t('insight.exportCsv')}
            </Button>
          )}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * How an event (or an organisation's events) is doing: the totals as tiles, the timeline by the
 * event's local hour (or day) and its busiest hours as charts (`@mantine/charts`), the booths and
 * the shares by channel, and for an organisation one row per event. Every table has a CSV export
 * of what it shows. `insight` undefined: still loading.
 */
export function InsightDashboard({
  insight,
  events,
  fileCode,
  error,
}: {
  insight: Insight | undefined;
  events?: readonly InsightEventRow[];
  fileCode: string;
  error: string | null;
}) {
  const { t } = useTranslation();
  const label = (key: string) => t(`insight.label.${key}` as 'insight.label.photos');
  if (error) return <Alert color="red">{error}</Alert>;
  if (!insight)
    return (
      <Group justify="center" p="xl" data-testid="insight-loading">
        <Loader aria-label={t('insight.loading')} />
      </Group>
    );
  const totals = totalsTable(insight, label);
  const timeline = timelineTable(insight, label);
  const booths = boothsTable(insight, label);
  const channels = channelsTable(insight, label);
  const empty = Object.values(insight.totals).every((n) => n === 0);
  const busiest = insight.busiest_hours.map((h) => ({
    hour: String(h.hour).padStart(2, '0'),
    [label('total')]: h.total,
  }));

  return (
    <Stack gap="md" data-testid="insight-dashboard">
      {empty && (
        <Alert color="blue" data-testid="insight-empty">
          {t('insight.empty')}
        </Alert>
      )}
      <Section title={t('insight.tiles')} table={totals} fileCode={fileCode}>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
          {totalsFigures(insight, label).map(([name, value]) => (
            <Paper key={name} withBorder p="sm" radius="md" data-testid="insight-tile">
              <Text size="xs" c="dimmed" lh={1.3}>
                {name}
              </Text>
              <Text fw={700} size="xl" lh={1.3}>
                {value}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Section
        title={`${t('insight.timeline')} · ${t(
          insight.timeline_unit === 'hour' ? 'insight.timelineHour' : 'insight.timelineDay',
        )}`}
        table={timeline}
        fileCode={fileCode}
      >
        {timeline.rows.length === 0 ? (
          <Text c="dimmed">{t('insight.noneYet')}</Text>
        ) : (
          <>
            {insight.timeline.length < 3 ? (
              // One or two hours: bars read better than a line of lone dots.
              <BarChart
                h={240}
                data={insight.timeline}
                dataKey="at"
                series={LINES.map((line) => ({ ...line, label: label(line.name) }))}
                withLegend
                legendProps={{ verticalAlign: 'bottom' }}
                tickLine="y"
                yAxisProps={{ allowDecimals: false }}
              />
            ) : (
              <LineChart
                h={240}
                data={insight.timeline}
                dataKey="at"
                series={LINES.map((line) => ({ ...line, label: label(line.name) }))}
                curveType="monotone"
                withLegend
                legendProps={{ verticalAlign: 'bottom' }}
                tickLine="y"
                xAxisProps={{ minTickGap: 24 }}
                yAxisProps={{ allowDecimals: false }}
              />
            )}
            <ScrollArea.Autosize mah={260}>
              <DataTable table={timeline} label={t('insight.timeline')} />
            </ScrollArea.Autosize>
          </>
        )}
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section title={t('insight.busiest')} table={null} fileCode={fileCode}>
          <BarChart
            h={200}
            data={busiest}
            dataKey="hour"
            series={[{ name: label('total'), color: 'teal.6' }]}
            tickLine="y"
            xAxisProps={{ interval: 2 }}
            yAxisProps={{ allowDecimals: false }}
          />
        </Section>
        <Section title={t('insight.channels')} table={channels} fileCode={fileCode}>
          {channels.rows.length === 0 ? (
            <Text c="dimmed">{t('insight.noneYet')}</Text>
          ) : (
            <>
              <BarChart
                h={160}
                data={insight.shares_by_channel.map((c) => ({
                  channel: c.channel,
                  [label('shares')]: c.count,
                }))}
                dataKey="channel"
                series={[{ name: label('shares'), color: 'grape.6' }]}
                tickLine="y"
                yAxisProps={{ allowDecimals: false }}
              />
              <DataTable table={channels} label={t('insight.channels')} />
            </>
          )}
        </Section>
      </SimpleGrid>

      <Section title={t('insight.booths')} table={booths} fileCode={fileCode}>
        {booths.rows.length === 0 ? (
          <Text c="dimmed">{t('insight.noneYet')}</Text>
        ) : (
          <DataTable table={booths} label={t('insight.booths')} />
        )}
      </Section>

      {events && (
        <Section
          title={t('insight.events')}
          table={eventsTable(events, insight.currency, label)}
          fileCode={fileCode}
        >
          <DataTable
            table={eventsTable(events, insight.currency, label)}
            label={t('insight.events')}
          />
        </Section>
      )}
    </Stack>
  );
}
