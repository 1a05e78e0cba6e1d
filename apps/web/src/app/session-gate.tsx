import { lazy, Suspense, useEffect } from 'react';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { FirstAdminPage } from '../features/identity/auth/components/first-admin-page.tsx';
import { SignInPage } from '../features/identity/auth/components/sign-in-page.tsx';
import { useSetupStatus } from '../features/identity/auth/hooks/use-setup-status.ts';
import { restoreSession } from '../lib/session/session-api.ts';
import { useSession } from '../lib/session/use-session.ts';
import { isConsolePath } from './console-paths.ts';

const ConsoleApp = lazy(() => import('./console-app.tsx'));

/**
 * Everything but the password-reset pages: the console when signed in; otherwise the site root
 * shows sign-in (or first-admin set-up), a console page goes back to the root (spec §2), and an
 * address the console does not have says so, with the way to sign in.
 */
export function SessionGate() {
  const session = useSession();
  const location = useLocation();
  const signedOut = session.status === 'signedOut';
  const setupStatus = useSetupStatus(signedOut);

  useEffect(() => {
    void restoreSession();
  }, []);

  if (session.status === 'restoring') return <FullPageLoader />;
  if (session.status === 'signedIn' && session.user) {
    return (
      <Suspense fallback={<FullPageLoader />}>
        <ConsoleApp user={session.user} />
      </Suspense>
    );
  }
  // An address the console does not have is said to be unknown, not answered with sign-in.
  if (!isConsolePath(location.pathname)) return <SignedOutNotFound />;
  if (location.pathname !== '/') return <Navigate to="/" replace />;
  if (setupStatus.isPending) return <FullPageLoader />;
  // If the status cannot be read, sign-in is the sensible page: it reports its own errors.
  if (setupStatus.data?.needs_first_admin)
    return <FirstAdminPage needsSetupToken={setupStatus.data.needs_setup_token ?? false} />;
  return <SignInPage />;
}

/** An unknown address, signed out: said plainly, with the way to the sign-in page. */
function SignedOutNotFound() {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md">
      <Stack gap="md" align="flex-start" maw={480} data-testid="not-found">
        <Title order={2}>{t('console.notFoundTitle')}</Title>
        <Text>{t('console.notFound')}</Text>
        <Button component={Link} to="/" replace>
          {t('console.signIn')}
        </Button>
      </Stack>
    </Center>
  );
}
