import { Alert, Anchor, Group, Loader, Stack } from '@mantine/core';
import type { FlashbulbEvent } from '@flashbulb/shared';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../lib/api-client.ts';
import { useErrorText } from '../lib/error-text.ts';
import { useRouteEvent } from '../lib/event-by-code.ts';

/**
 * What a console page of one event (`/events/:code/…`) shows before it has its event: a loader,
 * or — unknown code, no permission, network trouble — the reason and the way back to the list.
 * `null` once the event is there.
 */
export function EventPageState({
  pending,
  error,
  backLabel,
  fallback,
}: {
  pending: boolean;
  error: unknown;
  backLabel: string;
  /** Shown when the event is missing without an error (e.g. no event with that code). */
  fallback: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  if (pending) {
    return (
      <Group justify="center" p="xl">
        <Loader aria-label={t('app.loading')} />
      </Group>
    );
  }
  return (
    <Stack>
      <Anchor component={Link} to="/events">
        <span aria-hidden="true">‹ </span>
        {backLabel}
      </Anchor>
      <Alert color="red" role="alert">
        {error ? errorText(errorKeyOf(error)) : fallback}
      </Alert>
    </Stack>
  );
}

/**
 * A console page of one event: `children(event)` once the feature's query has the event, else
 * what `EventPageState` shows (the loader, or the reason and the way back).
 */
export function EventPageGate({
  query,
  backLabel,
  fallback,
  children,
}: {
  query: { isPending: boolean; error: unknown; data?: FlashbulbEvent | undefined };
  backLabel: string;
  fallback: string;
  children: (event: FlashbulbEvent) => ReactNode;
}) {
  const event = query.data;
  if (query.isPending || !event)
    return (
      <EventPageState
        pending={query.isPending}
        error={query.error}
        backLabel={backLabel}
        fallback={fallback}
      />
    );
  return children(event);
}

/** The console screens of one event whose texts have `backToEvents` and `loadError`. */
export type EventScreenTexts =
  'attendees' | 'insight' | 'leads' | 'moderation' | 'orders' | 'outbox';

/**
 * A console page of the route's event (`/events/:eventCode/…`): `page` once `useRouteEvent` has
 * the event, else what `EventPageState` shows, in the screen's words (`<texts>.backToEvents`,
 * `<texts>.loadError`).
 */
export function RouteEventGate({
  texts,
  page: Page,
}: {
  texts: EventScreenTexts;
  page: ComponentType<{ event: FlashbulbEvent }>;
}) {
  const { t } = useTranslation();
  return (
    <EventPageGate
      query={useRouteEvent()}
      backLabel={t(`${texts}.backToEvents`)}
      fallback={t(`${texts}.loadError`)}
    >
      {(event) => <Page event={event} />}
    </EventPageGate>
  );
}
