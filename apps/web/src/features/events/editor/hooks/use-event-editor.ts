import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SECURE_FIELDS, type FlashbulbEvent, type RuleIssue, type User } from '@flashbulb/shared';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import {
  eventQueryKeys,
  fetchSecureProps,
  removeEvent,
  saveEventUpdate,
  saveNewEvent,
} from '../api/events-api.ts';
import { tabOfField, type EditorTab } from '../utils/editor-tabs.ts';
import {
  copyOfValues,
  createBody,
  editorIssues,
  formValuesOf,
  settingsOfValues,
  updateBody,
  type EditorMode,
  type EventFormValues,
} from '../utils/event-form-values.ts';
import { useUnsavedChangesGuard } from './use-unsaved-changes-guard.ts';

/** The one popup the editor may show over itself at a time. */
export type EditorPopup =
  | { kind: 'issues'; issues: RuleIssue[] }
  | { kind: 'error'; key: string }
  | { kind: 'conflict' }
  | { kind: 'autoDelete' }
  | { kind: 'unsaved' }
  | { kind: 'delete' };

const isSecureField = (field: string): field is (typeof SECURE_FIELDS)[number] =>
  (SECURE_FIELDS as readonly string[]).includes(field);

/** A field path from a rule or the server, as the form's path. */
const formPathOf = (field: string): string => (isSecureField(field) ? `secure.${field}` : field);

export interface UseEventEditorOptions {
  readonly user: User;
  readonly onClose: () => void;
  /** A new event's values so far (typed in the new-event steps before "All settings"). */
  readonly initial?: EventFormValues;
}

/**
 * The event editor's state and actions (owner-console §2, §4): add / edit / copy, the save checks
 * and confirms, the server's answers, delete, the unsaved-changes guard and the saved state.
 */
export const useEventEditor = ({ user, onClose, initial }: UseEventEditorOptions) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<EditorMode>('add');
  const [event, setEvent] = useState<FlashbulbEvent | null>(null);
  const [tab, setTab] = useState<EditorTab>('general');
  const [popup, setPopup] = useState<EditorPopup | null>(null);
  const [saving, setSaving] = useState(false);
  const [revealingSecure, setRevealingSecure] = useState(false);
  // When the last save was stored; shown as "Saved at HH:MM" until the next edit.
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const form = useForm<EventFormValues>({
    defaultValues: initial ?? formValuesOf(null, user.organisation_id),
  });
  const dirty = form.formState.isDirty;
  useUnsavedChangesGuard(dirty);
  // The next edit takes the saved state away.
  useEffect(() => {
    const { subscribe } = form;
    return subscribe({ formState: { values: true }, callback: () => setSavedAt(null) });
  }, [form]);

  /** The stored event arrived (edit mode). */
  const load = useCallback(
    (loaded: FlashbulbEvent) => {
      setEvent(loaded);
      setMode('edit');
      form.reset(formValuesOf(loaded, loaded.organisation_id));
    },
    [form],
  );

  const closePopup = () => setPopup(null);

  const markIssues = (issues: RuleIssue[]) => {
    for (const issue of issues) {
      form.setError(formPathOf(issue.field) as Path<EventFormValues>, {
        type: 'rule',
        message: issue.key,
      });
    }
    const first = issues[0];
    if (first) setTab(tabOfField(first.field));
    setPopup({ kind: 'issues', issues: issues.map((i) => ({ ...i, field: formPathOf(i.field) })) });
  };

  /** A field named by the issues popup: its tab opens and the field gets the focus. */
  const [focusRequest, setFocusRequest] = useState<{ field: string; n: number } | null>(null);
  const goToField = (field: string) => {
    setPopup(null);
    setTab(tabOfField(field));
    setFocusRequest((last) => ({ field, n: (last?.n ?? 0) + 1 }));
  };

  const reloadList = () => queryClient.invalidateQueries({ queryKey: eventQueryKeys.list() });

  const submit = async () => {
    const values = form.getValues();
    setSaving(true);
    let saved: FlashbulbEvent;
    try {
      saved =
        mode === 'edit' && event
          ? await saveEventUpdate(updateBody(values, event))
          : await saveNewEvent(createBody(values));
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'event_was_updated_by_another_user') setPopup({ kind: 'conflict' });
      else if (isApiError(error) && error.type === 'field' && error.field)
        markIssues([{ field: error.field, key }]);
      else setPopup({ kind: 'error', key });
      return;
    } finally {
      setSaving(false);
    }
    void reloadList();
    const previousAddress = mode === 'edit' ? (event?.email_from_address ?? '') : '';
    if (
      saved.email_from_address &&
      saved.email_from_address !== previousAddress &&
      !saved.email_from_address_verified
    ) {
      notifications.show({
        id: 'from-address-verification',
        color: 'blue',
        title: t('events.editor.verificationSentTitle'),
        message: t('events.editor.verificationSent', { address: saved.email_from_address }),
        autoClose: 10_000,
      });
    }
    if (mode === 'edit') {
      // The reply is the stored event: the form starts again from it, no refetch and no pause.
      load(saved);
      setSavedAt(new Date());
    } else {
      notifications.show({
        color: 'green',
        message: t('events.editor.created', { name: saved.full_name }),
      });
      onClose();
    }
  };

  /** Save: the shared rules first, then the auto-delete confirm, then the call. */
  const save = async () => {
    if (saving) return;
    form.clearErrors();
    const values = form.getValues();
    const issues = editorIssues(values);
    if (user.role === 1 && values.organisation_id === null && mode !== 'edit')
      issues.unshift({ field: 'organisation_id', key: 'organisation_required' });
    if (issues.length > 0) {
      markIssues(issues);
      return;
    }
    const days = settingsOfValues(values).photo_auto_delete_days;
    if (days !== null && (mode !== 'edit' || days !== event?.photo_auto_delete_days)) {
      setPopup({ kind: 'autoDelete' });
      return;
    }
    await submit();
  };

  const confirmAutoDelete = async () => {
    setPopup(null);
    await submit();
  };

  /** Duplicate: the edit becomes a create of a copy (owner-console §2). */
  const copy = () => {
    const values = copyOfValues(form.getValues());
    setMode('copy');
    form.setValue('full_name', values.full_name, { shouldDirty: true });
    form.setValue('robot_id_array', [], { shouldDirty: true });
    setTab('general');
  };

  const confirmDelete = async () => {
    if (!event) return;
    setSaving(true);
    try {
      await removeEvent(event.id);
    } catch (error) {
      setPopup({ kind: 'error', key: errorKeyOf(error) });
      return;
    } finally {
      setSaving(false);
    }
    setPopup(null);
    void reloadList();
    notifications.show({
      color: 'green',
      message: t('events.editor.deleted', { name: event.full_name }),
    });
    onClose();
  };

  /** Conflict answered with Reload: the list reloads, the editor closes, changes are dropped. */
  const reloadAfterConflict = () => {
    setPopup(null);
    void reloadList();
    onClose();
  };

  const requestClose = () => {
    if (form.formState.isDirty) setPopup({ kind: 'unsaved' });
    else onClose();
  };

  const revealSecure = useCallback(async () => {
    if (!event) return;
    setRevealingSecure(true);
    try {
      const values = await fetchSecureProps(event.name);
      for (const field of SECURE_FIELDS) form.setValue(`secure.${field}`, values[field]);
    } catch (error) {
      setPopup({ kind: 'error', key: errorKeyOf(error) });
    } finally {
      setRevealingSecure(false);
    }
  }, [event, form]);

  return {
    form,
    mode,
    event,
    tab,
    setTab,
    popup,
    closePopup,
    saving,
    savedAt,
    goToField,
    focusRequest,
    load,
    save,
    confirmAutoDelete,
    copy,
    askDelete: () => setPopup({ kind: 'delete' }),
    confirmDelete,
    reloadAfterConflict,
    requestClose,
    dirty,
    discardChanges: onClose,
    revealSecure,
    revealingSecure,
  };
};

export type EventEditorState = ReturnType<typeof useEventEditor>;
