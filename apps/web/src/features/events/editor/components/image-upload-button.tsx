import { useState, type ReactNode } from 'react';
import { Button, FileButton, Stack, Text, type MantineSize } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  refusedFieldImageExtension,
  uploadFieldImage,
  type FieldImageRoot,
} from '../api/field-image-upload.ts';
import { useEditorContext } from '../hooks/editor-context.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';

/**
 * Uploads a jpg, jpeg or png for an image setting into the organisation's share area and fills
 * the field with its URL. Needs the stored event (its code names the folder); any other type is
 * refused before anything is sent, with the spec's message.
 */
export function ImageUploadButton({
  root,
  label,
  disabled = false,
  onUploaded,
}: {
  root: FieldImageRoot;
  /** What the button uploads, for its accessible name (e.g. "Upload Logo"). */
  label: string;
  disabled?: boolean;
  onUploaded: (url: string) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event, isSuper, uploadFolder } = useEditorContext();
  const { control } = useFormContext<EventFormValues>();
  const organisationId = useWatch({ control, name: 'organisation_id' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const folder = event?.name ?? uploadFolder;
  if (!folder) return null;

  const upload = async (file: File | null) => {
    if (!file) return;
    setError(null);
    const refused = refusedFieldImageExtension(file.name);
    if (refused !== null) {
      setError(t('events.upload.notAllowed', { ext: refused }));
      return;
    }
    setBusy(true);
    try {
      const url = await uploadFieldImage(file, {
        root,
        eventCode: folder,
        // Super users upload into the event's organisation; others have only their own.
        ...(isSuper && organisationId !== null ? { organisationId } : {}),
      });
      onUploaded(url);
    } catch (failure) {
      setError(errorText(errorKeyOf(failure)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FilePickButton
      accept="image/jpeg,image/png"
      label={t('events.upload.uploadOf', { label })}
      size="xs"
      busy={busy}
      disabled={disabled}
      error={error}
      onFile={(file) => void upload(file)}
    >
      {t('events.upload.upload')}
    </FilePickButton>
  );
}

/** A light button that picks one file, with what went wrong under it. */
export function FilePickButton({
  accept,
  label,
  size,
  busy,
  disabled,
  error,
  onFile,
  children,
}: {
  accept: string;
  /** The accessible name of the file input. */
  label: string;
  size: MantineSize | 'compact-xs';
  busy: boolean;
  disabled: boolean;
  error: string | null;
  onFile: (file: File | null) => void;
  children: ReactNode;
}) {
  return (
    <Stack gap={2}>
      <FileButton
        onChange={onFile}
        accept={accept}
        inputProps={{ 'aria-label': label }}
        disabled={disabled}
      >
        {(props) => (
          <Button {...props} size={size} variant="light" loading={busy} disabled={disabled}>
            {children}
          </Button>
        )}
      </FileButton>
      <ActionError text={error} />
    </Stack>
  );
}

/** What went wrong with the action just above, in small red text. */
export function ActionError({ text }: { text: string | null }) {
  return text ? (
    <Text c="red" size="xs" role="alert">
      {text}
    </Text>
  ) : null;
}
