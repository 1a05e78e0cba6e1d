import { Alert, Loader, Stack } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../../lib/session/use-session.ts';
import { useSignInFlow } from '../hooks/use-sign-in-flow.ts';
import { AuthLayout } from '../../../../components/auth-layout.tsx';
import { MfaCodeModal } from './mfa-code-modal.tsx';
import { MfaSetupModal } from './mfa-setup-modal.tsx';
import { NewPasswordForm } from './new-password-form.tsx';
import { SignInForm } from './sign-in-form.tsx';

/** What other pages hand to the sign-in page through navigation state. */
export interface SignInLocationState {
  readonly info?: 'passwordResetDone' | 'firstAdminCreated';
  readonly email?: string;
}

const readState = (state: unknown): SignInLocationState => {
  if (typeof state !== 'object' || state === null) return {};
  const info = 'info' in state ? state.info : undefined;
  const email = 'email' in state ? state.email : undefined;
  return {
    info: info === 'passwordResetDone' || info === 'firstAdminCreated' ? info : undefined,
    email: typeof email === 'string' ? email : undefined,
  };
};

export function SignInPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const { notice } = useSession();
  const flow = useSignInFlow();
  const { info, email } = readState(location.state);
  const { step } = flow;

  if (step.kind === 'newPassword') {
    return (
      <AuthLayout title={t('newPassword.title')} intro={t('newPassword.intro')}>
        <NewPasswordForm
          session={step.session}
          onResult={flow.handleResult}
          onRestart={flow.restart}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('signIn.title')}>
      {info && !flow.errorKey && !notice ? (
        <Alert color="green" role="status">
          {info === 'passwordResetDone'
            ? t('signIn.passwordResetDone')
            : t('signIn.firstAdminCreated', { email: email ?? '' })}
        </Alert>
      ) : null}
      {step.kind === 'finishing' ? (
        <Stack align="center" py="lg">
          <Loader aria-label={t('app.loading')} />
        </Stack>
      ) : (
        // Keyed by the handed-over e-mail: a navigation may land after the form mounted, and
        // react-hook-form reads default values only once.
        <SignInForm
          key={email ?? ''}
          defaultUsername={email}
          errorKey={flow.errorKey ?? notice}
          onSubmit={flow.submitCredentials}
        />
      )}
      {step.kind === 'mfaSetup' ? (
        <MfaSetupModal
          session={step.session}
          onResult={flow.handleResult}
          onRestart={flow.restart}
        />
      ) : null}
      {step.kind === 'mfaCode' ? (
        <MfaCodeModal
          session={step.session}
          onResult={flow.handleResult}
          onRestart={flow.restart}
        />
      ) : null}
    </AuthLayout>
  );
}
