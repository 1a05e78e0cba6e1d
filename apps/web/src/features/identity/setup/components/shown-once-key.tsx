import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A secret the server answers only once (robot key, API key): shown with a copy button. */
export function ShownOnceKey({ title, value }: { title: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={title} data-testid="shown-once">
      <Stack gap="xs">
        <Text size="sm">{t('setup.shownOnce')}</Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code data-testid="shown-once-key" style={{ wordBreak: 'break-all' }}>
            {value}
          </Code>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? t('setup.copied') : t('setup.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

export const formatDate = (iso: string | null, never: string): string =>
  iso ? new Date(iso).toLocaleString() : never;
