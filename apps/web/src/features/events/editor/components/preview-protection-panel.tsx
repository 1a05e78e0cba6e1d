import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { previewProtectionRestart, previewProtectionStatus } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';

/** How often the progress is asked for while the job works. */
export const PROTECTION_POLL_MS = 2000;

/**
 * A paid event's protected previews being made for its stored photos (after turning paid or a
 * new protector mark): "Protecting previews: 340 / 1,200" while the job works (asked again every
 * two seconds), then done, or how many are missing with "Try again".
 */
export function PreviewProtectionPanel({ eventId }: { eventId: number }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const key = ['events', eventId, 'preview-protection'];
  const status = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callApi(previewProtectionStatus, { event_id: eventId }, { signal }),
    refetchInterval: (query) =>
      query.state.data?.state === 'running' ? PROTECTION_POLL_MS : false,
  });
  const restart = useMutation({
    mutationFn: () => callApi(previewProtectionRestart, { event_id: eventId }),
    onSuccess: (data) => client.setQueryData(key, data),
  });
  if (status.isError) return <Text c="red">{errorText(errorKeyOf(status.error))}</Text>;
  const data = status.data;
  if (!data || data.state === 'off') return null;
  const number = new Intl.NumberFormat(i18n.language);
  const counts = { done: number.format(data.done), total: number.format(data.total) };
  const share = data.total > 0 ? (100 * data.done) / data.total : 100;
  return (
    <Stack gap={4} maw={420} aria-label={t('events.paid.protection.title')} component="section">
      <Text role="status" size="sm">
        {data.state === 'running'
          ? t('events.paid.protection.running', counts)
          : data.state === 'done'
            ? t('events.paid.protection.done', counts)
            : t('events.paid.protection.failed', counts)}
      </Text>
      {data.state !== 'done' && (
        <Progress
          value={share}
          color={data.state === 'failed' ? 'red' : undefined}
          aria-label={t('events.paid.protection.title')}
        />
      )}
      {data.state === 'failed' && (
        <Group>
          <Button
            size="xs"
            variant="light"
            loading={restart.isPending}
            onClick={() => restart.mutate()}
          >
            {t('events.paid.protection.retry')}
          </Button>
          {restart.isError && <Text c="red">{errorText(errorKeyOf(restart.error))}</Text>}
        </Group>
      )}
    </Stack>
  );
}
