import { Button, Checkbox, Group, Image, PasswordInput, Stack, Text } from '@mantine/core';
import { useFormContext, useWatch, type FieldPathByValue } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { SecureField } from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEditorContext } from '../hooks/editor-context.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { BoolCheckbox, NullableNumberField, NullableTextField } from './form-fields.tsx';
import type { FieldImageRoot } from '../api/field-image-upload.ts';
import { ImageUploadButton } from './image-upload-button.tsx';

type Values = EventFormValues;

/**
 * A number behind a checkbox (owner-console §4): the input is disabled until the box is ticked,
 * and unticking sets the number to null.
 */
export function ToggledNumber({
  toggle,
  name,
  checkboxLabel,
  label,
  min,
  max,
}: {
  toggle: FieldPathByValue<Values, boolean>;
  name: FieldPathByValue<Values, number | null>;
  checkboxLabel: string;
  label: string;
  min?: number;
  max?: number;
}) {
  const { setValue, control } = useFormContext<Values>();
  const on = useWatch({ control, name: toggle });
  return (
    <Stack gap={4}>
      <BoolCheckbox
        name={toggle}
        label={checkboxLabel}
        onToggle={(checked) => {
          if (!checked) setValue(name, null, { shouldDirty: true });
        }}
      />
      <NullableNumberField name={name} label={label} min={min} max={max} disabled={!on} />
    </Stack>
  );
}

/**
 * An image setting behind a checkbox (owner-console §4): ticking fills the default image and
 * enables the area, unticking clears the value and disables it.
 */
export function ImageToggle({
  name,
  checkboxLabel,
  label,
  defaultImage,
  disabled = false,
  description,
  uploadRoot,
}: {
  name: FieldPathByValue<Values, string | null>;
  checkboxLabel: string;
  label: string;
  defaultImage: string;
  disabled?: boolean;
  description?: string;
  /** Where an uploaded image goes (albums spec §7.1); without it the field is typed only. */
  uploadRoot?: FieldImageRoot;
}) {
  const { t } = useTranslation();
  const { setValue, control } = useFormContext<Values>();
  const value = useWatch({ control, name });
  const on = value !== null;
  return (
    <Stack gap={4}>
      <Checkbox
        label={checkboxLabel}
        checked={on}
        disabled={disabled}
        onChange={(e) =>
          setValue(name, e.currentTarget.checked ? defaultImage : null, { shouldDirty: true })
        }
      />
      <Group align="flex-end" wrap="nowrap">
        <NullableTextField
          name={name}
          label={label}
          description={description}
          disabled={!on || disabled}
          style={{ flex: 1, minWidth: 0 }}
        />
        {uploadRoot ? (
          <ImageUploadButton
            root={uploadRoot}
            label={label}
            disabled={!on || disabled}
            onUploaded={(url) => setValue(name, url, { shouldDirty: true })}
          />
        ) : null}
        {on && value ? (
          <Image
            src={value}
            alt={t('events.editor.preview', { label })}
            h={48}
            w="auto"
            maw={96}
            fit="contain"
          />
        ) : null}
      </Group>
    </Stack>
  );
}

/**
 * A secure setting (owner-console §3): a password input, never filled from the normal read;
 * "set" tells that a value is stored. Sent only when something is typed.
 */
export function SecureInput({ field, label }: { field: SecureField; label: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { event, isAdmin, revealSecure, revealingSecure } = useEditorContext();
  const {
    register,
    formState: { errors },
  } = useFormContext<Values>();
  if (!isAdmin) return null;
  const stored = event?.secure_fields_set.includes(field) ?? false;
  const errorKey = errors.secure?.[field]?.message;
  return (
    <Group align="flex-end" wrap="nowrap">
      <PasswordInput
        label={label}
        description={stored ? t('events.secure.isSet') : t('events.secure.notSet')}
        placeholder={stored ? t('events.secure.keepPlaceholder') : undefined}
        autoComplete="off"
        error={errorKey ? errorText(errorKey) : undefined}
        style={{ flex: 1 }}
        {...register(`secure.${field}`)}
      />
      {stored ? (
        <Button variant="default" onClick={revealSecure} loading={revealingSecure}>
          {t('events.secure.reveal')}
        </Button>
      ) : null}
    </Group>
  );
}

/** A short heading inside a tab. */
export function SectionTitle({ children }: { children: string }) {
  return (
    <Text fw={600} size="sm" mt="sm">
      {children}
    </Text>
  );
}
