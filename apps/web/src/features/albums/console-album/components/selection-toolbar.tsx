import { Button, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type SelectionAction =
  'hide' | 'show' | 'curated' | 'reprocess' | 'addToAttendee' | 'removeFromAttendee' | 'print';

/** What can be done to the selected photos: hide, show, mark curated, make derivatives again, add to or remove from an attendee album, delete (with a reason). */
export function SelectionToolbar({
  count,
  busy,
  onHide,
  onShow,
  onCurate,
  onReprocess,
  onDelete,
  onAddToAttendee,
  onRemoveFromAttendee,
  onPrint,
  onClear,
}: {
  count: number;
  busy: boolean;
  onHide: () => void;
  onShow: () => void;
  onCurate: () => void;
  onReprocess: () => void;
  onDelete: () => void;
  onAddToAttendee: () => void;
  onRemoveFromAttendee: () => void;
  /** Present when the event prints (`is_photo_printer_active`). */
  onPrint?: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  if (count === 0) return null;
  const actions: [SelectionAction, () => void][] = [
    ['hide', onHide],
    ['show', onShow],
    ['curated', onCurate],
    ['reprocess', onReprocess],
    ['addToAttendee', onAddToAttendee],
    ['removeFromAttendee', onRemoveFromAttendee],
    ...(onPrint ? [['print', onPrint] as [SelectionAction, () => void]] : []),
  ];
  return (
    <Paper
      withBorder
      p="xs"
      role="toolbar"
      aria-label={t('album.selection.label')}
      bg="indigo.0"
      pos="sticky"
      top={60}
      style={{ zIndex: 5 }}
    >
      <Group gap="sm" wrap="wrap">
        <Text fw={600} size="sm" aria-live="polite">
          {t('album.selection.count', { count })}
        </Text>
        {actions.map(([key, onClick]) => (
          <Button key={key} size="xs" variant="default" onClick={onClick} disabled={busy}>
            {t(`album.selection.${key}`)}
          </Button>
        ))}
        <Button size="xs" color="red" variant="light" onClick={onDelete} disabled={busy}>
          {t('album.selection.delete')}
        </Button>
        <Button size="xs" variant="subtle" onClick={onClear}>
          {t('album.selection.clear')}
        </Button>
      </Group>
    </Paper>
  );
}
