import { Alert, Badge, Button, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PrivacyRequest } from '@flashbulb/shared';
import { usePrivacyLog } from '../api/privacy-log-api.ts';

const COUNTED = [
  'photos',
  'leads',
  'consents',
  'messages',
  'orders',
  'selfies',
  'profile_photos',
  'deleted_photos',
] as const;
const isCounted = (name: string): name is (typeof COUNTED)[number] =>
  (COUNTED as readonly string[]).includes(name);

/** "3 photos, 1 leads" from the counts an export or erasure recorded (zeros left out). */
const useCountsText = () => {
  const { t } = useTranslation();
  return (counts: PrivacyRequest['counts']) => {
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([name, n]) =>
        isCounted(name) ? t(`privacyLog.counts.${name}`, { count: n }) : `${name}: ${n}`,
      );
    return parts.length > 0 ? parts.join(', ') : t('privacyLog.nothing');
  };
};

/**
 * The privacy log, read-only: every attendee export and erasure (who, when, which attendee id,
 * how much). Super users see every organisation's, admins their own organisation's.
 */
export default function PrivacyLogPage() {
  const { t } = useTranslation();
  const log = usePrivacyLog();
  const countsText = useCountsText();
  const rows = log.data?.pages.flatMap((page) => page.requests) ?? [];
  return (
    <Stack gap="md">
      <Title order={2}>{t('privacyLog.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('privacyLog.hint')}
      </Text>
      {log.isPending && <Loader size="sm" />}
      {log.isError && <Alert color="red">{t('privacyLog.loadError')}</Alert>}
      {log.isSuccess && rows.length === 0 && <Text>{t('privacyLog.empty')}</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('privacyLog.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('privacyLog.columns.when')}</Table.Th>
                <Table.Th>{t('privacyLog.columns.action')}</Table.Th>
                <Table.Th>{t('privacyLog.columns.attendee')}</Table.Th>
                <Table.Th>{t('privacyLog.columns.who')}</Table.Th>
                <Table.Th>{t('privacyLog.columns.organisation')}</Table.Th>
                <Table.Th>{t('privacyLog.columns.result')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{new Date(row.created_date).toLocaleString()}</Table.Td>
                  <Table.Td>
                    <Badge color={row.action === 'erase' ? 'red' : 'blue'}>
                      {t(`privacyLog.actions.${row.action}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td ff="monospace">{row.attendee_uid}</Table.Td>
                  <Table.Td>{row.actor_email ?? t('privacyLog.unknownActor')}</Table.Td>
                  <Table.Td>{row.organisation_name}</Table.Td>
                  <Table.Td>{countsText(row.counts)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.hasNextPage && (
        <Button
          variant="default"
          loading={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
          w="fit-content"
        >
          {t('privacyLog.more')}
        </Button>
      )}
    </Stack>
  );
}
