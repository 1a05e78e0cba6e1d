import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The centred card every signed-out page uses. */
export function AuthLayout({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Stack w="100%" maw={420} gap="lg">
        <Text ta="center" fw={700} size="xl" c="indigo.7">
          {t('app.name')}
        </Text>
        <Paper withBorder shadow="sm" radius="md" p="xl" component="main">
          <Stack gap="md">
            <Title order={1} size="h3">
              {title}
            </Title>
            {intro ? (
              <Text size="sm" c="dimmed">
                {intro}
              </Text>
            ) : null}
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}
