import { Card, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Stands in for the event list until that feature is built. */
export function EventsPlaceholder() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="events-title">
      <Title order={2} size="h4" id="events-title" mb="xs">
        {t('console.events.title')}
      </Title>
      <Text c="dimmed">{t('console.events.placeholder')}</Text>
    </Card>
  );
}
