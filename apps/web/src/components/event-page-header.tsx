import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The head of a console page of one event (album, attendees, leads, moderation, orders, outbox,
 * insight): the way back to the events list above the page's title, a line under it, and the
 * page's own actions on the right (below on a phone).
 */
export function EventPageHeader({
  backLabel,
  title,
  subtitle,
  actions,
}: {
  /** Without it (a page that is not about one event) there is no way back to show. */
  backLabel?: string | undefined;
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <Stack gap={2}>
        {backLabel !== undefined && (
          <Anchor component={Link} to="/events" size="sm">
            <span aria-hidden="true">‹ </span>
            {backLabel}
          </Anchor>
        )}
        <Title order={2} size="h3">
          {title}
        </Title>
        {subtitle !== undefined && (
          <Text size="sm" c="dimmed">
            {subtitle}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}
