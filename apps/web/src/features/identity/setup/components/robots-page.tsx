import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Role, type User } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  useCreateRobot,
  useOrganisationChoice,
  useRegenerateRobotKey,
  useRobots,
} from '../api/setup-api.ts';
import { formatDate, ShownOnceKey } from './shown-once-key.tsx';
import { CardTable } from '../../../../components/card-table-view.tsx';
import { RobotActivityLog } from './robot-activity-log.tsx';

/** Robots of the organisations the user administers; a new robot's key is shown once. */
export function RobotsPage({ user }: { user: User }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const robots = useRobots();
  const create = useCreateRobot();
  const regenerate = useRegenerateRobotKey();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ name: string; key: string; renewed?: boolean } | null>(null);
  const canManage = (organisationId: number) =>
    user.role === Role.SUPER_USER ||
    (user.role === Role.ADMIN && user.organisation_id === organisationId);

  const { organisations, choices, organisationId, setPicked } = useOrganisationChoice(user);
  const orgName = (id: number) => organisations.data?.find((o) => o.id === id)?.name ?? String(id);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!organisationId) return;
    setShown(null);
    create.mutate(
      { organisation_id: Number(organisationId), name },
      {
        onSuccess: (robot) => {
          setShown({ name: robot.name, key: robot.api_key });
          setName('');
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Title order={2}>{t('setup.robots.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('setup.robots.intro')}
      </Text>
      {organisations.data && choices.length === 0 ? (
        <Alert color="blue" data-testid="robots-need-organisation">
          {t('setup.robots.needOrganisation')}
        </Alert>
      ) : (
        <Card withBorder component="form" onSubmit={submit}>
          <Group align="flex-end" wrap="wrap">
            {choices.length > 1 && (
              <Select
                label={t('setup.robots.organisation')}
                data={choices}
                value={organisationId}
                onChange={setPicked}
                allowDeselect={false}
                style={{ flex: '1 1 180px' }}
              />
            )}
            <TextInput
              label={t('setup.robots.newName')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={create.error ? errorText(errorKeyOf(create.error)) : undefined}
              style={{ flex: '1 1 180px' }}
            />
            <Button type="submit" loading={create.isPending} disabled={!organisationId}>
              {t('setup.robots.create')}
            </Button>
          </Group>
        </Card>
      )}
      {shown && (
        <ShownOnceKey title={t('setup.robots.keyFor', { name: shown.name })} value={shown.key} />
      )}
      {shown?.renewed && (
        <Text size="sm" c="dimmed">
          {t('setup.robots.regenerateNote', { name: shown.name })}
        </Text>
      )}
      {regenerate.error && <Alert color="red">{errorText(errorKeyOf(regenerate.error))}</Alert>}
      {robots.data?.length === 0 && <Text>{t('setup.robots.none')}</Text>}
      {robots.data && robots.data.length > 0 && (
        <CardTable
          minWidth={560}
          rows={robots.data}
          rowKey={(robot) => robot.id}
          rowTestId="robot-row"
          columns={[
            { label: t('setup.robots.name'), cell: (robot) => robot.name },
            {
              label: t('setup.robots.organisation'),
              cell: (robot) => orgName(robot.organisation_id),
            },
            {
              label: t('setup.robots.event'),
              cell: (robot) => robot.event_name ?? t('setup.robots.noEvent'),
            },
            {
              label: t('setup.robots.lastUpload'),
              cell: (robot) => (
                <>
                  <Text size="sm">{formatDate(robot.last_upload_date, t('setup.never'))}</Text>
                  {robot.upload_count > 0 && (
                    <Text size="xs" c="dimmed" data-testid="robot-upload-count">
                      {t('setup.robots.uploadCount', { count: robot.upload_count })}
                    </Text>
                  )}
                </>
              ),
            },
            {
              actions: true,
              cell: (robot) => (
                <Group gap="xs" wrap="wrap">
                  <Button
                    size="xs"
                    variant="subtle"
                    component={Link}
                    to={`/robots?robot=${robot.id}#activity`}
                  >
                    {t('setup.robots.activityOf')}
                  </Button>
                  {canManage(robot.organisation_id) && (
                    <Button
                      size="xs"
                      variant="default"
                      loading={regenerate.isPending && regenerate.variables === robot.id}
                      onClick={() =>
                        regenerate.mutate(robot.id, {
                          onSuccess: (renewed) =>
                            setShown({ name: renewed.name, key: renewed.api_key, renewed: true }),
                        })
                      }
                    >
                      {t('setup.robots.regenerate')}
                    </Button>
                  )}
                </Group>
              ),
            },
          ]}
        />
      )}
      {robots.data && <RobotActivityLog robots={robots.data} />}
    </Stack>
  );
}
