import { Stack } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { defaultEventSettings } from '@flashbulb/shared';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { FlagCheckbox, TextAreaField } from './form-fields.tsx';

export function SmsTab() {
  const { t } = useTranslation();
  const { control, setValue, getValues } = useFormContext<EventFormValues>();
  const enabled = useWatch({ control, name: 'is_sms_enabled' }) === 1;
  return (
    <Stack gap="sm">
      <FlagCheckbox
        name="is_sms_enabled"
        label={t('events.sms.enabled')}
        onToggle={(on) => {
          // Off clears the text (owner-console §4); on offers the default text again.
          if (!on) setValue('sms_body_template', '', { shouldDirty: true });
          else if (!getValues('sms_body_template').trim())
            setValue('sms_body_template', defaultEventSettings().sms_body_template, {
              shouldDirty: true,
            });
        }}
      />
      <TextAreaField
        name="sms_body_template"
        label={t('events.sms.body')}
        description={t('events.sms.bodyHint')}
        disabled={!enabled}
      />
    </Stack>
  );
}
