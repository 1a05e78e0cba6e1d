import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { IntegrityProblem, IntegrityReport } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  useBackups,
  useCreateBackup,
  useIntegrityCheck,
  useIntegrityRepair,
} from '../api/maintenance-api.ts';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Back up now (the server writes into its data folder), keeping the newest n. */
function BackupCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const create = useCreateBackup();
  const backups = useBackups();
  const [keep, setKeep] = useState<number | string>(7);
  const result = create.data;
  return (
    <Card withBorder aria-label={t('operations.backup.title')} component="section">
      <Stack gap="sm">
        <Title order={3}>{t('operations.backup.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('operations.backup.hint')}
        </Text>
        <Group align="end">
          <NumberInput
            label={t('operations.backup.keep')}
            min={1}
            max={1000}
            value={keep}
            onChange={setKeep}
            w={160}
          />
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
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
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
  const report: IntegrityReport | undefined = check.data;
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
      </Stack>
    </Card>
  );
}

/** Super users' Operations page: backups and the storage integrity check. */
export default function OperationsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={2}>{t('operations.title')}</Title>
      <BackupCard />
      <IntegrityCard />
    </Stack>
  );
}
