import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type {
  BackupSchedule,
  BackupScheduleState,
  IntegrityProblem,
  IntegrityReport,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  useBackups,
  useBackupSchedule,
  useCreateBackup,
  useIntegrityCheck,
  useIntegrityRepair,
  useIntegrityReports,
  useRestoreBackup,
  useSetBackupSchedule,
} from '../api/maintenance-api.ts';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** How many backups to keep: the same bounds for a backup now and for the schedule. */
function KeepInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number | string;
  onChange: (value: number | string) => void;
}) {
  return <NumberInput label={label} min={1} max={1000} value={value} onChange={onChange} w={160} />;
}

/** Back up now (the server writes into its data folder), keeping the newest n. */
function BackupCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const create = useCreateBackup();
  const backups = useBackups();
  const restore = useRestoreBackup();
  const [keep, setKeep] = useState<number | string>(7);
  const [confirming, setConfirming] = useState<string | null>(null);
  const result = create.data;
  return (
    <Card withBorder aria-label={t('operations.backup.title')} component="section">
      <Stack gap="sm">
        <Title order={3}>{t('operations.backup.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('operations.backup.hint')}
        </Text>
        <Group align="end">
          <KeepInput label={t('operations.backup.keep')} value={keep} onChange={setKeep} />
          <Button
            loading={create.isPending}
            onClick={() => create.mutate(typeof keep === 'number' ? keep : undefined)}
          >
            {t('operations.backup.run')}
          </Button>
        </Group>
        {create.isError && <Alert color="red">{errorText(errorKeyOf(create.error))}</Alert>}
        {result && (
          <Alert color="green" data-testid="backup-result">
            <Text size="sm">
              {t('operations.backup.done', {
                path: result.path,
                rows: result.rows,
                objects: result.objects,
                size: megabytes(result.bytes),
                seconds: (result.duration_ms / 1000).toFixed(1),
              })}
            </Text>
            {result.removed.length > 0 && (
              <Text size="sm">
                {t('operations.backup.removed', { list: result.removed.join(', ') })}
              </Text>
            )}
          </Alert>
        )}
        {confirming && (
          <Alert color="red">{t('operations.backup.restoreWarning', { path: confirming })}</Alert>
        )}
        {restore.isError && <Alert color="red">{errorText(errorKeyOf(restore.error))}</Alert>}
        {restore.data && (
          <Alert color="green" data-testid="restore-result">
            {t('operations.backup.restored', {
              rows: restore.data.rows,
              objects: restore.data.objects,
              seconds: (restore.data.duration_ms / 1000).toFixed(1),
            })}
          </Alert>
        )}
        {backups.isError && <Alert color="red">{t('operations.backup.loadError')}</Alert>}
        {backups.data?.backups.length === 0 && (
          <Text size="sm">{t('operations.backup.none', { folder: backups.data.folder })}</Text>
        )}
        {backups.data && backups.data.backups.length > 0 && (
          <Table aria-label={t('operations.backup.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('operations.backup.columns.created')}</Table.Th>
                <Table.Th>{t('operations.backup.columns.size')}</Table.Th>
                <Table.Th>{t('operations.backup.columns.duration')}</Table.Th>
                <Table.Th>{t('operations.backup.columns.contents')}</Table.Th>
                <Table.Th>{t('operations.backup.columns.path')}</Table.Th>
                <Table.Th>{t('operations.backup.columns.restore')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {backups.data.backups.map((backup) => (
                <Table.Tr key={backup.path}>
                  <Table.Td>{new Date(backup.created_date).toLocaleString()}</Table.Td>
                  <Table.Td>{megabytes(backup.bytes)}</Table.Td>
                  <Table.Td>{(backup.duration_ms / 1000).toFixed(1)} s</Table.Td>
                  <Table.Td>
                    {t('operations.backup.contents', {
                      rows: backup.rows,
                      objects: backup.objects,
                    })}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{backup.path}</Table.Td>
                  <Table.Td>
                    {confirming === backup.path ? (
                      <Group gap="xs">
                        <Button
                          size="xs"
                          color="red"
                          loading={restore.isPending}
                          onClick={() =>
                            restore.mutate(backup.path, { onSettled: () => setConfirming(null) })
                          }
                        >
                          {t('operations.backup.restoreConfirm')}
                        </Button>
                        <Button size="xs" variant="default" onClick={() => setConfirming(null)}>
                          {t('operations.backup.restoreCancel')}
                        </Button>
                      </Group>
                    ) : (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        disabled={restore.isPending}
                        onClick={() => setConfirming(backup.path)}
                      >
                        {t('operations.backup.restore')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

const megabytesOrDash = (bytes: number | null) => (bytes === null ? '—' : megabytes(bytes));

/** The schedule form: off, daily at HH:MM (UTC), every N hours; and how many backups to keep. */
function ScheduleForm({ state }: { state: BackupScheduleState }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const save = useSetBackupSchedule();
  const [kind, setKind] = useState<BackupSchedule['kind']>(state.schedule.kind);
  const [time, setTime] = useState(state.schedule.kind === 'daily' ? state.schedule.at : '03:00');
  const [hours, setHours] = useState<number | string>(
    state.schedule.kind === 'hours' ? state.schedule.every : 24,
  );
  const [keep, setKeep] = useState<number | string>(state.keep);
  const schedule: BackupSchedule =
    kind === 'off'
      ? { kind }
      : kind === 'daily'
        ? { kind, at: time }
        : { kind, every: typeof hours === 'number' ? hours : Number(hours) };
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t('operations.schedule.kind')}
        value={kind}
        onChange={(value) => setKind(value === 'daily' || value === 'hours' ? value : 'off')}
        data={[
          { value: 'off', label: t('operations.schedule.off') },
          { value: 'daily', label: t('operations.schedule.daily') },
          { value: 'hours', label: t('operations.schedule.hours') },
        ]}
      />
      <Group align="end">
        {kind === 'daily' && (
          <TextInput
            label={t('operations.schedule.at')}
            value={time}
            onChange={(event) => setTime(event.currentTarget.value)}
            placeholder="03:00"
            w={160}
          />
        )}
        {kind === 'hours' && (
          <NumberInput
            label={t('operations.schedule.every')}
            min={1}
            max={168}
            value={hours}
            onChange={setHours}
            w={160}
          />
        )}
        <KeepInput label={t('operations.schedule.keep')} value={keep} onChange={setKeep} />
        <Button
          loading={save.isPending}
          onClick={() =>
            save.mutate({ schedule, keep: typeof keep === 'number' ? keep : Number(keep) })
          }
        >
          {t('operations.schedule.save')}
        </Button>
      </Group>
      {save.isError && <Alert color="red">{errorText(errorKeyOf(save.error))}</Alert>}
      {save.isSuccess && <Text size="sm">{t('operations.schedule.saved')}</Text>}
    </Stack>
  );
}

/** Scheduled backups: the last one, the next run, the schedule and retention (editable). */
function ScheduleCard() {
  const { t } = useTranslation();
  const state = useBackupSchedule();
  const last = state.data?.last_run ?? null;
  return (
    <Card withBorder aria-label={t('operations.schedule.title')} component="section">
      <Stack gap="sm">
        <Title order={3}>{t('operations.schedule.title')}</Title>
        {state.isError && <Alert color="red">{t('operations.schedule.loadError')}</Alert>}
        {state.data && (
          <>
            <Text size="sm" data-testid="last-backup">
              {last
                ? t(`operations.schedule.last.${last.result}`, {
                    date: new Date(last.started_date).toLocaleString(),
                    size: megabytesOrDash(last.bytes),
                    seconds: ((last.duration_ms ?? 0) / 1000).toFixed(1),
                    trigger: t(`operations.schedule.trigger.${last.trigger}`),
                    error: last.error ?? '',
                  })
                : t('operations.schedule.last.none')}
            </Text>
            <Text size="sm" data-testid="next-backup">
              {state.data.next_run_date
                ? t('operations.schedule.next', {
                    date: new Date(state.data.next_run_date).toLocaleString(),
                  })
                : t('operations.schedule.nextOff')}
            </Text>
            <ScheduleForm state={state.data} />
          </>
        )}
      </Stack>
    </Card>
  );
}

function ProblemRow({
  problem,
  onRepaired,
}: {
  problem: IntegrityProblem;
  onRepaired: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const repair = useIntegrityRepair();
  return (
    <Table.Tr>
      <Table.Td>
        <Badge color={problem.problem === 'untracked' ? 'yellow' : 'red'}>
          {t(`operations.integrity.problems.${problem.problem}`)}
        </Badge>
      </Table.Td>
      <Table.Td style={{ wordBreak: 'break-all' }}>{problem.key}</Table.Td>
      <Table.Td>{problem.owner ? `${problem.owner} #${problem.owner_id}` : '—'}</Table.Td>
      <Table.Td>
        <Group gap="xs">
          {problem.actions.length === 0 && (
            <Text size="xs" c="dimmed">
              {t('operations.integrity.noAction')}
            </Text>
          )}
          {problem.actions.map((action) => (
            <Button
              key={action}
              size="xs"
              variant="light"
              color={action === 'delete' ? 'red' : undefined}
              loading={repair.isPending && repair.variables.action === action}
              onClick={() => repair.mutate({ key: problem.key, action }, { onSuccess: onRepaired })}
            >
              {t(`operations.integrity.actions.${action}`)}
            </Button>
          ))}
        </Group>
        {repair.isError && (
          <Text size="xs" c="red">
            {errorText(errorKeyOf(repair.error))}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Run the check and act on what it finds; the list is read again after each action. */
function IntegrityCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const check = useIntegrityCheck();
  const kept = useIntegrityReports();
  const report: IntegrityReport | undefined = check.data ?? kept.data?.latest ?? undefined;
  return (
    <Card withBorder aria-label={t('operations.integrity.title')} component="section">
      <Stack gap="sm">
        <Title order={3}>{t('operations.integrity.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('operations.integrity.hint')}
        </Text>
        <Group>
          <Button loading={check.isPending} onClick={() => check.mutate()}>
            {t('operations.integrity.run')}
          </Button>
        </Group>
        {check.isError && <Alert color="red">{errorText(errorKeyOf(check.error))}</Alert>}
        {report && (
          <Text size="sm" data-testid="integrity-summary">
            {t('operations.integrity.summary', {
              objects: report.objects_in_storage,
              named: report.objects_named,
              verified: report.checksums_verified,
              missing: report.missing,
              untracked: report.untracked,
              mismatch: report.checksum_mismatch,
            })}
          </Text>
        )}
        {report && (
          <Text size="xs" c="dimmed">
            {t('operations.integrity.checkedAt', {
              date: new Date(report.checked_date).toLocaleString(),
            })}
          </Text>
        )}
        {report && report.problems.length === 0 && (
          <Alert color="green">{t('operations.integrity.clean')}</Alert>
        )}
        {report && report.problems.length > 0 && (
          <Table aria-label={t('operations.integrity.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('operations.integrity.columns.problem')}</Table.Th>
                <Table.Th>{t('operations.integrity.columns.key')}</Table.Th>
                <Table.Th>{t('operations.integrity.columns.owner')}</Table.Th>
                <Table.Th>{t('operations.integrity.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.problems.map((problem) => (
                <ProblemRow
                  key={`${problem.problem}:${problem.key}`}
                  problem={problem}
                  onRepaired={() => check.mutate()}
                />
              ))}
            </Table.Tbody>
          </Table>
        )}
        {kept.data && kept.data.reports.length > 0 && (
          <Table aria-label={t('operations.integrity.reportsLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('operations.integrity.reportColumns.checked')}</Table.Th>
                <Table.Th>{t('operations.integrity.reportColumns.trigger')}</Table.Th>
                <Table.Th>{t('operations.integrity.problems.missing')}</Table.Th>
                <Table.Th>{t('operations.integrity.problems.untracked')}</Table.Th>
                <Table.Th>{t('operations.integrity.problems.checksum_mismatch')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {kept.data.reports.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{new Date(row.checked_date).toLocaleString()}</Table.Td>
                  <Table.Td>{t(`operations.integrity.trigger.${row.trigger}`)}</Table.Td>
                  <Table.Td>{row.missing}</Table.Td>
                  <Table.Td>{row.untracked}</Table.Td>
                  <Table.Td>{row.checksum_mismatch}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

/** Super users' Operations page: backups (now, scheduled, restore) and the storage integrity check. */
export default function OperationsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={2}>{t('operations.title')}</Title>
      <ScheduleCard />
      <BackupCard />
      <IntegrityCard />
    </Stack>
  );
}
