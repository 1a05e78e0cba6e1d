import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FlashbulbEvent } from '@flashbulb/shared';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventInsight } from '../api/insight-api.ts';
import { InsightDashboard } from './insight-dashboard.tsx';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

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
      <EventPageHeader
        backLabel={t('insight.backToEvents')}
        title={t('insight.eventTitle', { name: event.full_name })}
        subtitle={t('insight.privacy')}
      />
      <InsightDashboard
        insight={insight.data}
        fileCode={event.name}
        error={insight.isError ? errorText(errorKeyOf(insight.error)) : null}
      />
    </Stack>
  );
}
