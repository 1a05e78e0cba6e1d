import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TextAreaFields } from './form-fields.tsx';

export function SharingTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <TextAreaFields
        required
        description={t('events.sharing.hint')}
        fields={[
          { name: 'sharing_body_template', label: t('events.sharing.photo') },
          { name: 'sharing_video_body_template', label: t('events.sharing.video') },
          { name: 'sharing_360_body_template', label: t('events.sharing.view360') },
        ]}
      />
    </Stack>
  );
}
