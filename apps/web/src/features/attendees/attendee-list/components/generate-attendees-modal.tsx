import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NumberInput,
  Progress,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { generateAttendeeList, type Attendee } from '@flashbulb/shared';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { errorKeyOf, isAbortError, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { generateAttendees, readNewestAttendees } from '../api/attendees-api.ts';
import { attendeesCsv } from '../utils/attendee-csv.ts';
import { downloadText } from '../utils/download-text.ts';

const contract = generateAttendeeList.body.shape;

/**
 * The form mirrors the generate call's fields (their rules come from the contract), so the
 * server's field errors land on their inputs.
 */
const formSchema = z.object({
  attendee_count: contract.attendee_count,
  is_prepaid: z.boolean(),
  expiration_minutes: contract.expiration_minutes,
  email: contract.email,
  url_prefix: contract.url_prefix,
  partial_unlock_tag: contract.partial_unlock_tag,
});
type FormInput = z.input<typeof formSchema>;
type FormValues = z.output<typeof formSchema>;
type FieldName = keyof FormInput;

const FIELDS: readonly FieldName[] = [
  'attendee_count',
  'is_prepaid',
  'expiration_minutes',
  'email',
  'url_prefix',
  'partial_unlock_tag',
];
const isFieldName = (field: string | undefined): field is FieldName =>
  FIELDS.includes(field as FieldName);

const defaultValues: FormInput = {
  attendee_count: undefined as unknown as number,
  is_prepaid: false,
  expiration_minutes: undefined,
  email: '',
  url_prefix: '',
  partial_unlock_tag: '',
};

/** Mantine's NumberInput answers '' (or a partial string) for an empty or unfinished number. */
const numberOrUndefined = (value: number | string): number | undefined =>
  typeof value === 'number' ? value : undefined;

interface Generated {
  readonly count: number;
  readonly attendees: Attendee[];
}

/**
 * Generate attendee ids for this event (owner-console §5: 1 to 1,000,000), then offer the ids as a
 * CSV: from the answer when it holds them all, otherwise read back from the list page by page.
 */
export function GenerateAttendeesModal({
  opened,
  eventId,
  eventCode,
  onClose,
  onGenerated,
}: {
  opened: boolean;
  eventId: number;
  eventCode: string;
  onClose: () => void;
  onGenerated: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [failure, setFailure] = useState<string | null>(null);
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [reading, setReading] = useState<{ done: number } | null>(null);
  const [readFailed, setReadFailed] = useState(false);
  const {
    control,
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues,
  });
  const busy = isSubmitting || reading !== null;
  const fieldError = (name: FieldName) => {
    const key = errors[name]?.message;
    return key ? errorText(key) : undefined;
  };

  const close = () => {
    if (busy) return;
    reset(defaultValues);
    setFailure(null);
    setGenerated(null);
    setReadFailed(false);
    onClose();
  };

  const submit = async (values: FormValues) => {
    setFailure(null);
    try {
      const result = await generateAttendees({
        attendee_count: values.attendee_count,
        event_id_array: [eventId],
        is_prepaid: values.is_prepaid ? 1 : 0,
        ...(values.expiration_minutes != null
          ? { expiration_minutes: values.expiration_minutes }
          : {}),
        ...(values.email ? { email: values.email } : {}),
        ...(values.url_prefix ? { url_prefix: values.url_prefix } : {}),
        ...(values.partial_unlock_tag ? { partial_unlock_tag: values.partial_unlock_tag } : {}),
      });
      setGenerated({ count: result.count, attendees: result.attendees });
      onGenerated();
    } catch (error) {
      const key = errorKeyOf(error);
      if (isApiError(error) && isFieldName(error.field))
        setError(error.field, { type: 'server', message: key });
      else setFailure(key);
    }
  };

  const download = async () => {
    if (!generated) return;
    setReadFailed(false);
    let attendees = generated.attendees;
    if (attendees.length < generated.count) {
      setReading({ done: 0 });
      try {
        attendees = await readNewestAttendees(eventId, generated.count, (done) =>
          setReading({ done }),
        );
      } catch (error) {
        if (!isAbortError(error)) setReadFailed(true);
        return;
      } finally {
        setReading(null);
      }
    }
    const csv = attendeesCsv(attendees, {
      uid: t('attendees.csv.uid'),
      privateId: t('attendees.csv.privateId'),
      albumLink: t('attendees.csv.albumLink'),
    });
    downloadText(`attendees-${eventCode}-${attendees.length}.csv`, csv);
  };

  const count = useWatch({ control, name: 'attendee_count' });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('attendees.generate.title')}
      centered
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
    >
      {generated ? (
        <Stack gap="sm">
          <Alert color="green" role="status">
            {t('attendees.generate.done', { count: generated.count })}
          </Alert>
          {reading && (
            <Stack gap={4}>
              <Text size="sm" aria-live="polite">
                {t('attendees.generate.downloading', {
                  done: reading.done,
                  total: generated.count,
                })}
              </Text>
              <Progress
                value={(reading.done / Math.max(1, generated.count)) * 100}
                aria-label={t('attendees.generate.downloadProgress')}
                animated
              />
            </Stack>
          )}
          {readFailed && (
            <Alert color="red" role="alert">
              {t('attendees.generate.downloadError')}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('attendees.generate.close')}
            </Button>
            <Button onClick={() => void download()} loading={reading !== null}>
              {t('attendees.generate.download')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form noValidate onSubmit={handleSubmit(submit)} aria-label={t('attendees.generate.title')}>
          <Stack gap="sm">
            <Text size="sm">{t('attendees.generate.intro')}</Text>
            <FormAlert errorKey={failure} />
            <Controller
              control={control}
              name="attendee_count"
              render={({ field }) => (
                <NumberInput
                  label={t('attendees.generate.count')}
                  description={t('attendees.generate.countHint')}
                  required
                  allowDecimal={false}
                  hideControls
                  value={field.value ?? ''}
                  onChange={(value) => field.onChange(numberOrUndefined(value))}
                  onBlur={field.onBlur}
                  name={field.name}
                  ref={field.ref}
                  error={fieldError('attendee_count')}
                  disabled={isSubmitting}
                  data-autofocus
                />
              )}
            />
            <Checkbox
              label={t('attendees.generate.prepaid')}
              disabled={isSubmitting}
              error={fieldError('is_prepaid')}
              {...register('is_prepaid')}
            />
            <Controller
              control={control}
              name="expiration_minutes"
              render={({ field }) => (
                <NumberInput
                  label={t('attendees.generate.expiration')}
                  description={t('attendees.generate.expirationHint')}
                  allowDecimal={false}
                  hideControls
                  value={field.value ?? ''}
                  onChange={(value) => field.onChange(numberOrUndefined(value))}
                  onBlur={field.onBlur}
                  name={field.name}
                  ref={field.ref}
                  error={fieldError('expiration_minutes')}
                  disabled={isSubmitting}
                />
              )}
            />
            <TextInput
              label={t('attendees.generate.email')}
              description={t('attendees.generate.emailHint')}
              type="email"
              error={fieldError('email')}
              disabled={isSubmitting}
              {...register('email')}
            />
            <TextInput
              label={t('attendees.generate.urlPrefix')}
              description={t('attendees.generate.urlPrefixHint')}
              error={fieldError('url_prefix')}
              disabled={isSubmitting}
              {...register('url_prefix')}
            />
            <TextInput
              label={t('attendees.generate.partialUnlockTag')}
              description={t('attendees.generate.partialUnlockTagHint')}
              error={fieldError('partial_unlock_tag')}
              disabled={isSubmitting}
              {...register('partial_unlock_tag')}
            />
            {isSubmitting && (
              <Group gap="xs" role="status" aria-live="polite">
                <Loader size="sm" />
                <Text size="sm">{t('attendees.generate.working', { count: count ?? 0 })}</Text>
              </Group>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={isSubmitting}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={isSubmitting}>
                {t('attendees.generate.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
