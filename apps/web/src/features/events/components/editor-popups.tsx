import { Button, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmPopup, Popup } from '../../../components/popup.tsx';
import { useErrorText } from '../../../lib/error-text.ts';
import type { EventEditorState } from '../hooks/use-event-editor.ts';

/** The popups the editor shows over itself: save problems, confirms and the conflict question. */
export function EditorPopups({ editor }: { editor: EventEditorState }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { popup, closePopup } = editor;

  return (
    <>
      <Popup
        opened={popup?.kind === 'issues'}
        onClose={closePopup}
        title={t('events.editor.issuesTitle')}
        size="md"
        testId="issues-popup"
        footer={<Button onClick={closePopup}>{t('events.editor.ok')}</Button>}
      >
        <List>
          {(popup?.kind === 'issues' ? popup.keys : []).map((key) => (
            <List.Item key={key}>{errorText(key)}</List.Item>
          ))}
        </List>
      </Popup>
      <Popup
        opened={popup?.kind === 'error'}
        onClose={closePopup}
        title={t('events.editor.errorTitle')}
        size="sm"
        footer={<Button onClick={closePopup}>{t('events.editor.ok')}</Button>}
      >
        <Text role="alert">{popup?.kind === 'error' ? errorText(popup.key) : ''}</Text>
      </Popup>
      <ConfirmPopup
        opened={popup?.kind === 'conflict'}
        title={t('events.editor.conflictTitle')}
        confirmLabel={t('events.editor.reload')}
        cancelLabel={t('events.editor.keepEditing')}
        onConfirm={editor.reloadAfterConflict}
        onCancel={closePopup}
        size="md"
      >
        <Text>{errorText('event_was_updated_by_another_user')}</Text>
        <Text size="sm" c="dimmed">
          {t('events.editor.conflictHint')}
        </Text>
      </ConfirmPopup>
      <ConfirmPopup
        opened={popup?.kind === 'autoDelete'}
        title={t('events.editor.autoDeleteTitle')}
        confirmLabel={t('events.editor.autoDeleteConfirm')}
        onConfirm={() => void editor.confirmAutoDelete()}
        onCancel={closePopup}
        danger
      >
        <Text>
          {t('events.editor.auto_delete_photo_warn_massage', {
            days: editor.form.getValues('photo_auto_delete_days') ?? '',
          })}
        </Text>
      </ConfirmPopup>
      <ConfirmPopup
        opened={popup?.kind === 'unsaved'}
        title={t('events.editor.unsavedTitle')}
        confirmLabel={t('events.editor.discard')}
        cancelLabel={t('events.editor.keepEditing')}
        onConfirm={editor.discardChanges}
        onCancel={closePopup}
        danger
      >
        <Text>{t('events.editor.unsaved')}</Text>
      </ConfirmPopup>
      <ConfirmPopup
        opened={popup?.kind === 'delete'}
        title={t('events.editor.deleteTitle')}
        confirmLabel={t('events.editor.delete')}
        onConfirm={() => void editor.confirmDelete()}
        onCancel={closePopup}
        loading={editor.saving}
        danger
      >
        <Text>{t('events.editor.deleteQuestion', { name: editor.event?.full_name ?? '' })}</Text>
      </ConfirmPopup>
    </>
  );
}
