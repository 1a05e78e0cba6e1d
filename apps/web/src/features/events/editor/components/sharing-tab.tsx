import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TextAreaField } from './form-fields.tsx';

export function SharingTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <TextAreaField
        name="sharing_body_template"
        label={t('events.sharing.photo')}
        description={t('events.sharing.hint')}
        required
      />
      <TextAreaField
        name="sharing_video_body_template"
        label={t('events.sharing.video')}
        description={t('events.sharing.hint')}
        required
      />
      <TextAreaField
        name="sharing_360_body_template"
        label={t('events.sharing.view360')}
        description={t('events.sharing.hint')}
        required
      />
    </Stack>
  );
}
