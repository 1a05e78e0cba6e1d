import { useState } from 'react';
import { Button, List, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { photoCountInfo } from '@flashbulb/shared';
import { useTranslation } from 'react-i18next';
import { ConfirmPopup, Popup } from '../../../../components/popup.tsx';
import { callApi } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { EventEditorState } from '../hooks/use-event-editor.ts';
import { tabOfField } from '../utils/editor-tabs.ts';
import { fieldLabelKey } from '../utils/field-labels.ts';

/**
 * Deleting an event: says how many photos go with it and waits for the event code to be
 * typed, so a wrong event is not deleted by a slipped click.
 */
function DeleteEventPopup({
  event,
  saving,
  onConfirm,
  onCancel,
}: {
  event: { id: number; name: string; full_name: string };
  saving: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const count = useQuery({
    queryKey: ['events', 'delete-photo-count', event.id] as const,
    queryFn: ({ signal }) => callApi(photoCountInfo, { event_id: event.id }, { signal }),
    gcTime: 0,
  });
  const matches = typed.trim().toUpperCase() === event.name.toUpperCase();
  return (
    <ConfirmPopup
      opened
      title={t('events.editor.deleteTitle')}
      confirmLabel={t('events.editor.delete')}
      onConfirm={onConfirm}
      onCancel={onCancel}
      loading={saving}
      confirmDisabled={!matches}
      danger
    >
      <Stack gap="sm">
        <Text>{t('events.editor.deleteQuestion', { name: event.full_name })}</Text>
        <Text fw={600} data-testid="delete-photo-count">
          {count.data
            ? t('events.editor.deletePhotos', { count: count.data.total })
            : t('events.editor.deletePhotosCounting')}
        </Text>
        <TextInput
          label={t('events.editor.deleteTypeCode', { code: event.name })}
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          autoComplete="off"
        />
      </Stack>
    </ConfirmPopup>
  );
}

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
        {/* Each problem names its field (its label, on its tab); a click goes to the field. */}
        <List spacing="xs">
          {(popup?.kind === 'issues' ? popup.issues : []).map(({ field, key }) => {
            const labelKey = fieldLabelKey(field);
            const tabName = t(`events.tabs.${tabOfField(field)}`);
            // A field without a label of its own (a row of a list) is named by its tab.
            const label = labelKey ? t(labelKey as 'events.general.title') : tabName;
            return (
              <List.Item key={field} data-testid="issue-item">
                <UnstyledButton
                  onClick={() => editor.goToField(field)}
                  style={{ textAlign: 'start' }}
                >
                  <Text span fw={600} td="underline">
                    {label}
                  </Text>
                  <Text span c="dimmed">
                    {labelKey ? ` (${tabName})` : ''}:{' '}
                  </Text>
                  <Text span>{errorText(key)}</Text>
                </UnstyledButton>
              </List.Item>
            );
          })}
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
      {popup?.kind === 'delete' && editor.event && (
        <DeleteEventPopup
          event={editor.event}
          saving={editor.saving}
          onConfirm={() => void editor.confirmDelete()}
          onCancel={closePopup}
        />
      )}
    </>
  );
}
