import { useState } from 'react';
import { Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { markSignedIn, type SessionUser } from '../../../../lib/session-store.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { setSecondFactor } from '../api/second-factor-api.ts';

type Choice = 'authenticator' | 'password';

/**
 * The second factor of a user who has a choice: an account exempt from mandatory two-factor
 * (FLASHBULB_MFA_EXEMPT_USERS) signs in with its authenticator app or with the password alone.
 * Everyone else has one factor, the authenticator, and sees no choice. The server decides;
 * the session's user follows its answer.
 */
export function SecondFactorCard({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const current: Choice = user.mfa_enabled ? 'authenticator' : 'password';
  const [choice, setChoice] = useState<Choice>(current);
  const [saving, setSaving] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (!user.mfa_exempt) return null;

  const save = () => {
    setSaving(true);
    setErrorKey(null);
    setSaved(false);
    const authenticator = choice === 'authenticator';
    setSecondFactor(authenticator).then(
      () => {
        setSaving(false);
        setSaved(true);
        markSignedIn({ ...user, mfa_enabled: authenticator });
      },
      (error: unknown) => {
        setSaving(false);
        setErrorKey(errorKeyOf(error));
      },
    );
  };

  return (
    <Card withBorder radius="md" component="section" aria-labelledby="second-factor-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="second-factor-title">
          {t('console.secondFactor.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('console.secondFactor.intro')}
        </Text>
        <FormAlert errorKey={errorKey} />
        <Radio.Group
          value={choice}
          onChange={(value) => {
            setChoice(value === 'password' ? 'password' : 'authenticator');
            setSaved(false);
          }}
          aria-labelledby="second-factor-title"
        >
          <Stack gap="xs">
            <Radio value="authenticator" label={t('console.secondFactor.authenticator')} />
            <Radio value="password" label={t('console.secondFactor.password')} />
          </Stack>
        </Radio.Group>
        <Group>
          <Button onClick={save} loading={saving} disabled={choice === current}>
            {t('console.secondFactor.save')}
          </Button>
          {saved && (
            <Text size="sm" role="status" data-testid="second-factor-saved">
              {choice === 'authenticator'
                ? t('console.secondFactor.savedAuthenticator')
                : t('console.secondFactor.savedPassword')}
            </Text>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
