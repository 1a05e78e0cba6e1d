import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { User } from '@flashbulb/shared';

function Field({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text data-testid={testId}>{value}</Text>
    </Stack>
  );
}

export function MyInfoCard({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="my-info-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="my-info-title">
          {t('console.myInfo.title')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Field label={t('console.myInfo.email')} value={user.email} testId="my-info-email" />
          <Field
            label={t('console.myInfo.role')}
            value={t(`roles.${user.role}`)}
            testId="my-info-role"
          />
          <Field
            label={t('console.myInfo.organisation')}
            value={user.organisation_name ?? t('console.myInfo.noOrganisation')}
            testId="my-info-organisation"
          />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
