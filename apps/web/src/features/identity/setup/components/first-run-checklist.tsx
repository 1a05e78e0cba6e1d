import { useState } from 'react';
import { Anchor, Button, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Role, type User } from '@flashbulb/shared';
import { albumLink } from '../../../../lib/album-links.ts';
import { Icon } from '../../../../design/icons.tsx';
import { useOrganisations, usePhotoTotal, useRobots, useSetupEventList } from '../api/setup-api.ts';

const SHARED_FLAG = 'flashbulb.firstRun.albumLinkShared';

const readShared = (): boolean => {
  try {
    return window.localStorage.getItem(SHARED_FLAG) === '1';
  } catch {
    return false;
  }
};

/**
 * The first-run checklist on the Overview page: organisation → event → robot or upload → share the
 * album link. Each step is read from the server (the last one from this browser: the link was
 * copied or opened here); the card disappears once every step is done.
 */
export function FirstRunChecklist({ user }: { user: User }) {
  const { t } = useTranslation();
  const admin = user.role === Role.SUPER_USER || user.role === Role.ADMIN;
  const organisations = useOrganisations();
  const events = useSetupEventList();
  const robots = useRobots(admin);
  const firstEvent = events.data?.events[0] ?? null;
  const photos = usePhotoTotal(firstEvent?.id ?? null);
  const [shared, setShared] = useState(readShared);

  const loading =
    organisations.isPending || events.isPending || (admin && robots.isPending) || photos.isLoading;
  if (loading || organisations.isError || events.isError) return null;

  const markShared = () => {
    try {
      window.localStorage.setItem(SHARED_FLAG, '1');
    } catch {
      // Private mode: the step stays open for this visit only.
    }
    setShared(true);
  };
  const link = firstEvent ? albumLink(firstEvent.public_api_key, 'public') : null;

  const steps = [
    {
      id: 'organisation',
      done: (organisations.data?.length ?? 0) > 0,
      text: t('setup.checklist.organisation'),
      to: admin ? '/organisations' : null,
    },
    {
      id: 'event',
      done: (events.data?.events.length ?? 0) > 0,
      text: t('setup.checklist.event'),
      to: '/events',
    },
    {
      id: 'robot',
      done: (robots.data?.length ?? 0) > 0 || (photos.data ?? 0) > 0,
      text: t('setup.checklist.robot'),
      to: admin ? '/robots' : null,
    },
    { id: 'share', done: shared, text: t('setup.checklist.share'), to: null },
  ];
  if (steps.every((step) => step.done)) return null;

  return (
    <Card withBorder radius="md" component="section" data-testid="first-run-checklist">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('setup.checklist.title')}
        </Title>
        <List spacing="xs" listStyleType="none">
          {steps.map((step, index) => (
            <List.Item
              key={step.id}
              data-testid={`checklist-${step.id}`}
              data-done={step.done ? 'true' : 'false'}
              icon={
                <ThemeIcon size={22} radius="xl" color={step.done ? 'green' : 'gray'}>
                  {step.done ? (
                    <Icon name="check" size={14} />
                  ) : (
                    <Text size="xs" c="white">
                      {index + 1}
                    </Text>
                  )}
                </ThemeIcon>
              }
            >
              <Group gap="xs" wrap="wrap">
                <Text td={step.done ? 'line-through' : undefined}>{step.text}</Text>
                {!step.done && step.to && (
                  <Anchor component={Link} to={step.to} size="sm">
                    {t('setup.checklist.go')}
                  </Anchor>
                )}
                {step.id === 'share' && !step.done && link && (
                  <>
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => {
                        void navigator.clipboard.writeText(link).then(markShared, () => undefined);
                      }}
                    >
                      {t('setup.checklist.copyLink')}
                    </Button>
                    <Anchor
                      href={link}
                      target="_blank"
                      rel="noopener"
                      size="sm"
                      onClick={markShared}
                    >
                      {t('setup.checklist.openLink')}
                    </Anchor>
                  </>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Card>
  );
}
