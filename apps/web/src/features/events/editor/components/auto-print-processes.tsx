import { useQuery } from '@tanstack/react-query';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { autoPrintProcesses } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';

/**
 * What "print every photo" prints for the stored event: each photo as it is, or, when image
 * processes of the event print automatically, their variants instead (the server's auto-print
 * rule, so a photo never prints twice). Read from the stored event: a change shows after saving.
 */
export function AutoPrintProcesses({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const processes = useQuery({
    queryKey: ['auto-print-processes', eventId],
    queryFn: ({ signal }) => callApi(autoPrintProcesses, { event_id: eventId }, { signal }),
    select: (result) => result.image_processes,
  });
  if (processes.isPending) return null;
  if (processes.isError)
    return (
      <Text size="xs" c="red" role="alert">
        {errorText(errorKeyOf(processes.error))}
      </Text>
    );
  return (
    <Text size="xs" c="dimmed" data-testid="auto-print-processes">
      {processes.data.length === 0
        ? t('events.printing.autoPrintAsIs')
        : t('events.printing.autoPrintVariants', {
            names: processes.data.map((p) => p.name).join(', '),
          })}
    </Text>
  );
}
