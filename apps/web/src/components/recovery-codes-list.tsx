import { Button, Code, CopyButton, Group, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { downloadText } from '../lib/download-text.ts';

/** The file a user keeps: one code a line, under a line saying what they are. */
export const recoveryCodesFileText = (header: string, codes: readonly string[]) =>
  `${header}\n\n${codes.join('\n')}\n`;

/**
 * Two-factor recovery codes as the server made them, shown once: a grid of codes, copy all and a
 * download as a .txt file. Used at sign-in set-up and when a signed-in user makes a new set.
 */
export function RecoveryCodesList({ codes }: { readonly codes: readonly string[] }) {
  const { t } = useTranslation();
  const text = recoveryCodesFileText(t('recoveryCodes.fileHeader'), codes);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2} spacing="xs" verticalSpacing={4} data-testid="recovery-codes">
        {codes.map((code) => (
          <Code
            key={code}
            data-testid="recovery-code"
            style={{ fontSize: 'var(--mantine-font-size-md)', textAlign: 'center' }}
          >
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs" grow>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('recoveryCodes.copied') : t('recoveryCodes.copy')}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          onClick={() =>
            downloadText(t('recoveryCodes.fileName'), text, 'text/plain;charset=utf-8')
          }
        >
          {t('recoveryCodes.download')}
        </Button>
      </Group>
    </Stack>
  );
}
