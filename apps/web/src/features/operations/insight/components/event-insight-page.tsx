import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FlashbulbEvent } from '@flashbulb/shared';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventInsight } from '../api/insight-api.ts';
import { InsightDashboard } from './insight-dashboard.tsx';

/** The Insight page of one event (`/events/:code/insight`): how the event is doing. */
export default function EventInsightPage() {
  return <RouteEventGate texts="insight" page={EventInsight} />;
}

function EventInsight({ event }: { event: FlashbulbEvent }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const insight = useEventInsight(event.id);
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2}>{t('insight.eventTitle', { name: event.full_name })}</Title>
        <Anchor component={Link} to="/events">
          {t('insight.backToEvents')}
        </Anchor>
      </Group>
      <Text size="sm" c="dimmed">
        {t('insight.privacy')}
      </Text>
      <InsightDashboard
        insight={insight.data}
        fileCode={event.name}
        error={insight.isError ? errorText(errorKeyOf(insight.error)) : null}
      />
    </Stack>
  );
}
