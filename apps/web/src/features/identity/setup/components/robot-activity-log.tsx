import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import type { Robot } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { CardTable } from '../../../../components/card-table-view.tsx';
import { useRobotActivity, type RobotActivityFilters } from '../api/setup-api.ts';

const TYPE_COLOURS = { info: 'gray', warning: 'yellow', error: 'red' } as const;

/** `2026-05-01T10:00` (a datetime-local field, the browser's zone) ↔ an ISO instant. */
const toInstant = (local: string): string | undefined => {
  const time = Date.parse(local);
  return local && !Number.isNaN(time) ? new Date(time).toISOString() : undefined;
};
const toLocalField = (iso: string | null): string => {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const idParam = (value: string | null): number | undefined =>
  value && /^\d{1,12}$/.test(value) ? Number(value) : undefined;

/**
 * What robots did: the photos they uploaded and the activities their booths reported, newest
 * first, filtered by robot, event and time (kept in the address: `?robot=`, `?event=`, `?from=`,
 * `?to=`, so the event editor links to its event's log), 50 at a time.
 */
export function RobotActivityLog({ robots }: { robots: Robot[] }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params, setParams] = useSearchParams();
  const filters: RobotActivityFilters = {
    robot_id: idParam(params.get('robot')),
    event_id: idParam(params.get('event')),
    from: toInstant(toLocalField(params.get('from'))),
    to: toInstant(toLocalField(params.get('to'))),
  };
  const activity = useRobotActivity(
    Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
  );
  const entries = activity.data?.pages.flatMap((page) => page.entries) ?? [];
  // Linked as `#activity` (the robot rows, the event editor): the log comes into view.
  const { hash } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (hash === '#activity') heading.current?.scrollIntoView?.({ block: 'start' });
  }, [hash]);

  const setParam = (name: string, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  // Events to pick: those robots feed now, and the one in the address.
  const events = new Map<number, string>();
  for (const robot of robots)
    if (robot.event_id !== null)
      events.set(robot.event_id, robot.event_name ?? `#${robot.event_id}`);
  if (filters.event_id !== undefined && !events.has(filters.event_id))
    events.set(filters.event_id, entries[0]?.event_name ?? `#${filters.event_id}`);

  return (
    <Stack gap="sm" data-testid="robot-activity">
      <Title order={3} id="activity" ref={heading}>
        {t('setup.robots.activity.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('setup.robots.activity.intro')}
      </Text>
      <Card withBorder>
        <Group align="flex-end" wrap="wrap">
          <Select
            label={t('setup.robots.activity.robot')}
            placeholder={t('setup.robots.activity.allRobots')}
            clearable
            data={robots.map((robot) => ({ value: String(robot.id), label: robot.name }))}
            value={filters.robot_id === undefined ? null : String(filters.robot_id)}
            onChange={(value) => setParam('robot', value ?? undefined)}
            style={{ flex: '1 1 160px' }}
          />
          <Select
            label={t('setup.robots.activity.event')}
            placeholder={t('setup.robots.activity.allEvents')}
            clearable
            data={[...events].map(([id, name]) => ({ value: String(id), label: name }))}
            value={filters.event_id === undefined ? null : String(filters.event_id)}
            onChange={(value) => setParam('event', value ?? undefined)}
            style={{ flex: '1 1 160px' }}
          />
          <TextInput
            type="datetime-local"
            label={t('setup.robots.activity.from')}
            value={toLocalField(params.get('from'))}
            onChange={(e) => setParam('from', toInstant(e.currentTarget.value))}
            style={{ flex: '1 1 180px' }}
          />
          <TextInput
            type="datetime-local"
            label={t('setup.robots.activity.to')}
            value={toLocalField(params.get('to'))}
            onChange={(e) => setParam('to', toInstant(e.currentTarget.value))}
            style={{ flex: '1 1 180px' }}
          />
        </Group>
      </Card>
      {activity.error && <Alert color="red">{errorText(errorKeyOf(activity.error))}</Alert>}
      {activity.data && entries.length === 0 && (
        <Text data-testid="robot-activity-empty">{t('setup.robots.activity.none')}</Text>
      )}
      {entries.length > 0 && (
        <CardTable
          minWidth={560}
          rows={entries}
          rowKey={(entry) => `${entry.kind}-${entry.id}`}
          rowTestId="robot-activity-row"
          columns={[
            {
              label: t('setup.robots.activity.when'),
              cell: (entry) => new Date(entry.at).toLocaleString(),
            },
            {
              label: t('setup.robots.activity.robot'),
              cell: (entry) => entry.robot_name ?? `#${entry.robot_id}`,
            },
            { label: t('setup.robots.activity.event'), cell: (entry) => entry.event_name },
            {
              label: t('setup.robots.activity.what'),
              cell: (entry) => (
                <Group gap={6} wrap="wrap">
                  <Badge
                    size="sm"
                    variant="light"
                    color={entry.kind === 'upload' ? 'blue' : TYPE_COLOURS[entry.type]}
                  >
                    {entry.kind === 'upload'
                      ? t('setup.robots.activity.upload')
                      : t(`setup.robots.activity.types.${entry.type}`)}
                  </Badge>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {entry.name}
                  </Text>
                </Group>
              ),
            },
          ]}
        />
      )}
      {activity.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void activity.fetchNextPage()}
          loading={activity.isFetchingNextPage}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('setup.robots.activity.more')}
        </Button>
      )}
    </Stack>
  );
}
