import { useState, type ReactNode } from 'react';
import {
  Checkbox,
  MultiSelect,
  NumberInput,
  Select,
  Textarea,
  TextInput,
  type CheckboxProps,
  type NumberInputProps,
  type TextareaProps,
  type TextInputProps,
} from '@mantine/core';
import {
  useController,
  useFormContext,
  type FieldPath,
  type FieldPathByValue,
  type UseControllerReturn,
} from 'react-hook-form';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';

/**
 * Inputs bound to the event form by path. Each shows the error key set on its path (by the save
 * checks or the server) as text, and clears it as soon as the user changes the value.
 */
type Values = EventFormValues;

/**
 * The error set on a path, as text, and how to clear it once the user changes the value: for
 * every input below and for those that write their path themselves.
 */
export const usePathError = (name: FieldPath<Values>) => {
  const { getFieldState, formState, clearErrors } = useFormContext<Values>();
  const errorText = useErrorText();
  const message = getFieldState(name, formState).error?.message;
  // On a path that holds an object (a stock image's policy), the type allows nested errors too.
  const errorKey = typeof message === 'string' ? message : undefined;
  return {
    text: errorKey ? errorText(errorKey) : undefined,
    clear: () => {
      if (errorKey) clearErrors(name);
    },
  };
};

const useBoundField = <P extends FieldPathByValue<Values, unknown>>(name: P) => {
  const { control } = useFormContext<Values>();
  const controller = useController({ name, control });
  const error = usePathError(name);
  const change = (value: UseControllerReturn<Values, P>['field']['value']) => {
    controller.field.onChange(value);
    error.clear();
  };
  return {
    field: { value: controller.field.value, onBlur: controller.field.onBlur },
    change,
    error: error.text,
  };
};

type TextProps = Omit<TextInputProps, 'name' | 'value' | 'onChange' | 'error'> & {
  name: FieldPathByValue<Values, string>;
  /** A problem found while typing (shown when the form has none on this path). */
  liveError?: string | null | undefined;
};

export function TextField({ name, liveError, ...props }: TextProps) {
  const { field, change, error } = useBoundField(name);
  return (
    <TextInput
      {...props}
      name={name}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(e) => change(e.currentTarget.value)}
      error={error ?? liveError ?? undefined}
    />
  );
}

type NullableTextProps = Omit<TextInputProps, 'name' | 'value' | 'onChange' | 'error'> & {
  name: FieldPathByValue<Values, string | null>;
};

/** A text for a nullable setting (image sources): shown empty while null. */
export function NullableTextField({ name, ...props }: NullableTextProps) {
  const { field, change, error } = useBoundField(name);
  return (
    <TextInput
      {...props}
      name={name}
      value={field.value ?? ''}
      onBlur={field.onBlur}
      onChange={(e) => change(e.currentTarget.value)}
      error={error}
    />
  );
}

type AreaProps = Omit<TextareaProps, 'name' | 'value' | 'onChange' | 'error'> & {
  name: FieldPathByValue<Values, string>;
};

export function TextAreaField({ name, ...props }: AreaProps) {
  const { field, change, error } = useBoundField(name);
  return (
    <Textarea
      autosize
      minRows={3}
      maxRows={12}
      {...props}
      name={name}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(e) => change(e.currentTarget.value)}
      error={error}
    />
  );
}

/**
 * Several texts of one kind (message templates, printed lines), one text area each, alike but
 * for path, label and hint; `props` are the same for all of them.
 */
export function TextAreaFields({
  fields,
  ...props
}: Omit<AreaProps, 'name' | 'label'> & {
  fields: readonly { name: AreaProps['name']; label: string; description?: string }[];
}) {
  return fields.map((field) => <TextAreaField key={field.name} {...props} {...field} />);
}

type NumberProps = Omit<NumberInputProps, 'name' | 'value' | 'onChange' | 'error'>;

/** A required number: an emptied input is NaN, which the rules refuse with the field's key. */
export function NumberField({
  name,
  ...props
}: NumberProps & { name: FieldPathByValue<Values, number> }) {
  const { field, change, error } = useBoundField(name);
  return (
    <NumberInput
      allowDecimal={false}
      // Out-of-range values stay as typed so the rules refuse them with the field marked
      // (copies 25 was silently clamped to 20).
      clampBehavior="none"
      {...props}
      name={name}
      value={Number.isNaN(field.value) ? '' : field.value}
      onBlur={field.onBlur}
      onChange={(v) => change(typeof v === 'number' ? v : NaN)}
      error={error}
    />
  );
}

/** An optional number: empty means null (off / not set). */
export function NullableNumberField({
  name,
  ...props
}: NumberProps & { name: FieldPathByValue<Values, number | null> }) {
  const { field, change, error } = useBoundField(name);
  return (
    <NumberInput
      allowDecimal={false}
      // Out-of-range values stay as typed so the rules refuse them with the field marked
      // (copies 25 was silently clamped to 20).
      clampBehavior="none"
      {...props}
      name={name}
      value={field.value === null || Number.isNaN(field.value) ? '' : field.value}
      onBlur={field.onBlur}
      onChange={(v) => change(typeof v === 'number' ? v : null)}
      error={error}
    />
  );
}

type CheckProps = Omit<CheckboxProps, 'name' | 'checked' | 'onChange' | 'error'> & {
  /** Runs after the value changed, e.g. to clear or fill the fields the box controls. */
  onToggle?: (checked: boolean) => void;
};

/** A 0/1 flag as a checkbox; `inverted` for settings such as is_free (ticked = paid). */
export function FlagCheckbox({
  name,
  inverted = false,
  onToggle,
  ...props
}: CheckProps & { name: FieldPathByValue<Values, 0 | 1>; inverted?: boolean }) {
  const { field, change, error } = useBoundField(name);
  const checked = inverted ? field.value === 0 : field.value === 1;
  return (
    <Checkbox
      {...props}
      name={name}
      checked={checked}
      onChange={(e) => {
        const on = e.currentTarget.checked;
        change(on !== inverted ? 1 : 0);
        onToggle?.(on);
      }}
      error={error}
    />
  );
}

export function BoolCheckbox({
  name,
  onToggle,
  ...props
}: CheckProps & { name: FieldPathByValue<Values, boolean> }) {
  const { field, change } = useBoundField(name);
  return (
    <Checkbox
      {...props}
      name={name}
      checked={field.value}
      onChange={(e) => {
        change(e.currentTarget.checked);
        onToggle?.(e.currentTarget.checked);
      }}
    />
  );
}

export const joinList = (values: readonly string[] | null): string => (values ?? []).join(', ');
export const splitListInput = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * A list of names typed comma-separated. Keeps the typed text (a trailing comma, spaces) while the
 * parsed list is unchanged, so typing is never rewritten under the cursor.
 */
export function ListField({
  name,
  ...props
}: Omit<TextInputProps, 'name' | 'value' | 'onChange' | 'error'> & {
  name: FieldPathByValue<Values, string[] | null>;
}) {
  const { field, change, error } = useBoundField(name);
  const list = field.value ?? [];
  const [text, setText] = useState(() => joinList(list));
  // A change from outside (a reset, a default filled in) replaces the text; typing keeps it.
  const [listSeen, setListSeen] = useState(list);
  if (!sameList(listSeen, list)) {
    setListSeen(list);
    if (!sameList(splitListInput(text), list)) setText(joinList(list));
  }
  return (
    <TextInput
      {...props}
      name={name}
      value={text}
      onBlur={field.onBlur}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const parsed = splitListInput(next);
        if (!sameList(parsed, list)) change(parsed);
      }}
      error={error}
    />
  );
}

export interface Option<T> {
  readonly value: T;
  readonly label: string;
}

/** Ids chosen from a list (robots, image processes, print templates). */
export function IdMultiSelect({
  name,
  options,
  label,
  description,
  disabled,
  placeholder,
}: {
  name: FieldPathByValue<Values, number[]>;
  options: readonly Option<number>[];
  label: string;
  description?: ReactNode;
  disabled?: boolean;
  placeholder?: string;
}) {
  const { field, change, error } = useBoundField(name);
  return (
    <MultiSelect
      name={name}
      label={label}
      description={description}
      disabled={disabled}
      placeholder={placeholder}
      searchable
      clearable
      data={options.map((o) => ({ value: String(o.value), label: o.label }))}
      value={field.value.map(String)}
      onChange={(values) => change(values.map(Number))}
      error={error}
      comboboxProps={{ zIndex: 400 }}
    />
  );
}

/** One id from a list, or none. */
export function IdSelect({
  name,
  options,
  label,
  disabled,
  placeholder,
}: {
  name: FieldPathByValue<Values, number | null>;
  options: readonly Option<number>[];
  label: string;
  disabled?: boolean;
  placeholder?: string;
}) {
  const { field, change, error } = useBoundField(name);
  return (
    <Select
      name={name}
      label={label}
      disabled={disabled}
      placeholder={placeholder}
      clearable
      data={options.map((o) => ({ value: String(o.value), label: o.label }))}
      value={field.value === null ? null : String(field.value)}
      onChange={(value) => change(value === null ? null : Number(value))}
      error={error}
      comboboxProps={{ zIndex: 400 }}
    />
  );
}
