import { useState } from 'react';
import { Button, Group, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { deleteFaceData, faceDataInfo } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';

/**
 * The event's face data for its owner: indexing progress, faces, selfies and what
 * was deleted, and "delete all face data" (asks once more; turns face recognition off).
 */
export function FaceDataPanel({ eventId }: { eventId: number }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const key = ['events', eventId, 'face-data'];
  const info = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => callApi(faceDataInfo, { event_id: eventId }, { signal }),
  });
  const remove = useMutation({
    mutationFn: () => callApi(deleteFaceData, { event_id: eventId }),
    onSuccess: () => {
      setAsking(false);
      void client.invalidateQueries({ queryKey: key });
    },
  });
  if (info.isError) return <Text c="red">{errorText(errorKeyOf(info.error))}</Text>;
  if (!info.data) return <Text c="dimmed">{t('events.faces.loading')}</Text>;
  const data = info.data;
  const rows: [string, string | number][] = [
    [t('events.faces.indexed'), `${data.indexed_photos} / ${data.photos}`],
    [t('events.faces.faces'), data.faces],
    [t('events.faces.ignored'), data.ignored_faces],
    [t('events.faces.selfies'), data.selfies],
    [t('events.faces.deletedFaces'), data.deleted_faces],
    [t('events.faces.deletedSelfies'), data.deleted_selfies],
  ];
  return (
    <section aria-label={t('events.faces.title')}>
      <Table withRowBorders={false} verticalSpacing={2} maw={420}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Td>{label}</Table.Td>
              <Table.Td ta="right">{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {remove.isError && <Text c="red">{errorText(errorKeyOf(remove.error))}</Text>}
      {remove.data && (
        <Text role="status">
          {t('events.faces.deleted', {
            faces: remove.data.deleted_faces,
            selfies: remove.data.deleted_selfies,
          })}
        </Text>
      )}
      {asking ? (
        <Group mt="xs">
          <Text>{t('events.faces.confirm')}</Text>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
            {t('events.faces.confirmDelete')}
          </Button>
          <Button variant="default" onClick={() => setAsking(false)}>
            {t('events.faces.keep')}
          </Button>
        </Group>
      ) : (
        <Button mt="xs" variant="light" color="red" onClick={() => setAsking(true)}>
          {t('events.faces.deleteAll')}
        </Button>
      )}
    </section>
  );
}
