// Over ~350 lines on purpose: one screen, the print desk, whose Desk shares one event's queue,
// stations and busy state between its actions (reprint, cancel, station keys).
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Image,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { PrintJob } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  cancelJob,
  createStation,
  reprintJob,
  revokeStation,
  setPoolPaused,
  useDeskEvents,
  useDeskJobs,
  useDeskStations,
} from '../api/print-desk-api.ts';

const STATE_COLOURS: Record<PrintJob['state'], string> = {
  queued: 'gray',
  rendering: 'blue',
  sent: 'cyan',
  printing: 'indigo',
  printed: 'green',
  failed: 'red',
  cancelled: 'dark',
};
const CANCELLABLE: readonly PrintJob['state'][] = ['queued', 'rendering', 'sent'];
const REPRINTABLE: readonly PrintJob['state'][] = ['printed', 'failed', 'cancelled'];
/** Printer-state reasons that stop a printer (paper out, jam, offline). */
const TROUBLE = ['media-empty', 'media-jam', 'offline', 'door-open', 'paused'];

/**
 * The console print desk: per event, the queue per pool (refreshed every 2 s),
 * printer health from the print agents, pause/resume of a pool, cancel, reprint with a reason,
 * sheets printed per printer, and the print-station keys (created here, the key shown once).
 */
export default function PrintDeskPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const events = useDeskEvents();
  const code = params.get('event');
  const event = (events.data ?? []).find((e) => e.name === code) ?? null;
  const eventId = event?.id ?? null;

  return (
    <Stack gap="md">
      <Title order={2}>{t('printDesk.title')}</Title>
      <Select
        label={t('printDesk.event')}
        placeholder={t('printDesk.chooseEvent')}
        searchable
        maw={420}
        data={(events.data ?? []).map((e) => ({
          value: e.name,
          label: `${e.full_name} (${e.name})`,
        }))}
        value={event?.name ?? null}
        onChange={(value) => setParams(value ? { event: value } : {})}
      />
      {eventId !== null ? <Desk eventId={eventId} /> : null}
    </Stack>
  );
}

function Desk({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const jobs = useDeskJobs(eventId);
  const stations = useDeskStations(eventId);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [reprinting, setReprinting] = useState<PrintJob | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [newKey, setNewKey] = useState<string | null>(null);
  const [stationName, setStationName] = useState('');
  const [stationPool, setStationPool] = useState<string | null>(null);

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setErrorKey(null);
    try {
      await action();
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['print-desk', eventId] });
    }
  };

  const data = jobs.data;
  const pools = data?.pools ?? [];
  const stationRows = stations.data?.stations ?? [];
  const activeStations = stationRows.filter((s) => s.revoked === 0);

  return (
    <Stack gap="md">
      {errorKey ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => setErrorKey(null)}>
          {errorText(errorKey)}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {pools.map((pool) => {
          const poolJobs = (data?.jobs ?? []).filter((j) => j.printer_pool_name === pool.name);
          const waiting = poolJobs.filter((j) => CANCELLABLE.includes(j.state)).length;
          const printing = poolJobs.filter((j) => j.state === 'printing').length;
          const hasStation = activeStations.some((s) => s.printer_pool_name === pool.name);
          return (
            <Paper key={pool.name} withBorder p="sm" data-testid={`pool-${pool.name}`}>
              <Group justify="space-between">
                <Text fw={700}>{pool.name}</Text>
                {pool.paused ? (
                  <Badge color="orange">{t('printDesk.paused')}</Badge>
                ) : (
                  <Badge color="green">{t('printDesk.running')}</Badge>
                )}
              </Group>
              <Text size="sm" c="dimmed">
                {t('printDesk.poolSummary', {
                  waiting: String(waiting),
                  printing: String(printing),
                })}
              </Text>
              <Text size="xs" c="dimmed">
                {hasStation ? t('printDesk.printedByAgent') : t('printDesk.printedToFiles')}
              </Text>
              <Button
                mt="xs"
                size="xs"
                variant="default"
                loading={busy}
                onClick={() => void run(() => setPoolPaused(eventId, pool.name, !pool.paused))}
              >
                {pool.paused
                  ? t('printDesk.resume', { pool: pool.name })
                  : t('printDesk.pause', { pool: pool.name })}
              </Button>
            </Paper>
          );
        })}
      </SimpleGrid>

      <Paper withBorder p="sm">
        <Title order={4}>{t('printDesk.printers')}</Title>
        <Table aria-label={t('printDesk.printers')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('printDesk.station')}</Table.Th>
              <Table.Th>{t('printDesk.pool')}</Table.Th>
              <Table.Th>{t('printDesk.printer')}</Table.Th>
              <Table.Th>{t('printDesk.health')}</Table.Th>
              <Table.Th>{t('printDesk.lastSeen')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {activeStations.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={5}>
                  <Text size="sm" c="dimmed">
                    {t('printDesk.noAgents')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {activeStations.flatMap((s) =>
              (s.printers.length ? s.printers : [null]).map((p, i) => {
                const trouble = p ? p.reasons.filter((r) => TROUBLE.includes(r)) : [];
                const ok =
                  p !== null && p.state !== 'stopped' && p.state !== 'offline' && !trouble.length;
                return (
                  <Table.Tr key={`${s.id}-${i}`}>
                    <Table.Td>{s.name}</Table.Td>
                    <Table.Td>{s.printer_pool_name}</Table.Td>
                    <Table.Td>{p?.name ?? '—'}</Table.Td>
                    <Table.Td>
                      {p ? (
                        <Group gap={4}>
                          <Badge color={ok ? 'green' : 'red'}>{p.state}</Badge>
                          {p.reasons
                            .filter((r) => r !== 'none')
                            .map((r) => (
                              <Badge
                                key={r}
                                color={TROUBLE.includes(r) ? 'red' : 'yellow'}
                                variant="light"
                              >
                                {t(`printDesk.reasons.${r}`, { defaultValue: r })}
                              </Badge>
                            ))}
                        </Group>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t('printDesk.notSeen')}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {s.last_seen_date ? new Date(s.last_seen_date).toLocaleString() : '—'}
                    </Table.Td>
                  </Table.Tr>
                );
              }),
            )}
          </Table.Tbody>
        </Table>
        {data?.printed_per_printer.length ? (
          <Group gap="xs" mt="xs" data-testid="printed-per-printer">
            <Text size="sm" fw={600}>
              {t('printDesk.sheetsPrinted')}
            </Text>
            {data.printed_per_printer.map((p) => (
              <Badge key={p.printer} variant="outline">
                {p.printer}: {p.sheets}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Paper>

      <Paper withBorder p="sm">
        <Title order={4}>{t('printDesk.queue')}</Title>
        <Group gap="xs" my="xs">
          {Object.entries(data?.counts ?? {}).map(([state, n]) => (
            <Badge key={state} color={STATE_COLOURS[state as PrintJob['state']] ?? 'gray'}>
              {state}: {n}
            </Badge>
          ))}
        </Group>
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label={t('printDesk.queue')} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>{t('printDesk.pool')}</Table.Th>
                <Table.Th>{t('printDesk.photos')}</Table.Th>
                <Table.Th>{t('printDesk.copies')}</Table.Th>
                <Table.Th>{t('printDesk.state')}</Table.Th>
                <Table.Th>{t('printDesk.printer')}</Table.Th>
                <Table.Th>{t('printDesk.note')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(data?.jobs ?? []).length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={8}>
                    <Text size="sm" c="dimmed">
                      {t('printDesk.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : null}
              {(data?.jobs ?? []).map((job) => (
                <Table.Tr key={job.id} data-testid={`print-job-${job.id}`}>
                  <Table.Td>{job.id}</Table.Td>
                  <Table.Td>{job.printer_pool_name}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {job.photo_thumbnails.map((src, i) => (
                        <Image key={i} src={src} alt="" w={40} h={40} fit="cover" radius="xs" />
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>{job.copies}</Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOURS[job.state]} data-testid="job-state">
                      {job.state}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{job.printer ?? '—'}</Table.Td>
                  <Table.Td>
                    <Text size="xs">
                      {job.reprint_reason
                        ? t('printDesk.reprintOf', { reason: job.reprint_reason })
                        : (job.error ?? job.source)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {CANCELLABLE.includes(job.state) ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        loading={busy}
                        onClick={() => void run(() => cancelJob(eventId, job.id))}
                      >
                        {t('printDesk.cancel')}
                      </Button>
                    ) : null}
                    {REPRINTABLE.includes(job.state) ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() => {
                          setReason('');
                          setReprinting(job);
                        }}
                      >
                        {t('printDesk.reprint')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      <Paper withBorder p="sm">
        <Title order={4}>{t('printDesk.stations')}</Title>
        <Text size="sm" c="dimmed">
          {t('printDesk.stationsHint')}
        </Text>
        <Group align="flex-end" gap="xs" mt="xs">
          <Select
            label={t('printDesk.pool')}
            data={pools.map((p) => p.name)}
            value={stationPool}
            onChange={setStationPool}
            w={180}
          />
          <TextInput
            label={t('printDesk.stationName')}
            value={stationName}
            maxLength={80}
            onChange={(e) => setStationName(e.currentTarget.value)}
          />
          <Button
            disabled={!stationPool || stationName.trim() === ''}
            loading={busy}
            onClick={() =>
              void run(async () => {
                const created = await createStation(eventId, stationPool!, stationName.trim());
                setNewKey(created.key);
                setStationName('');
              })
            }
          >
            {t('printDesk.createStation')}
          </Button>
        </Group>
        {newKey ? (
          <Alert color="yellow" mt="xs" withCloseButton onClose={() => setNewKey(null)}>
            <Text size="sm">{t('printDesk.keyOnce')}</Text>
            <Code block data-testid="station-key">
              {newKey}
            </Code>
          </Alert>
        ) : null}
        <Table mt="xs" aria-label={t('printDesk.stations')}>
          <Table.Tbody>
            {stationRows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>{s.name}</Table.Td>
                <Table.Td>{s.printer_pool_name}</Table.Td>
                <Table.Td>
                  {s.revoked ? (
                    <Badge color="gray">{t('printDesk.revoked')}</Badge>
                  ) : (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => void run(() => revokeStation(eventId, s.id))}
                    >
                      {t('printDesk.revoke')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>

      <Modal
        opened={reprinting !== null}
        onClose={() => setReprinting(null)}
        title={t('printDesk.reprintTitle', { id: String(reprinting?.id ?? '') })}
      >
        <Stack gap="sm">
          <TextInput
            label={t('printDesk.reason')}
            value={reason}
            maxLength={200}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setReprinting(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              disabled={reason.trim() === ''}
              loading={busy}
              onClick={() => {
                const job = reprinting;
                setReprinting(null);
                if (job) void run(() => reprintJob(eventId, job.id, reason.trim()));
              }}
            >
              {t('printDesk.reprint')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
